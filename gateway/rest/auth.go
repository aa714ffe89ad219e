package rest

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/tmsproject/tms/pkg/errs"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// authTTL bounds how long a token check is reused: a rotated or revoked
// token stops working at most this long after the fact (rotation through
// the gateway forgets the user's entries at once).
const authTTL = 5 * time.Second

type authEntry struct {
	user    *notificationv1.User // nil: the token is invalid
	expires time.Time
}

// authenticator resolves API tokens through the notification service and
// caches the answers for a few seconds.
type authenticator struct {
	client notificationv1.NotificationServiceClient
	now    func() time.Time
	mu     sync.Mutex
	cache  map[string]authEntry
}

func newAuthenticator(client notificationv1.NotificationServiceClient) *authenticator {
	return &authenticator{client: client, now: time.Now, cache: map[string]authEntry{}}
}

// tokenFrom extracts the key of "Token <key>" or "Bearer <key>" (keyword
// case-insensitive). ok is false when the header is absent; a malformed
// header gives ok true and an empty key.
func tokenFrom(h string) (key string, ok bool) {
	h = strings.TrimSpace(h)
	if h == "" {
		return "", false
	}
	kw, rest, _ := strings.Cut(h, " ")
	if !strings.EqualFold(kw, "token") && !strings.EqualFold(kw, "bearer") {
		return "", true
	}
	return strings.TrimSpace(rest), true
}

// fromRequest returns the caller (nil for anonymous) or the 401 of an
// unknown key: an invalid key fails every request, reads included.
func (a *authenticator) fromRequest(ctx context.Context, r *http.Request) (*notificationv1.User, error) {
	key, present := tokenFrom(r.Header.Get("Authorization"))
	if !present {
		return nil, nil
	}
	if key == "" || strings.ContainsAny(key, " \t") {
		return nil, invalidToken()
	}
	user, err := a.lookup(ctx, key)
	if err != nil {
		return nil, err
	}
	if user == nil || !user.GetIsActive() {
		return nil, invalidToken()
	}
	return user, nil
}

func (a *authenticator) lookup(ctx context.Context, key string) (*notificationv1.User, error) {
	now := a.now()
	a.mu.Lock()
	e, hit := a.cache[key]
	a.mu.Unlock()
	if hit && now.Before(e.expires) {
		return e.user, nil
	}
	resp, err := a.client.Authenticate(ctx, &notificationv1.AuthenticateRequest{Token: key})
	user := resp.GetUser() // nil for an unknown key
	if err != nil {
		if k := errs.FromStatus(err).Kind; k != errs.Unauthenticated && k != errs.NotFound {
			return nil, err // the service failed: do not remember anything
		}
		user = nil
	}
	a.mu.Lock()
	if len(a.cache) > 10000 {
		a.cache = map[string]authEntry{}
	}
	a.cache[key] = authEntry{user: user, expires: now.Add(authTTL)}
	a.mu.Unlock()
	return user, nil
}

// forgetUser drops cached answers naming the user (after a token rotation).
func (a *authenticator) forgetUser(username string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for k, e := range a.cache {
		if e.user != nil && e.user.GetUsername() == username {
			delete(a.cache, k)
		}
	}
}
