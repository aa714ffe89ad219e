package server_test

import (
	"encoding/base64"
	"fmt"
	"slices"
	"testing"

	"google.golang.org/grpc/codes"

	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// TestListSubscriptionsPageTokens pages through an account's ten default
// subscriptions with page tokens to the end, and refuses a token altered
// or sent for another account.
func TestListSubscriptionsPageTokens(t *testing.T) {
	c := client(t)
	ctx := t.Context()
	createUser(t, c, "bob")
	all, err := c.ListSubscriptions(ctx, &notificationv1.ListSubscriptionsRequest{Username: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	for _, s := range all.GetSubscriptions() {
		want = append(want, s.GetId())
	}
	t.Run("to the end", func(t *testing.T) {
		var got []int64
		pages := 0
		req := &notificationv1.ListSubscriptionsRequest{Username: "alice", PageSize: 3}
		for range len(want) {
			resp, lerr := c.ListSubscriptions(ctx, req)
			if lerr != nil {
				t.Fatal(lerr)
			}
			pages++
			for _, s := range resp.GetSubscriptions() {
				got = append(got, s.GetId())
			}
			if req.PageToken = resp.GetNextPageToken(); req.PageToken == "" {
				break
			}
		}
		if !slices.Equal(got, want) || pages != (len(want)+2)/3 {
			t.Fatalf("%d pages of ids %v, want %d of %v", pages, got, (len(want)+2)/3, want)
		}
	})
	first, err := c.ListSubscriptions(ctx, &notificationv1.ListSubscriptionsRequest{Username: "alice", PageSize: 3})
	if err != nil {
		t.Fatal(err)
	}
	raw, err := base64.RawURLEncoding.DecodeString(first.GetNextPageToken())
	if err != nil {
		t.Fatal(err)
	}
	raw[2] ^= 1 // in the fingerprint
	for _, tc := range []struct {
		desc string
		req  *notificationv1.ListSubscriptionsRequest
	}{
		{"tampered token", &notificationv1.ListSubscriptionsRequest{Username: "alice", PageToken: base64.RawURLEncoding.EncodeToString(raw)}},
		{"token for another account", &notificationv1.ListSubscriptionsRequest{Username: "bob", PageToken: first.GetNextPageToken()}},
		{"token with a limit", &notificationv1.ListSubscriptionsRequest{Username: "alice", Limit: 3, PageToken: first.GetNextPageToken()}},
	} {
		t.Run(tc.desc, func(t *testing.T) {
			_, err := c.ListSubscriptions(ctx, tc.req)
			wantErr(t, err, codes.InvalidArgument, "page_token", "")
		})
	}
	t.Run("negative page_size", func(t *testing.T) {
		_, err := c.ListSubscriptions(ctx, &notificationv1.ListSubscriptionsRequest{Username: "alice", PageSize: -1})
		wantErr(t, err, codes.InvalidArgument, "page_size", "")
	})
}

// TestListUsersPageTokens: accounts page by token as by offset.
func TestListUsersPageTokens(t *testing.T) {
	c := client(t)
	ctx := t.Context()
	for i := range 4 {
		createUser(t, c, fmt.Sprint("user", i))
	}
	var got []string
	req := &notificationv1.ListUsersRequest{PageSize: 2}
	for range 5 {
		resp, err := c.ListUsers(ctx, req)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range resp.GetUsers() {
			got = append(got, u.GetUsername())
		}
		if req.PageToken = resp.GetNextPageToken(); req.PageToken == "" {
			break
		}
	}
	if want := []string{"alice", "user0", "user1", "user2", "user3"}; !slices.Equal(got, want) {
		t.Fatalf("paged users %v, want %v", got, want)
	}
}
