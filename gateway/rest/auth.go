package rest

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// authTTL bounds how long a token check is reused: a rotated or revoked
// token stops working at most this long after the fact (rotation through
// the gateway forgets the user's entries at once).
const authTTL = 5 * time.Second

type authEntry struct {
	user    *notificationv1.User // nil: the token is invalid
	grants  []policy.Grant
	expires time.Time
}

// authenticator resolves API tokens through the notification service and
// caches the answers for a few seconds.
type authenticator struct {
	client notificationv1.NotificationServiceClient
	access notificationv1.AccessServiceClient
	now    func() time.Time
	mu     sync.Mutex
	cache  map[string]authEntry
	anon   authEntry // the anonymous caller's grants
}

func newAuthenticator(client notificationv1.NotificationServiceClient, access notificationv1.AccessServiceClient) *authenticator {
	return &authenticator{client: client, access: access, now: time.Now, cache: map[string]authEntry{}}
}

// grantsOf converts grant messages.
func grantsOf(in []*notificationv1.Grant) []policy.Grant {
	out := make([]policy.Grant, len(in))
	for i, g := range in {
		out[i] = policy.Grant{ProjectSelection: g.GetProjectSelection(), Projects: g.GetProjects(),
			Components: g.GetComponents(), LanguageSelection: g.GetLanguageSelection(),
			Languages: g.GetLanguages(), Permissions: g.GetPermissions()}
	}
	return out
}

// caller is the policy caller of a request: user (nil: anonymous) with
// its teams' grants.
func (a *authenticator) caller(ctx context.Context, user *notificationv1.User, grants []policy.Grant) (policy.Caller, error) {
	if user != nil {
		return policy.Caller{Username: user.GetUsername(), Superuser: user.GetIsSuperuser(), Grants: grants}, nil
	}
	now := a.now()
	a.mu.Lock()
	e := a.anon
	a.mu.Unlock()
	if e.expires.After(now) {
		return policy.Caller{Grants: e.grants}, nil
	}
	if a.access == nil { // no accounts service: the built-in teams
		return policy.Anonymous, nil
	}
	resp, err := a.access.GetGrants(ctx, &notificationv1.GetGrantsRequest{})
	if err != nil {
		if e.grants != nil { // stale rather than nothing while the service is away
			return policy.Caller{Grants: e.grants}, nil
		}
		return policy.Caller{}, err
	}
	e = authEntry{grants: grantsOf(resp.GetGrants()), expires: now.Add(authTTL)}
	if e.grants == nil {
		e.grants = []policy.Grant{}
	}
	a.mu.Lock()
	a.anon = e
	a.mu.Unlock()
	return policy.Caller{Grants: e.grants}, nil
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
func (a *authenticator) fromRequest(ctx context.Context, r *http.Request) (*notificationv1.User, policy.Caller, error) {
	key, present := tokenFrom(r.Header.Get("Authorization"))
	if !present {
		c, err := a.caller(ctx, nil, nil)
		return nil, c, err
	}
	if key == "" || strings.ContainsAny(key, " \t") {
		return nil, policy.Caller{}, invalidToken()
	}
	e, err := a.lookup(ctx, key)
	if err != nil {
		return nil, policy.Caller{}, err
	}
	if e.user == nil || !e.user.GetIsActive() {
		return nil, policy.Caller{}, invalidToken()
	}
	c, err := a.caller(ctx, e.user, e.grants)
	return e.user, c, err
}

func (a *authenticator) lookup(ctx context.Context, key string) (authEntry, error) {
	now := a.now()
	a.mu.Lock()
	e, hit := a.cache[key]
	a.mu.Unlock()
	if hit && now.Before(e.expires) {
		return e, nil
	}
	resp, err := a.client.Authenticate(ctx, &notificationv1.AuthenticateRequest{Token: key})
	e = authEntry{user: resp.GetUser(), grants: grantsOf(resp.GetGrants()), expires: now.Add(authTTL)} // no user: unknown key
	if err != nil {
		if k := errs.FromStatus(err).Kind; k != errs.Unauthenticated && k != errs.NotFound {
			return authEntry{}, err // the service failed: do not remember anything
		}
		e.user = nil
	}
	a.mu.Lock()
	if len(a.cache) > 10000 {
		a.cache = map[string]authEntry{}
	}
	a.cache[key] = e
	a.mu.Unlock()
	return e, nil
}

// forgetAll drops every cached answer (after a change of teams or roles
// through this gateway; other replicas see it within authTTL).
func (a *authenticator) forgetAll() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.cache, a.anon = map[string]authEntry{}, authEntry{}
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
