package store_test

import (
	"testing"

	"github.com/tmsproject/tms/services/notification/store"
)

// testAccessVersion: every change to what a caller is granted makes the
// access version grow, in the change's transaction; a change to an
// account's name on the web, its profile or its subscriptions does not.
func testAccessVersion(t *testing.T, s *store.Store) {
	ctx := t.Context()
	version := func() int64 {
		t.Helper()
		v, err := s.AccessVersion(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	u := mustCreate(t, s, "vic")
	role, err := s.SaveRole(ctx, store.Role{Name: "Versioned", Permissions: []string{"unit.edit"}})
	if err != nil {
		t.Fatal(err)
	}
	team, err := s.SaveTeam(ctx, store.Team{Name: "Versioned team"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		write   func() error
		changes bool
	}{
		{"account created", func() error {
			_, err := s.CreateUser(ctx, store.User{Username: "new", IsActive: true}, nil)
			return err
		}, true},
		{"account deactivated", func() error {
			_, err := s.UpdateUser(ctx, "vic", func(u *store.User) error { u.IsActive = false; return nil })
			return err
		}, true},
		{"member added", func() error { return s.Link(ctx, team.ID, store.LinkMember, "vic") }, true},
		{"role changed", func() error {
			role.Permissions = []string{"unit.edit", "suggestion.add"}
			_, err := s.SaveRole(ctx, role)
			return err
		}, true},
		{"member removed", func() error { return s.Unlink(ctx, team.ID, store.LinkMember, "vic") }, true},
		{"team deleted", func() error { return s.DeleteTeam(ctx, team.ID) }, true},
		{"a subscription", func() error {
			_, err := s.CreateSubscription(ctx, store.Subscription{Username: u.Username, Notification: "NewStringNotificaton", Scope: 1, Frequency: 1})
			return err
		}, false},
	} {
		before := version()
		if err := tc.write(); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if after := version(); (after > before) != tc.changes {
			t.Errorf("%s: version %d → %d, want a change: %v", tc.name, before, after, tc.changes)
		}
	}
}
