package store_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tmsproject/tms/services/notification/store"
)

// admins lists the members of the project's Administration team (nil: no
// such team).
func admins(t *testing.T, s *store.Store, project string) []int64 {
	t.Helper()
	teams, _, err := s.ListTeams(t.Context(), store.TeamFilter{DefiningProject: project}, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, tm := range teams {
		if tm.Name == "Administration" {
			return append([]int64{}, tm.Members...)
		}
	}
	return nil
}

// applyAll applies the events in order and returns how many took effect.
func applyAll(t *testing.T, s *store.Store, events []store.ProjectEvent) int {
	t.Helper()
	n := 0
	for _, ev := range events {
		applied, err := s.ApplyProjectEvent(t.Context(), ev)
		if err != nil {
			t.Fatalf("apply %s: %v", ev.ID, err)
		}
		if applied {
			n++
		}
	}
	return n
}

// testProjectEvents: the catalog's lifecycle events, applied in order,
// leave the same teams, links, subscriptions and webhooks when any suffix
// of them is delivered again (at least once delivery), even after later
// writes: a rename delivered again after a new project took the former
// slug, or a delete after the slug was created anew, changes nothing.
func testProjectEvents(t *testing.T, s *store.Store) {
	ctx := t.Context()
	if err := s.EnsureBuiltins(ctx); err != nil {
		t.Fatal(err)
	}
	ann, bob := user(t, s, "ann"), user(t, s, "bob")
	cases := []struct {
		name   string
		seed   func(t *testing.T, prefix string) // state before the events; nil: none
		events func(prefix string) []store.ProjectEvent
		check  func(t *testing.T, prefix string)
	}{
		{"delete then create under the same slug", nil, func(p string) []store.ProjectEvent {
			return []store.ProjectEvent{
				{ID: p + "1", Kind: store.ProjectCreated, Project: p, CreatorID: &ann},
				{ID: p + "2", Kind: store.ProjectDeleted, Project: p},
				{ID: p + "3", Kind: store.ProjectCreated, Project: p, CreatorID: &bob},
			}
		}, func(t *testing.T, p string) {
			if got := admins(t, s, p); !slices.Equal(got, []int64{bob}) {
				t.Errorf("administrators of the new %s: %v, want only bob (%d)", p, got, bob)
			}
			if hooks, err := s.Webhooks(ctx, p); err != nil || len(hooks) != 1 {
				t.Errorf("the new project's webhook, added after the events: %v %v", hooks, err)
			}
		}},
		{"rename then create under the former slug", nil, func(p string) []store.ProjectEvent {
			return []store.ProjectEvent{
				{ID: p + "1", Kind: store.ProjectCreated, Project: p, CreatorID: &ann},
				{ID: p + "2", Kind: store.ProjectRenamed, Project: p, NewSlug: p + "_new"},
				{ID: p + "3", Kind: store.ProjectCreated, Project: p, CreatorID: &bob},
			}
		}, func(t *testing.T, p string) {
			if got := admins(t, s, p+"_new"); !slices.Equal(got, []int64{ann}) {
				t.Errorf("administrators of the renamed project: %v, want only ann (%d)", got, ann)
			}
			if got := admins(t, s, p); !slices.Equal(got, []int64{bob}) {
				t.Errorf("administrators of the project under the former slug: %v, want only bob (%d)", got, bob)
			}
		}},
		{"rename onto teams set up before the rename arrived", func(t *testing.T, p string) {
			// The service adopted the catalog's project under its new
			// slug at start, while the rename waited in the outbox.
			if err := s.SetupProjectTeams(ctx, p+"_new", nil); err != nil {
				t.Fatal(err)
			}
		}, func(p string) []store.ProjectEvent {
			return []store.ProjectEvent{
				{ID: p + "1", Kind: store.ProjectCreated, Project: p, CreatorID: &ann},
				{ID: p + "2", Kind: store.ProjectRenamed, Project: p, NewSlug: p + "_new"},
			}
		}, func(t *testing.T, p string) {
			if got := admins(t, s, p+"_new"); !slices.Equal(got, []int64{ann}) {
				t.Errorf("administrators after the merge: %v, want only ann (%d)", got, ann)
			}
			if got := admins(t, s, p); got != nil {
				t.Errorf("teams left under the former slug: %v", got)
			}
		}},
		{"component renamed then deleted", func(t *testing.T, p string) { seedComponents(t, s, p) }, func(p string) []store.ProjectEvent {
			return []store.ProjectEvent{
				{ID: p + "1", Kind: store.ProjectCreated, Project: p},
				{ID: p + "2", Kind: store.ComponentRenamed, Project: p, Component: "a", NewSlug: "b"},
				{ID: p + "3", Kind: store.ComponentDeleted, Project: p, Component: "b"},
				{ID: p + "4", Kind: store.ComponentRenamed, Project: p, Component: "c", NewSlug: "b"},
			}
		}, func(t *testing.T, p string) {
			teams, _, err := s.ListTeams(ctx, store.TeamFilter{}, 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, tm := range teams {
				if tm.Name == p+" components" && !slices.Equal(tm.Components, []string{p + "/b"}) {
					t.Errorf("components of the team: %v, want the renamed c only", tm.Components)
				}
			}
			subs, _, err := s.ListSubscriptions(ctx, "ann", 0, 0)
			if err != nil {
				t.Fatal(err)
			}
			var on []string
			for _, sub := range subs {
				if sub.ProjectSlug == p {
					on = append(on, sub.ComponentSlug)
				}
			}
			if !slices.Equal(on, []string{"b"}) {
				t.Errorf("ann's subscriptions in %s: %v, want the renamed c's only", p, on)
			}
		}},
	}
	for i, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := fmt.Sprintf("ev%d", i)
			if c.seed != nil {
				c.seed(t, p)
			}
			events := c.events(p)
			if n := applyAll(t, s, events); n != len(events) {
				t.Fatalf("applied %d of %d events", n, len(events))
			}
			// A write after the events, which a redelivery must keep.
			if err := s.CreateWebhook(ctx, &store.Webhook{ProjectSlug: p, URL: "https://hooks.example/" + p, Active: true}); err != nil {
				t.Fatal(err)
			}
			c.check(t, p)
			for from := range events {
				t.Run(fmt.Sprintf("delivered again from event %d", from+1), func(t *testing.T) {
					if n := applyAll(t, s, events[from:]); n != 0 {
						t.Errorf("%d events took effect again", n)
					}
					c.check(t, p)
				})
			}
		})
	}
}

// seedComponents links a team to components a and c of project p and
// subscribes ann to both.
func seedComponents(t *testing.T, s *store.Store, p string) {
	t.Helper()
	ctx := t.Context()
	tm, err := s.SaveTeam(ctx, store.Team{Name: p + " components", LanguageSelection: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, comp := range []string{"a", "c"} {
		if err := s.Link(ctx, tm.ID, store.LinkComponent, p+"/"+comp); err != nil {
			t.Fatal(err)
		}
		if _, err := s.CreateSubscription(ctx, store.Subscription{Username: "ann", Notification: "NewStringNotificaton",
			Scope: 3, Frequency: 1, ProjectSlug: p, ComponentSlug: comp}); err != nil {
			t.Fatal(err)
		}
	}
}
