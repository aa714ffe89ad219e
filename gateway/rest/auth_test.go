package rest

import (
	"context"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"

	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// fakeAccounts is the notification service as the authenticator calls
// it: one token, whose grants and the access version the test changes as
// another gateway replica's write would; it counts Authenticate calls.
type fakeAccounts struct {
	notificationv1.NotificationServiceClient
	notificationv1.AccessServiceClient
	mu      sync.Mutex
	version int64
	perms   []string
	calls   int
}

func (f *fakeAccounts) Authenticate(context.Context, *notificationv1.AuthenticateRequest, ...grpc.CallOption) (*notificationv1.AuthenticateResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return &notificationv1.AuthenticateResponse{User: &notificationv1.User{Username: "ann", IsActive: true},
		Grants: []*notificationv1.Grant{{Permissions: append([]string(nil), f.perms...)}}}, nil
}

func (f *fakeAccounts) GetAccessVersion(context.Context, *notificationv1.GetAccessVersionRequest, ...grpc.CallOption) (*notificationv1.GetAccessVersionResponse, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return &notificationv1.GetAccessVersionResponse{Version: f.version}, nil
}

// change is a write made elsewhere: new grants, a new version.
func (f *fakeAccounts) change(perms ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.perms, f.version = perms, f.version+1
}

// TestTokenCacheFollowsTheAccessVersion: a token's grants are kept while
// the access version stands; a change made elsewhere is seen within
// authEvery, and after a write through this gateway at once.
func TestTokenCacheFollowsTheAccessVersion(t *testing.T) {
	f := &fakeAccounts{version: 1, perms: []string{"unit.edit"}}
	a := newAuthenticator(f, f)
	perms := func() []string {
		t.Helper()
		r := httptest.NewRequest("GET", "/api/", nil)
		r.Header.Set("Authorization", "Token k")
		_, c, err := a.fromRequest(t.Context(), r)
		if err != nil {
			t.Fatal(err)
		}
		return c.Grants[0].Permissions
	}
	perms()
	perms()
	if f.calls != 1 {
		t.Errorf("%d Authenticate calls for two requests, want 1", f.calls)
	}
	f.change("unit.edit", "unit.review")
	deadline := time.Now().Add(authEvery + time.Second)
	for len(perms()) != 2 {
		if time.Now().After(deadline) {
			t.Fatalf("a change made elsewhere unseen after %v", authEvery+time.Second)
		}
		time.Sleep(authEvery / 5)
	}
	f.change() // revoked, then a write through this gateway
	a.unverified()
	if got := perms(); len(got) != 0 {
		t.Errorf("after a write through this gateway: %v, want none", got)
	}
}
