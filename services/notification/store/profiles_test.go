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
