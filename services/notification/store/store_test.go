package store_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/pgtest"
	"github.com/tmsproject/tms/services/notification/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// TestStore is the storage conformance suite, run on both engines.
func TestStore(t *testing.T) {
	cases := []struct {
		name string
		run  func(t *testing.T, s *store.Store)
	}{
		{"create and get user", testCreateUser},
		{"unique user name and e-mail ignore case", testUnique},
		{"ensure user is idempotent", testEnsureUser},
		{"list users", testListUsers},
		{"tokens", testTokens},
		{"subscriptions crud", testSubscriptions},
		{"subscriptions belong to their user", testSubscriptionOwnership},
		{"subscription paging", testSubscriptionPaging},
		{"update aborted by change func", testUpdateAbort},
		{"user activation", testSetUserActive},
		{"user update", testUpdateUser},
		{"webhooks and their deliveries", testWebhooks},
		{"delivery claims", testDeliveryClaims},
		{"delivery claims under racing replicas", testDeliveryClaimRace},
		{"mail claims take whole digests", testMailClaims},
		{"rate limit quota", testTakeQuota},
		{"rate limit quota under racing replicas", testTakeQuotaRace},
		{"built-in teams and grants", testBuiltinTeams},
		{"project teams", testProjectTeams},
		{"project renames", testProjectRenames},
		{"project events applied once", testProjectEvents},
		{"watched projects follow project events", testWatchedFollowsProjects},
		{"team component lists", testTeamComponentLists},
		{"roles and team links", testRolesAndLinks},
		{"access version", testAccessVersion},
	}
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				for _, table := range []string{"webhook_deliveries", "webhooks", "notifications", "delivery_cursors", "subscriptions", "users", "rate_limit_counters"} {
					if err := gdb.Exec("DELETE FROM " + table).Error; err != nil {
						t.Fatal(err)
					}
				}
				c.run(t, store.New(gdb))
			})
		}
	}, store.Migrations)
}

var joined = time.Date(2024, 2, 3, 4, 5, 6, 789012345, time.UTC)

func mustCreate(t *testing.T, s *store.Store, name string, subs ...store.Subscription) store.User {
	t.Helper()
	u, err := s.CreateUser(t.Context(), store.User{Username: name, FullName: name, IsActive: true}, subs)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func testCreateUser(t *testing.T, s *store.Store) {
	in := store.User{Username: "Jürgen", FullName: "Jürgen X", Email: "j@example.com", IsSuperuser: true,
		IsActive: true, DateJoined: joined.In(time.FixedZone("Y", -7200))}
	u, err := s.CreateUser(t.Context(), in, []store.Subscription{{Notification: "A", Scope: 10, Frequency: 1}})
	if err != nil {
		t.Fatal(err)
	}
	got, err := s.UserByName(t.Context(), "Jürgen")
	if err != nil {
		t.Fatal(err)
	}
	want := in
	want.ID, want.DateJoined = u.ID, joined.Truncate(time.Microsecond)
	if got != want || u != want {
		t.Fatalf("got %+v / %+v\nwant %+v", got, u, want)
	}
	if _, err = s.UserByName(t.Context(), "jürgen"); !errs.Is(err, errs.NotFound) {
		t.Fatalf("lookup is exact: %v", err)
	}
	subs, total, err := s.ListSubscriptions(t.Context(), "Jürgen", 0, 0)
	if err != nil || total != 1 || subs[0].Username != "Jürgen" || subs[0].Notification != "A" {
		t.Fatalf("initial subscriptions: %+v %d %v", subs, total, err)
	}
	now := time.Now()
	plain := mustCreate(t, s, "plain")
	if plain.DateJoined.Before(now.Add(-time.Minute)) || plain.Email != "" {
		t.Fatalf("defaults: %+v", plain)
	}
}

func testUnique(t *testing.T, s *store.Store) {
	if _, err := s.CreateUser(t.Context(), store.User{Username: "Alice", Email: "A@x.org"}, nil); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		u     store.User
		field string
	}{
		{store.User{Username: "alice"}, "username"},
		{store.User{Username: "ALICE", Email: "other@x.org"}, "username"},
		{store.User{Username: "bob", Email: "a@X.org"}, "email"},
	}
	for _, c := range cases {
		_, err := s.CreateUser(t.Context(), c.u, nil)
		var e *errs.Error
		if !errs.Is(err, errs.InvalidArgument) || !errors.As(err, &e) || len(e.Fields) == 0 || e.Fields[0].Field != c.field {
			t.Fatalf("%+v: got %v, want InvalidArgument on %s", c.u, err, c.field)
		}
	}
	// Accounts without an address do not collide on it.
	mustCreate(t, s, "carol")
	mustCreate(t, s, "dave")
}

func testEnsureUser(t *testing.T, s *store.Store) {
	subs := []store.Subscription{{Notification: "A", Scope: 0, Frequency: 1}, {Notification: "B", Scope: 20, Frequency: 1}}
	u1, created, err := s.EnsureUser(t.Context(), store.User{Username: "admin", IsSuperuser: true, IsActive: true}, subs)
	if err != nil || !created {
		t.Fatalf("first: %v %v", created, err)
	}
	u2, created, err := s.EnsureUser(t.Context(), store.User{Username: "admin", FullName: "changed"}, subs)
	if err != nil || created || u2 != u1 {
		t.Fatalf("second: %+v %v %v", u2, created, err)
	}
	if _, total, _ := s.ListSubscriptions(t.Context(), "admin", 0, 0); total != 2 {
		t.Fatalf("subscriptions doubled: %d", total)
	}
}

func testListUsers(t *testing.T, s *store.Store) {
	for i := range 5 {
		mustCreate(t, s, fmt.Sprintf("u%d", i))
	}
	users, total, err := s.ListUsers(t.Context(), 1, 2, nil, "")
	if err != nil || total != 5 || len(users) != 2 || users[0].Username != "u1" || users[1].Username != "u2" {
		t.Fatalf("page: %+v %d %v", users, total, err)
	}
	users, _, err = s.ListUsers(t.Context(), 0, 0, nil, "")
	if err != nil || len(users) != 5 {
		t.Fatalf("all: %d %v", len(users), err)
	}
	users, total, err = s.ListUsers(t.Context(), 0, 0, []string{"u3", "u1", "nobody"}, "")
	if err != nil || total != 2 || len(users) != 2 || users[0].Username != "u1" || users[1].Username != "u3" {
		t.Fatalf("by name: %+v %d %v", users, total, err)
	}
	mustCreate(t, s, "x_y")
	for search, want := range map[string]int{"U": 5, "u3": 1, "_": 1, "%": 0, "nobody": 0} {
		if _, total, err := s.ListUsers(t.Context(), 0, 0, nil, search); err != nil || total != int64(want) {
			t.Errorf("search %q: %d %v, want %d", search, total, err, want)
		}
	}
	if _, _, err := s.ListUsers(t.Context(), -1, 0, nil, ""); !errs.Is(err, errs.InvalidArgument) {
		t.Fatalf("negative offset: %v", err)
	}
}

func testTokens(t *testing.T, s *store.Store) {
	mustCreate(t, s, "alice")
	mustCreate(t, s, "bob")
	if _, err := s.UserByTokenHash(t.Context(), "h1"); !errs.Is(err, errs.NotFound) {
		t.Fatalf("no token yet: %v", err)
	}
	if ok, err := s.SetTokenHashIfNone(t.Context(), "alice", "h1"); err != nil || !ok {
		t.Fatalf("first token: %v %v", ok, err)
	}
	if ok, err := s.SetTokenHashIfNone(t.Context(), "alice", "h2"); err != nil || ok {
		t.Fatalf("second first token: %v %v", ok, err)
	}
	if u, err := s.UserByTokenHash(t.Context(), "h1"); err != nil || u.Username != "alice" {
		t.Fatalf("by token: %+v %v", u, err)
	}
	if err := s.SetTokenHash(t.Context(), "alice", "h3"); err != nil {
		t.Fatal(err)
	}
	if _, err := s.UserByTokenHash(t.Context(), "h1"); !errs.Is(err, errs.NotFound) {
		t.Fatalf("old token still works: %v", err)
	}
	if err := s.SetTokenHash(t.Context(), "nobody", "h4"); !errs.Is(err, errs.NotFound) {
		t.Fatalf("unknown user: %v", err)
	}
	if err := s.SetTokenHash(t.Context(), "bob", "h3"); err == nil {
		t.Fatal("two accounts share a token hash")
	}
}

func testSubscriptions(t *testing.T, s *store.Store) {
	mustCreate(t, s, "alice")
	sub, err := s.CreateSubscription(t.Context(), store.Subscription{Username: "alice", Notification: "N",
		Scope: 40, Frequency: 2, ProjectSlug: "p", ComponentSlug: "c"})
	if err != nil || sub.ID == 0 || sub.Username != "alice" {
		t.Fatalf("create: %+v %v", sub, err)
	}
	got, err := s.GetSubscription(t.Context(), "alice", sub.ID)
	if err != nil || got != sub {
		t.Fatalf("get: %+v %v, want %+v", got, err, sub)
	}
	upd, err := s.UpdateSubscription(t.Context(), "alice", sub.ID, func(x *store.Subscription) error {
		x.Frequency, x.Scope, x.ProjectSlug, x.ComponentSlug = 4, 0, "", ""
		x.ID, x.Username = 999, "mallory" // ignored
		return nil
	})
	if err != nil || upd.Frequency != 4 || upd.ID != sub.ID || upd.Username != "alice" {
		t.Fatalf("update: %+v %v", upd, err)
	}
	got, _ = s.GetSubscription(t.Context(), "alice", sub.ID)
	if got != upd {
		t.Fatalf("after update %+v, want %+v", got, upd)
	}
	if err := s.DeleteSubscription(t.Context(), "alice", sub.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetSubscription(t.Context(), "alice", sub.ID); !errs.Is(err, errs.NotFound) {
		t.Fatalf("after delete: %v", err)
	}
	if err := s.DeleteSubscription(t.Context(), "alice", sub.ID); !errs.Is(err, errs.NotFound) {
		t.Fatalf("delete twice: %v", err)
	}
	if _, err := s.CreateSubscription(t.Context(), store.Subscription{Username: "nobody", Notification: "N"}); !errs.Is(err, errs.NotFound) {
		t.Fatalf("unknown user: %v", err)
	}
}

func testSubscriptionOwnership(t *testing.T, s *store.Store) {
	mustCreate(t, s, "alice")
	mustCreate(t, s, "bob")
	sub, err := s.CreateSubscription(t.Context(), store.Subscription{Username: "alice", Notification: "N", Frequency: 1})
	if err != nil {
		t.Fatal(err)
	}
	noop := func(*store.Subscription) error { return nil }
	checks := map[string]error{
		"get":    func() error { _, err := s.GetSubscription(t.Context(), "bob", sub.ID); return err }(),
		"update": func() error { _, err := s.UpdateSubscription(t.Context(), "bob", sub.ID, noop); return err }(),
		"delete": s.DeleteSubscription(t.Context(), "bob", sub.ID),
		"nobody": func() error { _, err := s.GetSubscription(t.Context(), "nobody", sub.ID); return err }(),
	}
	for name, err := range checks {
		if !errs.Is(err, errs.NotFound) {
			t.Errorf("%s: got %v, want NotFound", name, err)
		}
	}
	if _, err := s.GetSubscription(t.Context(), "alice", sub.ID); err != nil {
		t.Fatalf("owner lost it: %v", err)
	}
	if _, _, err := s.ListSubscriptions(t.Context(), "nobody", 0, 0); !errs.Is(err, errs.NotFound) {
		t.Fatalf("list of unknown user: %v", err)
	}
}

func testSubscriptionPaging(t *testing.T, s *store.Store) {
	var subs []store.Subscription
	for i := range 5 {
		subs = append(subs, store.Subscription{Notification: fmt.Sprint("N", i), Frequency: 1})
	}
	mustCreate(t, s, "alice", subs...)
	mustCreate(t, s, "bob", subs[:2]...)
	list, total, err := s.ListSubscriptions(t.Context(), "alice", 3, 10)
	if err != nil || total != 5 || len(list) != 2 || list[0].Notification != "N3" || list[1].Notification != "N4" {
		t.Fatalf("page: %+v %d %v", list, total, err)
	}
	list, total, err = s.ListSubscriptions(t.Context(), "bob", 5, 10)
	if err != nil || total != 2 || list == nil || len(list) != 0 {
		t.Fatalf("past the end: %+v %d %v", list, total, err)
	}
	if _, _, err := s.ListSubscriptions(t.Context(), "bob", 0, -1); !errs.Is(err, errs.InvalidArgument) {
		t.Fatalf("negative limit: %v", err)
	}
}

func testUpdateAbort(t *testing.T, s *store.Store) {
	mustCreate(t, s, "alice", store.Subscription{Notification: "N", Frequency: 1})
	list, _, _ := s.ListSubscriptions(t.Context(), "alice", 0, 0)
	_, err := s.UpdateSubscription(t.Context(), "alice", list[0].ID, func(x *store.Subscription) error {
		x.Frequency = 3
		return errs.Invalid("scope", "invalid_choice", "bad")
	})
	if !errs.Is(err, errs.InvalidArgument) {
		t.Fatalf("got %v", err)
	}
	got, _ := s.GetSubscription(t.Context(), "alice", list[0].ID)
	if got.Frequency != 1 {
		t.Fatalf("aborted update was saved: %+v", got)
	}
}

func testSetUserActive(t *testing.T, s *store.Store) {
	ctx := t.Context()
	if _, err := s.CreateUser(ctx, store.User{Username: "dora", IsActive: true, DateJoined: time.Now()}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTokenHash(ctx, "dora", "hd"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetUserActive(ctx, "dora", false); err != nil {
		t.Fatal(err)
	}
	if u, err := s.UserByName(ctx, "dora"); err != nil || u.IsActive {
		t.Errorf("after deactivation: %+v, %v", u, err)
	}
	if h, err := s.TokenHash(ctx, "dora"); err != nil || h != "hd" {
		t.Errorf("TokenHash = %q, %v", h, err)
	}
	if err := s.SetUserActive(ctx, "nobody", false); !errs.Is(err, errs.NotFound) {
		t.Errorf("unknown user: %v", err)
	}
}

func testTakeQuota(t *testing.T, s *store.Store) {
	ctx := t.Context()
	steps := []struct {
		window, want, granted, used int64
	}{
		{100, 3, 3, 3},
		{100, 3, 2, 5}, // capped at the limit of 5
		{100, 1, 0, 5}, // nothing left
		{200, 4, 4, 4}, // a new window starts afresh
	}
	for i, st := range steps {
		g, used, err := s.TakeQuota(ctx, "anon:192.0.2.1", st.window, 5, st.want)
		if err != nil {
			t.Fatal(err)
		}
		if g != st.granted || used != st.used {
			t.Errorf("step %d: granted %d used %d, want %d %d", i, g, used, st.granted, st.used)
		}
	}
	if g, _, err := s.TakeQuota(ctx, "user:other", 100, 5, 5); err != nil || g != 5 {
		t.Errorf("another key shares nothing: granted %d, %v", g, err)
	}
}

// testTakeQuotaRace runs replicas taking quota of one key at once: all of
// them together never get more than the limit.
func testTakeQuotaRace(t *testing.T, s *store.Store) {
	ctx := t.Context()
	const limit, replicas = 50, 8
	total := make(chan int64, replicas)
	for range replicas {
		go func() {
			var got int64
			for range 20 {
				g, _, err := s.TakeQuota(ctx, "user:race", 300, limit, 2)
				if err != nil {
					t.Error(err)
					break
				}
				got += g
			}
			total <- got
		}()
	}
	var sum int64
	for range replicas {
		sum += <-total
	}
	if sum != limit {
		t.Errorf("replicas took %d together, want exactly the limit %d", sum, limit)
	}
}

func testUpdateUser(t *testing.T, s *store.Store) {
	ctx := t.Context()
	for _, name := range []string{"erin", "finn"} {
		if _, err := s.CreateUser(ctx, store.User{Username: name, Email: name + "@example.org", IsActive: true}, nil); err != nil {
			t.Fatal(err)
		}
	}
	when := time.Date(2031, 5, 6, 7, 8, 9, 123456000, time.UTC)
	u, err := s.UpdateUser(ctx, "erin", func(u *store.User) error {
		u.IsBot, u.DateExpires, u.LastLogin, u.FullName = true, &when, &when, "Erin"
		return nil
	})
	if err != nil || !u.IsBot || u.DateExpires == nil || !u.DateExpires.Equal(when) || u.FullName != "Erin" {
		t.Fatalf("update: %+v %v", u, err)
	}
	got, err := s.UserByName(ctx, "erin")
	if err != nil || !got.IsBot || got.LastLogin == nil || !got.LastLogin.Equal(when) || !got.DateExpires.Equal(when) {
		t.Errorf("stored: %+v %v", got, err)
	}
	if _, err := s.UpdateUser(ctx, "erin", func(u *store.User) error { u.Email = "FINN@example.org"; return nil }); !errs.Is(err, errs.InvalidArgument) {
		t.Errorf("taken address: %v", err)
	}
	if _, err := s.UpdateUser(ctx, "nobody", func(*store.User) error { return nil }); !errs.Is(err, errs.NotFound) {
		t.Errorf("unknown user: %v", err)
	}
}

func testWebhooks(t *testing.T, s *store.Store) {
	ctx := t.Context()
	w := store.Webhook{ProjectSlug: "p", URL: "https://hooks.example/a", Secret: "whsec_x", Actions: "2,5", Active: true}
	if err := s.CreateWebhook(ctx, &w); err != nil || w.ID == 0 {
		t.Fatalf("create: %+v %v", w, err)
	}
	other := store.Webhook{ProjectSlug: "q", URL: "https://hooks.example/b", Secret: "whsec_y", Active: true}
	if err := s.CreateWebhook(ctx, &other); err != nil {
		t.Fatal(err)
	}
	if ws, err := s.Webhooks(ctx, "p"); err != nil || len(ws) != 1 || !ws[0].Wants(5) || ws[0].Wants(3) {
		t.Errorf("project webhooks: %+v %v", ws, err)
	}
	if _, err := s.GetWebhook(ctx, "q", w.ID); !errs.Is(err, errs.NotFound) {
		t.Errorf("webhook through another project: %v", err)
	}
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	ds := []store.Delivery{{WebhookID: w.ID, ChangeID: 7, Payload: "{}", CreatedAt: now, DueAt: now},
		{WebhookID: other.ID, ChangeID: 7, Payload: "{}", CreatedAt: now, DueAt: now}}
	for range 2 { // a repeat is ignored
		if err := s.Enqueue(ctx, "mail", 7, nil, ds); err != nil {
			t.Fatal(err)
		}
	}
	claim := func(at time.Time) store.Claim {
		return store.Claim{Token: at.String() + fmt.Sprint(rand.Int64()), Now: at, Until: at.Add(time.Minute)}
	}
	due, err := s.ClaimDeliveries(ctx, claim(now), 8, 10)
	if err != nil || len(due) != 2 || due[0].URL != "https://hooks.example/a" || due[0].Secret != "whsec_x" {
		t.Fatalf("due: %+v %v", due, err)
	}
	if err = s.RecordAttempt(ctx, due[0].ID, 503, "down", nil, now.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	if err = s.RecordAttempt(ctx, due[1].ID, 204, "", &now, now); err != nil {
		t.Fatal(err)
	}
	if due, _ := s.ClaimDeliveries(ctx, claim(now), 8, 10); len(due) != 0 {
		t.Errorf("due again before the retry time: %+v", due)
	}
	if due, _ := s.ClaimDeliveries(ctx, claim(now.Add(time.Minute)), 8, 10); len(due) != 1 || due[0].Attempts != 1 {
		t.Errorf("due at the retry time: %+v", due)
	}
	log, total, err := s.Deliveries(ctx, w.ID, 0, 0)
	if err != nil || total != 1 || log[0].StatusCode != 503 || log[0].Error != "down" || log[0].DeliveredAt != nil {
		t.Errorf("log: %+v %d %v", log, total, err)
	}
	w.Active = false
	if err := s.SaveWebhook(ctx, w); err != nil {
		t.Fatal(err)
	}
	if due, _ := s.ClaimDeliveries(ctx, claim(now.Add(time.Hour)), 8, 10); len(due) != 0 {
		t.Errorf("an inactive webhook's delivery is due: %+v", due)
	}
	if err := s.DeleteWebhook(ctx, "p", w.ID); err != nil {
		t.Fatal(err)
	}
	if log, total, _ := s.Deliveries(ctx, w.ID, 0, 0); total != 0 || len(log) != 0 {
		t.Errorf("deliveries of a deleted webhook remain: %+v", log)
	}
	if err := s.DeleteWebhook(ctx, "p", w.ID); !errs.Is(err, errs.NotFound) {
		t.Errorf("second delete: %v", err)
	}
}
