package server_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/grpctest"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/weblate"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/notification/server"
	"github.com/tmsproject/tms/services/notification/store"
)

type pb = notificationv1.NotificationServiceClient

// client starts the server over a real in-process gRPC connection with the
// house interceptors, on a fresh SQLite database holding the user alice.
func client(t *testing.T) pb {
	t.Helper()
	gdb := dbtest.SQLite(t, store.Migrations)
	conn := grpctest.Serve(t, func(srv grpc.ServiceRegistrar) {
		notificationv1.RegisterNotificationServiceServer(srv, server.New(store.New(gdb)))
	})
	c := notificationv1.NewNotificationServiceClient(conn)
	createUser(t, c, "alice")
	return c
}

func createUser(t *testing.T, c pb, name string) {
	t.Helper()
	_, err := c.CreateUser(t.Context(), &notificationv1.CreateUserRequest{User: &notificationv1.User{
		Username: name, FullName: strings.ToUpper(name), Email: name + "@example.org", IsActive: true}})
	if err != nil {
		t.Fatal(err)
	}
}

// wantErr checks the gRPC code and, when field is set, the first violated
// field and, when msg is set, its message.
func wantErr(t *testing.T, err error, code codes.Code, field, msg string) {
	t.Helper()
	if status.Code(err) != code {
		t.Fatalf("got %v, want %v", err, code)
	}
	e := errs.FromStatus(err)
	if field != "" && (len(e.Fields) == 0 || e.Fields[0].Field != field) {
		t.Fatalf("fields %+v, want %s", e.Fields, field)
	}
	if msg != "" && e.Message != msg {
		t.Fatalf("message %q, want %q", e.Message, msg)
	}
}

func TestUsers(t *testing.T) {
	c := client(t)
	ctx := t.Context()
	got, err := c.GetUser(ctx, &notificationv1.GetUserRequest{Username: "alice"})
	u := got.GetUser()
	if err != nil || u.GetId() == 0 || u.GetFullName() != "ALICE" || u.GetEmail() != "alice@example.org" ||
		!u.GetIsActive() || u.GetIsSuperuser() || u.GetDateJoined() == nil {
		t.Fatalf("get: %v %v", got, err)
	}
	subs, err := c.ListSubscriptions(ctx, &notificationv1.ListSubscriptionsRequest{Username: "alice"})
	if err != nil || subs.GetTotal() != 10 || subs.GetSubscriptions()[0].GetNotification() != typev1.NotificationKind_NOTIFICATION_KIND_MENTION_COMMENT {
		t.Fatalf("default subscriptions: %v %v", subs, err)
	}
	createUser(t, c, "bob")
	list, err := c.ListUsers(ctx, &notificationv1.ListUsersRequest{Offset: 1, Limit: 5})
	if err != nil || list.GetTotal() != 2 || len(list.GetUsers()) != 1 || list.GetUsers()[0].GetUsername() != "bob" {
		t.Fatalf("list: %v %v", list, err)
	}
	_, err = c.GetUser(ctx, &notificationv1.GetUserRequest{Username: "nobody"})
	wantErr(t, err, codes.NotFound, "", "")
	_, err = c.ListUsers(ctx, &notificationv1.ListUsersRequest{Limit: -1})
	wantErr(t, err, codes.InvalidArgument, "limit", "")
}

func TestCreateUserValidation(t *testing.T) {
	c := client(t)
	cases := []struct {
		name  string
		user  *notificationv1.User
		field string
		msg   string
	}{
		{"empty", &notificationv1.User{}, "username", "This field is required."},
		{"space", &notificationv1.User{Username: "a b"}, "username",
			"Username may only contain letters, numbers or the following characters: @ . + - _"},
		{"slash", &notificationv1.User{Username: "a/b"}, "username", ""},
		{"leading dot", &notificationv1.User{Username: ".hidden"}, "username", ""},
		{"too long", &notificationv1.User{Username: strings.Repeat("x", 151)}, "username", ""},
		{"taken", &notificationv1.User{Username: "alice"}, "username", "A user with that username already exists."},
		{"taken other case", &notificationv1.User{Username: "ALICE"}, "username", ""},
		{"bad email", &notificationv1.User{Username: "carol", Email: "not-an-address"}, "email", "Enter a valid email address."},
		{"taken email", &notificationv1.User{Username: "carol", Email: "Alice@Example.org"}, "email", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.CreateUser(t.Context(), &notificationv1.CreateUserRequest{User: tc.user})
			wantErr(t, err, codes.InvalidArgument, tc.field, tc.msg)
		})
	}
	for _, ok := range []string{"jürgen", "a.b@c+d-e_f", "123"} {
		if _, err := c.CreateUser(t.Context(), &notificationv1.CreateUserRequest{User: &notificationv1.User{Username: ok}}); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

func TestTokens(t *testing.T) {
	c := client(t)
	ctx := t.Context()
	for _, bad := range []string{"", "wlu_unknown"} {
		_, err := c.Authenticate(ctx, &notificationv1.AuthenticateRequest{Token: bad})
		wantErr(t, err, codes.Unauthenticated, "", "Invalid token.")
	}
	first, err := c.IssueToken(ctx, &notificationv1.IssueTokenRequest{Username: "alice"})
	if err != nil || !strings.HasPrefix(first.GetToken(), "wlu_") || len(first.GetToken()) != 40 {
		t.Fatalf("issue: %v %v", first, err)
	}
	who, err := c.Authenticate(ctx, &notificationv1.AuthenticateRequest{Token: first.GetToken()})
	if err != nil || who.GetUser().GetUsername() != "alice" {
		t.Fatalf("authenticate: %v %v", who, err)
	}
	second, err := c.IssueToken(ctx, &notificationv1.IssueTokenRequest{Username: "alice"})
	if err != nil || second.GetToken() == first.GetToken() {
		t.Fatalf("reissue: %v %v", second, err)
	}
	_, err = c.Authenticate(ctx, &notificationv1.AuthenticateRequest{Token: first.GetToken()})
	wantErr(t, err, codes.Unauthenticated, "", "Invalid token.")
	if _, err = c.Authenticate(ctx, &notificationv1.AuthenticateRequest{Token: second.GetToken()}); err != nil {
		t.Fatalf("new token: %v", err)
	}
	_, err = c.IssueToken(ctx, &notificationv1.IssueTokenRequest{Username: "nobody"})
	wantErr(t, err, codes.NotFound, "", "")
	_, err = c.IssueToken(ctx, &notificationv1.IssueTokenRequest{Username: "anonymous"})
	wantErr(t, err, codes.FailedPrecondition, "", "")
}

func TestInactiveUserCannotAuthenticate(t *testing.T) {
	c := client(t)
	if _, err := c.CreateUser(t.Context(), &notificationv1.CreateUserRequest{User: &notificationv1.User{Username: "gone"}}); err != nil {
		t.Fatal(err)
	}
	tok, err := c.IssueToken(t.Context(), &notificationv1.IssueTokenRequest{Username: "gone"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Authenticate(t.Context(), &notificationv1.AuthenticateRequest{Token: tok.GetToken()})
	wantErr(t, err, codes.Unauthenticated, "", "User inactive or deleted.")
}

func TestSetUserActive(t *testing.T) {
	c := client(t)
	ctx := t.Context()
	tok, err := c.IssueToken(ctx, &notificationv1.IssueTokenRequest{Username: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	off, err := c.SetUserActive(ctx, &notificationv1.SetUserActiveRequest{Username: "alice", Active: false})
	if err != nil || off.GetUser().GetIsActive() {
		t.Fatalf("deactivate: %v %v", off, err)
	}
	_, err = c.Authenticate(ctx, &notificationv1.AuthenticateRequest{Token: tok.GetToken()})
	wantErr(t, err, codes.Unauthenticated, "", "User inactive or deleted.")
	if _, err = c.SetUserActive(ctx, &notificationv1.SetUserActiveRequest{Username: "alice", Active: true}); err != nil {
		t.Fatal(err)
	}
	if _, err = c.Authenticate(ctx, &notificationv1.AuthenticateRequest{Token: tok.GetToken()}); err != nil {
		t.Errorf("reactivated account's token: %v", err)
	}
	_, err = c.SetUserActive(ctx, &notificationv1.SetUserActiveRequest{Username: "nobody"})
	wantErr(t, err, codes.NotFound, "", "")
	for _, builtin := range []string{server.Admin, server.Anonymous} {
		_, err = c.SetUserActive(ctx, &notificationv1.SetUserActiveRequest{Username: builtin})
		wantErr(t, err, codes.FailedPrecondition, "", "")
	}
}

func TestUpdateUser(t *testing.T) {
	c := client(t)
	ctx := t.Context()
	createUser(t, c, "bob")
	expires := timestamppb.New(time.Date(2030, 1, 2, 3, 4, 5, 0, time.UTC))
	resp, err := c.UpdateUser(ctx, &notificationv1.UpdateUserRequest{Username: "alice",
		User:       &notificationv1.User{FullName: " Alice Liddell ", IsBot: true, DateExpires: expires, Email: "ignored@example.org"},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"full_name", "is_bot", "date_expires"}}})
	u := resp.GetUser()
	if err != nil || u.GetFullName() != "Alice Liddell" || !u.GetIsBot() || !u.GetDateExpires().AsTime().Equal(expires.AsTime()) ||
		u.GetEmail() != "alice@example.org" || u.GetLastLogin() != nil {
		t.Fatalf("update: %v %v", u, err)
	}
	again, err := c.GetUser(ctx, &notificationv1.GetUserRequest{Username: "alice"})
	if err != nil || again.GetUser().GetFullName() != "Alice Liddell" || !again.GetUser().GetIsBot() {
		t.Errorf("stored: %v %v", again, err)
	}
	bad := []struct {
		name  string
		req   *notificationv1.UpdateUserRequest
		code  codes.Code
		field string
	}{
		{"taken address", &notificationv1.UpdateUserRequest{Username: "alice", User: &notificationv1.User{Email: "BOB@example.org"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"email"}}}, codes.InvalidArgument, "email"},
		{"bad address", &notificationv1.UpdateUserRequest{Username: "alice", User: &notificationv1.User{Email: "nope"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"email"}}}, codes.InvalidArgument, "email"},
		{"user name", &notificationv1.UpdateUserRequest{Username: "alice", User: &notificationv1.User{Username: "al"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"username"}}}, codes.InvalidArgument, "username"},
		{"unknown", &notificationv1.UpdateUserRequest{Username: "nobody", User: &notificationv1.User{}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"full_name"}}}, codes.NotFound, ""},
		{"built-in", &notificationv1.UpdateUserRequest{Username: "admin", User: &notificationv1.User{}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"full_name"}}}, codes.FailedPrecondition, ""},
	}
	for _, b := range bad {
		_, err := c.UpdateUser(ctx, b.req)
		if status.Code(err) != b.code {
			t.Errorf("%s: %v, want %v", b.name, err, b.code)
		}
		if b.field != "" {
			wantErr(t, err, b.code, b.field, "")
		}
	}
}

func sub(user string, kind typev1.NotificationKind, scope typev1.NotificationScope, freq typev1.NotificationFrequency,
	project, component string) *notificationv1.Subscription {
	return &notificationv1.Subscription{Username: user, Notification: kind, Scope: scope, Frequency: freq,
		ProjectSlug: project, ComponentSlug: component}
}

func TestSubscriptionValidation(t *testing.T) {
	c := client(t)
	cases := []struct {
		name  string
		sub   *notificationv1.Subscription
		field string
		msg   string
	}{
		{"unknown kind", sub("alice", typev1.NotificationKind(99), typev1.NotificationScope_NOTIFICATION_SCOPE_ALL, typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_INSTANT, "", ""), "notification",
			`"99" is not a valid choice.`},
		{"no kind", sub("alice", typev1.NotificationKind_NOTIFICATION_KIND_UNSPECIFIED, typev1.NotificationScope_NOTIFICATION_SCOPE_ALL, typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_INSTANT, "", ""), "notification", "This field is required."},
		{"no scope", sub("alice", typev1.NotificationKind_NOTIFICATION_KIND_NEW_ALERT, typev1.NotificationScope_NOTIFICATION_SCOPE_UNSPECIFIED,
			typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_INSTANT, "", ""), "scope", "This field is required."},
		{"no frequency", sub("alice", typev1.NotificationKind_NOTIFICATION_KIND_NEW_ALERT, typev1.NotificationScope_NOTIFICATION_SCOPE_ALL,
			typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_UNSPECIFIED, "", ""), "frequency", "This field is required."},
		{"bad scope", sub("alice", typev1.NotificationKind_NOTIFICATION_KIND_NEW_ALERT, typev1.NotificationScope(15), typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_INSTANT, "", ""), "scope", `"15" is not a valid choice.`},
		{"bad frequency", sub("alice", typev1.NotificationKind_NOTIFICATION_KIND_NEW_ALERT, typev1.NotificationScope_NOTIFICATION_SCOPE_ALL, typev1.NotificationFrequency(7), "", ""), "frequency", `"7" is not a valid choice.`},
		{"project scope without project", sub("alice", typev1.NotificationKind_NOTIFICATION_KIND_NEW_ALERT, typev1.NotificationScope_NOTIFICATION_SCOPE_PROJECT, typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_INSTANT, "", ""), "project", "This field is required."},
		{"component scope without component", sub("alice", typev1.NotificationKind_NOTIFICATION_KIND_NEW_ALERT, typev1.NotificationScope_NOTIFICATION_SCOPE_COMPONENT, typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_INSTANT, "p", ""), "component", "This field is required."},
		{"component scope without project", sub("alice", typev1.NotificationKind_NOTIFICATION_KIND_NEW_ALERT, typev1.NotificationScope_NOTIFICATION_SCOPE_COMPONENT, typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_INSTANT, "", "c"), "project", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.CreateSubscription(t.Context(), &notificationv1.CreateSubscriptionRequest{Subscription: tc.sub})
			wantErr(t, err, codes.InvalidArgument, tc.field, tc.msg)
		})
	}
	_, err := c.CreateSubscription(t.Context(), &notificationv1.CreateSubscriptionRequest{Subscription: sub("nobody", typev1.NotificationKind_NOTIFICATION_KIND_NEW_ALERT, typev1.NotificationScope_NOTIFICATION_SCOPE_ALL, typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_INSTANT, "", "")})
	wantErr(t, err, codes.NotFound, "", "")
	// Every kind is accepted.
	for _, kind := range weblate.NotificationKinds.Values() {
		if _, err := c.CreateSubscription(t.Context(), &notificationv1.CreateSubscriptionRequest{Subscription: sub("alice", kind,
			typev1.NotificationScope_NOTIFICATION_SCOPE_ALL, typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_INSTANT, "", "")}); err != nil {
			t.Errorf("%s: %v", kind, err)
		}
	}
}

func TestSubscriptionLifecycle(t *testing.T) {
	c := client(t)
	ctx := t.Context()
	createUser(t, c, "bob")
	created, err := c.CreateSubscription(ctx, &notificationv1.CreateSubscriptionRequest{
		Subscription: sub("alice", typev1.NotificationKind_NOTIFICATION_KIND_NEW_COMPONENT, typev1.NotificationScope_NOTIFICATION_SCOPE_COMPONENT, typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_DAILY, "proj", "comp")})
	s := created.GetSubscription()
	if err != nil || s.GetId() == 0 || s.GetUsername() != "alice" || s.GetComponentSlug() != "comp" {
		t.Fatalf("create: %v %v", created, err)
	}
	list, err := c.ListSubscriptions(ctx, &notificationv1.ListSubscriptionsRequest{Username: "alice", Offset: 9, Limit: 5})
	if err != nil || list.GetTotal() != 11 || len(list.GetSubscriptions()) != 2 || list.GetSubscriptions()[1].GetId() != s.GetId() {
		t.Fatalf("list: %v %v", list, err)
	}
	// A partial update changes the named fields only.
	upd, err := c.UpdateSubscription(ctx, &notificationv1.UpdateSubscriptionRequest{
		Subscription: &notificationv1.Subscription{Username: "alice", Id: s.GetId(),
			Frequency: typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_WEEKLY, Scope: 99},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"frequency"}}})
	if err != nil || upd.GetSubscription().GetFrequency() != typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_WEEKLY ||
		upd.GetSubscription().GetScope() != typev1.NotificationScope_NOTIFICATION_SCOPE_COMPONENT {
		t.Fatalf("patch: %v %v", upd, err)
	}
	// A full update replaces everything and is validated as a whole.
	_, err = c.UpdateSubscription(ctx, &notificationv1.UpdateSubscriptionRequest{
		Subscription: &notificationv1.Subscription{Username: "alice", Id: s.GetId(),
			Notification: typev1.NotificationKind_NOTIFICATION_KIND_LOCK, Scope: typev1.NotificationScope_NOTIFICATION_SCOPE_PROJECT,
			Frequency: typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_DAILY}})
	wantErr(t, err, codes.InvalidArgument, "project", "")
	_, err = c.UpdateSubscription(ctx, &notificationv1.UpdateSubscriptionRequest{
		Subscription: sub("alice", typev1.NotificationKind_NOTIFICATION_KIND_LOCK, typev1.NotificationScope_NOTIFICATION_SCOPE_ALL, typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_INSTANT, "", "")})
	wantErr(t, err, codes.NotFound, "", "") // no id
	full := sub("alice", typev1.NotificationKind_NOTIFICATION_KIND_LOCK, typev1.NotificationScope_NOTIFICATION_SCOPE_WATCHED, typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_INSTANT, "", "")
	full.Id = s.GetId()
	upd, err = c.UpdateSubscription(ctx, &notificationv1.UpdateSubscriptionRequest{Subscription: full})
	if err != nil || upd.GetSubscription().GetNotification() != typev1.NotificationKind_NOTIFICATION_KIND_LOCK || upd.GetSubscription().GetProjectSlug() != "" {
		t.Fatalf("put: %v %v", upd, err)
	}
	_, err = c.UpdateSubscription(ctx, &notificationv1.UpdateSubscriptionRequest{Subscription: full,
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"user"}}})
	wantErr(t, err, codes.InvalidArgument, "user", "Unknown field.")
	// A named enum field must hold a value; left unnamed, it is not read.
	_, err = c.UpdateSubscription(ctx, &notificationv1.UpdateSubscriptionRequest{
		Subscription: &notificationv1.Subscription{Username: "alice", Id: s.GetId()},
		UpdateMask:   &fieldmaskpb.FieldMask{Paths: []string{"scope"}}})
	wantErr(t, err, codes.InvalidArgument, "scope", "This field is required.")
	got, err := c.GetSubscription(ctx, &notificationv1.GetSubscriptionRequest{Username: "alice", Id: s.GetId()})
	if err != nil || got.GetSubscription().GetScope() != typev1.NotificationScope_NOTIFICATION_SCOPE_WATCHED {
		t.Fatalf("get: %v %v", got, err)
	}

	// Another user's id is not found, whatever the operation.
	_, err = c.GetSubscription(ctx, &notificationv1.GetSubscriptionRequest{Username: "bob", Id: s.GetId()})
	wantErr(t, err, codes.NotFound, "", "")
	stolen := sub("bob", typev1.NotificationKind_NOTIFICATION_KIND_LOCK, typev1.NotificationScope_NOTIFICATION_SCOPE_ALL, typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_NONE, "", "")
	stolen.Id = s.GetId()
	_, err = c.UpdateSubscription(ctx, &notificationv1.UpdateSubscriptionRequest{Subscription: stolen})
	wantErr(t, err, codes.NotFound, "", "")
	_, err = c.DeleteSubscription(ctx, &notificationv1.DeleteSubscriptionRequest{Username: "bob", Id: s.GetId()})
	wantErr(t, err, codes.NotFound, "", "")

	if _, err = c.DeleteSubscription(ctx, &notificationv1.DeleteSubscriptionRequest{Username: "alice", Id: s.GetId()}); err != nil {
		t.Fatalf("delete %d: %v", s.GetId(), err)
	}
	_, err = c.GetSubscription(ctx, &notificationv1.GetSubscriptionRequest{Username: "alice", Id: s.GetId()})
	wantErr(t, err, codes.NotFound, "", "")
	_, err = c.ListSubscriptions(ctx, &notificationv1.ListSubscriptionsRequest{Username: "nobody"})
	wantErr(t, err, codes.NotFound, "", "")
	_, err = c.ListSubscriptions(ctx, &notificationv1.ListSubscriptionsRequest{Username: "alice", Offset: -2})
	wantErr(t, err, codes.InvalidArgument, "offset", "")
}

// TestUsersAsCaller: an account's e-mail, teams and dates reach only the
// services, superusers and the account's owner; others get the public
// part; a list shows a caller who is not a superuser its own account only.
func TestUsersAsCaller(t *testing.T) {
	c := client(t)
	createUser(t, c, "bob")
	callers := []struct {
		name     string
		ctx      context.Context
		full     bool     // sees all of alice
		listed   []string // what ListUsers shows
		listedOf int64    // its total
	}{
		{"service", t.Context(), true, []string{"alice", "bob"}, 2},
		{"superuser", policy.WithCaller(t.Context(), policy.Caller{Username: "root", Superuser: true}), true, []string{"alice", "bob"}, 2},
		{"owner", policy.WithCaller(t.Context(), policy.NewAccount("alice")), true, []string{"alice"}, 1},
		{"other user", policy.WithCaller(t.Context(), policy.NewAccount("bob")), false, []string{"bob"}, 1},
		{"anonymous", policy.WithCaller(t.Context(), policy.Anonymous), false, nil, 0},
	}
	for _, cc := range callers {
		t.Run(cc.name, func(t *testing.T) {
			got, err := c.GetUser(cc.ctx, &notificationv1.GetUserRequest{Username: "alice"})
			if err != nil {
				t.Fatal(err)
			}
			u := got.GetUser()
			if u.GetUsername() != "alice" || u.GetFullName() != "ALICE" || u.GetId() == 0 {
				t.Errorf("public part: %v", u)
			}
			if full := u.GetEmail() != ""; full != cc.full {
				t.Errorf("e-mail %q shown: %v, want %v", u.GetEmail(), full, cc.full)
			}
			if full := u.GetDateJoined() != nil; full != cc.full {
				t.Errorf("date joined shown: %v, want %v", full, cc.full)
			}
			list, err := c.ListUsers(cc.ctx, &notificationv1.ListUsersRequest{})
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, u := range list.GetUsers() {
				names = append(names, u.GetUsername())
			}
			if !slices.Equal(names, cc.listed) || list.GetTotal() != cc.listedOf {
				t.Errorf("listed %v of %d, want %v of %d", names, list.GetTotal(), cc.listed, cc.listedOf)
			}
		})
	}
}

// TestExpiredUserCannotAuthenticate: an account past its date_expires is
// refused as an inactive one; moving the date forward lets it in again.
func TestExpiredUserCannotAuthenticate(t *testing.T) {
	c := client(t)
	ctx := t.Context()
	tok, err := c.IssueToken(ctx, &notificationv1.IssueTokenRequest{Username: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		expires time.Time
		ok      bool
	}{
		{"expired", time.Now().Add(-time.Minute), false},
		{"expires later", time.Now().Add(time.Hour), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := c.UpdateUser(ctx, &notificationv1.UpdateUserRequest{Username: "alice",
				User: &notificationv1.User{DateExpires: timestamppb.New(tc.expires)}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"date_expires"}}})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Authenticate(ctx, &notificationv1.AuthenticateRequest{Token: tok.GetToken()})
			if tc.ok && err != nil {
				t.Errorf("authenticate: %v", err)
			}
			if !tc.ok {
				wantErr(t, err, codes.Unauthenticated, "", "User inactive or deleted.")
			}
		})
	}
}

// TestListUsersByName: usernames narrows the list to those accounts (one
// call resolves a list's authors), unknown names are left out, and the
// callers' rules still hold.
func TestListUsersByName(t *testing.T) {
	c := client(t)
	for _, name := range []string{"bob", "carol"} {
		createUser(t, c, name)
	}
	names := func(ctx context.Context, usernames ...string) string {
		t.Helper()
		list, err := c.ListUsers(ctx, &notificationv1.ListUsersRequest{Usernames: usernames})
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, u := range list.GetUsers() {
			out = append(out, u.GetUsername())
		}
		return fmt.Sprintf("%v of %d", out, list.GetTotal())
	}
	bob := policy.WithCaller(t.Context(), policy.NewAccount("bob"))
	for _, tc := range []struct {
		name  string
		ctx   context.Context
		names []string
		want  string
	}{
		{"service, two and an unknown", t.Context(), []string{"carol", "alice", "nobody"}, "[alice carol] of 2"},
		{"service, every account", t.Context(), nil, "[alice bob carol] of 3"},
		{"user, itself among them", bob, []string{"bob", "carol"}, "[bob] of 1"},
		{"user, others only", bob, []string{"alice", "carol"}, "[] of 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := names(tc.ctx, tc.names...); got != tc.want {
				t.Errorf("%s, want %s", got, tc.want)
			}
		})
	}
}
