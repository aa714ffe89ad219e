package rest

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// authTTL bounds how long a token check is reused when the access version
// cannot be read; authEvery is how stale the version may be, so a change
// of accounts, tokens, teams or roles made anywhere ends the use of what
// was cached before it within authEvery (policy.AccessCache).
const (
	authTTL   = 5 * time.Second
	authEvery = 250 * time.Millisecond
)

// authEntry is what a token resolves to.
type authEntry struct {
	user   *notificationv1.User // nil: the token is invalid
	grants []policy.Grant
}

// anonKey is the cache key of the anonymous caller's grants (no token is
// empty).
const anonKey = ""

// authenticator resolves API tokens through the notification service and
// keeps the answers while the access version they were read under is
// current.
type authenticator struct {
	client notificationv1.NotificationServiceClient
	access notificationv1.AccessServiceClient
	cache  *policy.AccessCache[authEntry]
	// lastAnon are the anonymous caller's grants as last read: used,
	// stale, while the accounts service cannot be reached.
	lastAnon atomic.Pointer[[]policy.Grant]
}

func newAuthenticator(client notificationv1.NotificationServiceClient, access notificationv1.AccessServiceClient) *authenticator {
	a := &authenticator{client: client, access: access}
	var version func(ctx context.Context) (int64, error)
	if access != nil {
		version = func(ctx context.Context) (int64, error) {
			resp, err := access.GetAccessVersion(policy.System(ctx), &notificationv1.GetAccessVersionRequest{})
			return resp.GetVersion(), err
		}
	}
	a.cache = policy.NewAccessCache[authEntry](version, authEvery, authTTL)
	return a
}

// caller is the policy caller of a request: user (nil: anonymous) with
// its teams' grants.
func (a *authenticator) caller(ctx context.Context, user *notificationv1.User, grants []policy.Grant) (policy.Caller, error) {
	if user != nil {
		return policy.Caller{Username: user.GetUsername(), Superuser: user.GetIsSuperuser(), Grants: grants}, nil
	}
	if a.access == nil { // no accounts service: the built-in teams
		return policy.Anonymous, nil
	}
	e, err := a.cache.Get(ctx, anonKey, func(ctx context.Context) (authEntry, error) {
		resp, err := a.access.GetGrants(ctx, &notificationv1.GetGrantsRequest{})
		if err != nil {
			return authEntry{}, err
		}
		e := authEntry{grants: policy.GrantsFromProto(resp.GetGrants())}
		if e.grants == nil {
			e.grants = []policy.Grant{}
		}
		a.lastAnon.Store(&e.grants)
		return e, nil
	})
	if last := a.lastAnon.Load(); err != nil && last != nil {
		return policy.Caller{Grants: *last}, nil // stale rather than nothing while the service is away
	}
	return policy.Caller{Grants: e.grants}, err
}

// unverified has the next request read the access version first: a write
// through this gateway may have changed it.
func (a *authenticator) unverified() { a.cache.Unverified() }

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
	return a.cache.Get(ctx, "token "+key, func(ctx context.Context) (authEntry, error) {
		resp, err := a.client.Authenticate(ctx, &notificationv1.AuthenticateRequest{Token: key})
		if err != nil {
			if k := errs.FromStatus(err).Kind; k != errs.Unauthenticated && k != errs.NotFound {
				return authEntry{}, err // the service failed: do not remember anything
			}
			return authEntry{}, nil // an unknown key, remembered as one
		}
		return authEntry{user: resp.GetUser(), grants: policy.GrantsFromProto(resp.GetGrants())}, nil
	})
}
