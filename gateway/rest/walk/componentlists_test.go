package walk

import (
	"slices"
	"testing"
)

// TestComponentLists walks /api/component-lists/: the site's
// administrator creates a list whose rule assigns components by slug
// (existing and new ones), adds and removes members by id and slug; a
// user sees a list only through components it may see, and may not
// change one.
func TestComponentLists(t *testing.T) {
	f := newPermissionFixture(t) // "open" and "secret" (private), each with "app"
	a := f.admin
	user := f.clients[1]
	base := a.base + "component-lists/"
	made := a.want(201, "POST", base, map[string]any{"name": "Apps", "slug": "apps",
		"auto_assign": []any{map[string]any{"project_match": ".*", "component_match": "ap"}}})
	url := made["url"].(string)
	if made["show_dashboard"] != true {
		t.Errorf("show_dashboard defaults to true, as in Weblate: %v", made["show_dashboard"])
	}
	if url != base+"apps/" || !slices.Equal(toStrings(made["components"]), []string{a.base + "components/open/app/", a.base + "components/secret/app/"}) {
		t.Errorf("created %v", made)
	}
	f.component("open", "api") // assigned by the rule when created
	got := a.want(200, "GET", url, nil)
	if n := len(toStrings(got["components"])); n != 3 {
		t.Errorf("after a matching component was created: %v", got["components"])
	}
	if lists := a.want(200, "GET", base, nil); lists["count"] != 1.0 {
		t.Errorf("lists: %v", lists)
	}
	a.want(200, "PUT", url, map[string]any{"name": "Apps", "slug": "apps", "show_dashboard": true})
	page := a.want(200, "GET", url+"components/", nil)
	if page["count"] != 3.0 {
		t.Errorf("components page: %v", page["count"])
	}

	// The user sees the list through the public project's components only.
	mine := user.want(200, "GET", url, nil)
	for _, c := range toStrings(mine["components"]) {
		if c == a.base+"components/secret/app/" {
			t.Errorf("the user sees a private component in the list")
		}
	}
	if n := user.want(200, "GET", url+"components/", nil)["count"]; n != 2.0 {
		t.Errorf("the user's components page: %v", n)
	}
	for _, w := range []struct{ method, url string }{{"PATCH", url}, {"DELETE", url}, {"POST", base}, {"POST", url + "components/"}} {
		if code, _ := user.do(w.method, w.url, map[string]any{"name": "X", "slug": "x", "component_id": 1}); code != 403 {
			t.Errorf("the user: %s %s -> %d, want 403", w.method, w.url, code)
		}
	}

	// Members by id and by slug.
	secret := a.want(200, "GET", a.base+"components/secret/app/", nil)
	a.want(204, "DELETE", url+"components/api/", nil)
	if code, _ := a.do("DELETE", url+"components/api/", nil); code != 404 {
		t.Errorf("removing a component that is not a member: %d", code)
	}
	if code, _ := a.do("DELETE", url+"components/app/", nil); code != 400 {
		t.Errorf("a slug two members share: %d, want 400", code)
	}
	a.want(200, "POST", url+"components/", map[string]any{"component_id": secret["id"]})
	if code, _ := a.do("POST", url+"components/", map[string]any{"component_id": 99999}); code != 400 {
		t.Errorf("an unknown component: %d, want 400", code)
	}
	renamed := a.want(200, "PATCH", url, map[string]any{"name": "All apps", "show_dashboard": false})
	if rules, _ := renamed["auto_assign"].([]any); renamed["name"] != "All apps" || renamed["show_dashboard"] != false || len(rules) != 1 {
		t.Errorf("renamed: %v", renamed)
	}
	if code, _ := a.do("POST", base, map[string]any{"name": "Bad", "slug": "bad",
		"auto_assign": []any{map[string]any{"project_match": "(", "component_match": ""}}}); code != 400 {
		t.Errorf("a bad rule: %d, want 400", code)
	}
	a.want(204, "DELETE", url, nil)
	if code, _ := a.do("GET", url, nil); code != 404 {
		t.Errorf("deleted list: %d", code)
	}
}
