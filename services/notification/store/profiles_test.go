package store_test

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/tmsproject/tms/services/notification/store"
)

// testWatchedFollowsProjects: the watched projects in an account's
// settings follow the catalog's renames and removals, and the other
// settings stay as written.
func testWatchedFollowsProjects(t *testing.T, s *store.Store) {
	ctx := t.Context()
	profile := func(watched ...string) string {
		b, _ := json.Marshal(map[string]any{"theme": "dark", "watched": watched})
		return string(b)
	}
	for name, watched := range map[string][]string{"ann": {"a_b", "c"}, "bob": {"c", "d"}, "cy": {"ab"}} {
		user(t, s, name)
		if _, err := s.UpdateUser(ctx, name, func(u *store.User) error { u.Profile = profile(watched...); return nil }); err != nil {
			t.Fatal(err)
		}
	}
	events := []store.ProjectEvent{
		{ID: "1", Kind: store.ProjectRenamed, Project: "c", NewSlug: "d"},
		{ID: "2", Kind: store.ProjectDeleted, Project: "a_b"},
	}
	applyAll(t, s, events)
	want := map[string]string{"ann": profile("d"), "bob": profile("d"), "cy": profile("ab")}
	for name, p := range want {
		u, err := s.UserByName(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		var got, exp map[string]any
		_ = json.Unmarshal([]byte(u.Profile), &got)
		_ = json.Unmarshal([]byte(p), &exp)
		if !slices.Equal(toStrings(got["watched"]), toStrings(exp["watched"])) || got["theme"] != "dark" {
			t.Errorf("%s: settings %s, want %s", name, u.Profile, p)
		}
	}
}

func toStrings(v any) []string {
	var out []string
	list, _ := v.([]any)
	for _, x := range list {
		out = append(out, x.(string))
	}
	return out
}

// testTeamComponentLists: a team with component lists grants its roles on
// their components only, whatever its selection, as the reference does;
// the lists follow the catalog's list events and its renames and
// deletions of projects and components, and a deleted list leaves the
// teams linking it.
func testTeamComponentLists(t *testing.T, s *store.Store) {
	ctx := t.Context()
	role, err := s.SaveRole(ctx, store.Role{Name: "Editors", Permissions: []string{"unit.edit"}})
	if err != nil {
		t.Fatal(err)
	}
	tm, err := s.SaveTeam(ctx, store.Team{Name: "Docs team", ProjectSelection: 1})
	if err != nil {
		t.Fatal(err)
	}
	member := user(t, s, "lena")
	for kind, v := range map[int]string{store.LinkRole: itoa(role.ID), store.LinkMember: itoa(member), store.LinkComponentList: "5"} {
		if err = s.Link(ctx, tm.ID, kind, v); err != nil {
			t.Fatal(err)
		}
	}
	grant := func() (int32, []string) {
		t.Helper()
		gs, err := s.Grants(ctx, member)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range gs {
			if slices.Equal(g.Permissions, []string{"unit.edit"}) { // not a built-in team
				return g.ProjectSelection, g.Components
			}
		}
		t.Fatalf("no grant of the team in %+v", gs)
		return 0, nil
	}
	steps := []struct {
		ev         store.ProjectEvent
		selection  int32
		components []string
	}{
		{store.ProjectEvent{ID: "l1", Kind: store.ComponentListChanged, List: store.ComponentList{ID: 5, Slug: "docs", Components: []string{"p/a", "q/b"}}},
			2, []string{"p/a", "q/b"}},
		{store.ProjectEvent{ID: "l2", Kind: store.ComponentRenamed, Project: "p", Component: "a", NewSlug: "a2"}, 2, []string{"p/a2", "q/b"}},
		{store.ProjectEvent{ID: "l3", Kind: store.ProjectRenamed, Project: "p", NewSlug: "p2"}, 2, []string{"p2/a2", "q/b"}},
		{store.ProjectEvent{ID: "l4", Kind: store.ProjectDeleted, Project: "q"}, 2, []string{"p2/a2"}},
		{store.ProjectEvent{ID: "l5", Kind: store.ComponentDeleted, Project: "p2", Component: "a2"}, 2, nil},
		{store.ProjectEvent{ID: "l6", Kind: store.ComponentListChanged, List: store.ComponentList{ID: 5}, ListDeleted: true}, 1, nil},
	}
	for _, st := range steps {
		applyAll(t, s, []store.ProjectEvent{st.ev})
		if sel, comps := grant(); sel != st.selection || !slices.Equal(comps, st.components) {
			t.Errorf("after %s: selection %d, components %v; want %d, %v", st.ev.ID, sel, comps, st.selection, st.components)
		}
	}
	if got, err := s.GetTeam(ctx, tm.ID); err != nil || len(got.ComponentLists) != 0 {
		t.Errorf("the team after its list was deleted: %+v %v", got, err)
	}
}
