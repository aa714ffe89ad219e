package suite

import (
	"slices"
	"strings"
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

// TestTeamComponentLists: a team given a component list acts on the
// list's components only, as in Weblate: its member sees the private
// project of a listed component and may translate there, and no longer
// once the list leaves the team; the team lists the list; the links are
// written by those who manage teams, checked, and refused on a project's
// own team.
func TestTeamComponentLists(t *testing.T) {
	f := newTeamsFixture(t)
	a, tina := f.admin, f.users["tina"]
	tina.want(404, "GET", a.base+"projects/hidden/", nil)
	list := a.want(201, "POST", a.base+"component-lists/", map[string]any{"name": "Hidden apps", "slug": "hidden-apps"})
	hiddenApp := a.want(200, "GET", a.base+"components/hidden/app/", nil)
	a.want(200, "POST", list["url"].(string)+"components/", map[string]any{"component_id": hiddenApp["id"]})
	listID := list["id"]

	g := a.want(201, "POST", a.base+"groups/", map[string]any{"name": "Listed", "project_selection": 2, "language_selection": 1})
	url := g["url"].(string)
	var translate any
	for _, r := range a.want(200, "GET", a.base+"roles/?page_size=100", nil)["results"].([]any) {
		if r := r.(map[string]any); r["name"] == "Translate" {
			translate = r["id"]
		}
	}
	a.want(200, "POST", url+"roles/", map[string]any{"role_id": translate})
	a.want(200, "POST", a.base+"users/tina/groups/", map[string]any{"group_id": g["id"]})
	if code, body := tina.do("POST", url+"componentlists/", map[string]any{"component_list_id": listID}); code != 403 {
		t.Errorf("a member links a list: %d %s, want 403", code, body)
	}
	for _, bad := range []map[string]any{{}, {"component_list_id": 999999}, {"component_list_id": "x"}} {
		if code, body := a.do("POST", url+"componentlists/", bad); code != 400 || !strings.Contains(string(body), "component_list_id") {
			t.Errorf("link %v: %d %s", bad, code, body)
		}
	}
	g = a.want(200, "POST", url+"componentlists/", map[string]any{"component_list_id": listID})
	if !slices.Equal(toStrings(g["componentlists"]), []string{a.base + "component-lists/hidden-apps/"}) {
		t.Errorf("the team's lists: %v", g["componentlists"])
	}
	waitFor(t, func() bool { code, _ := tina.do("GET", a.base+"projects/hidden/", nil); return code == 200 })
	a.want(201, "POST", a.base+"components/hidden/app/translations/", map[string]any{"language_code": "fr"})
	unit := f.unitOf("hidden", "fr")
	tina.want(200, "PATCH", a.base+unit, map[string]any{"target": []string{"Bonjour"}, "state": 20})
	if code, _ := tina.do("GET", a.base+"projects/guarded/components/", nil); code != 200 {
		t.Errorf("the protected project: %d", code)
	}

	// A project's own team takes no list.
	own := f.team("hidden", "Translate")
	if code, body := a.do("POST", a.base+"groups/"+own+"/componentlists/", map[string]any{"component_list_id": listID}); code != 400 ||
		!strings.Contains(string(body), "Cannot change component lists on a scoped team.") {
		t.Errorf("a project's team: %d %s", code, body)
	}

	a.want(204, "DELETE", url+"componentlists/"+formatID(listID.(float64))+"/", nil)
	a.want(404, "DELETE", url+"componentlists/"+formatID(listID.(float64))+"/", nil)
	waitFor(t, func() bool { code, _ := tina.do("GET", a.base+"projects/hidden/", nil); return code == 404 })
	if code, _ := tina.do("PATCH", a.base+unit, map[string]any{"target": []string{"Salut"}, "state": 20}); code != 404 {
		t.Errorf("an edit after the list left the team: %d", code)
	}
}
