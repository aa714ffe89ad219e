package suite

import (
	"fmt"
	"strings"
	"testing"
)

// TestEveryWriteRoute drives the write routes the other tests leave out
// (full updates with PUT, removals, the links of teams, one subscription),
// so that every route of the API answers once in this suite and is checked
// against the API document and against Weblate's (schema_test.go,
// weblate_test.go). Each step checks its status; the shapes are checked
// by those two.
func TestEveryWriteRoute(t *testing.T) {
	f := newTeamsFixture(t)
	a := f.admin
	at := func(path string) string { return a.base + path }
	idOf := func(obj map[string]any) string { return fmt.Sprint(obj["id"]) }

	for _, u := range []string{"schema/", "schema/?format=json", "schema/?format=openapi-3.0", "docs/"} {
		if code, body := a.do("GET", at(u), nil); code != 200 || len(body) < 1000 {
			t.Errorf("GET %s: %d, %d bytes", u, code, len(body))
		}
	}

	a.want(200, "PUT", at("projects/guarded/"), map[string]any{"name": "Guarded", "slug": "guarded", "web": "https://guarded.example/"})
	comp := a.want(200, "GET", at("components/guarded/app/"), nil)
	a.want(200, "PUT", at("components/guarded/app/"), map[string]any{"name": "App", "slug": "app", "file_format": comp["file_format"],
		"filemask": comp["filemask"], "repo": comp["repo"]})

	cat := a.want(201, "POST", at("categories/"), map[string]any{"name": "Docs", "slug": "docs", "project": at("projects/guarded/")})
	a.want(200, "PUT", at("categories/"+idOf(cat)+"/"), map[string]any{"name": "Manuals", "slug": "manuals", "project": at("projects/guarded/")})
	a.want(204, "DELETE", at("categories/"+idOf(cat)+"/"), nil)

	role := a.want(201, "POST", at("roles/"), map[string]any{"name": "Editors", "permissions": []string{"unit.edit"}})
	a.want(200, "PUT", at("roles/"+idOf(role)+"/"), map[string]any{"name": "Editing", "permissions": []string{"unit.edit", "suggestion.add"}})

	team := a.want(201, "POST", at("groups/"), map[string]any{"name": "Crew"})
	g := "groups/" + idOf(team) + "/"
	a.want(200, "PUT", at(g), map[string]any{"name": "Crew 2"})
	links := []struct{ kind, field, value string }{
		{"roles", "role_id", idOf(role)},
		{"projects", "project_id", idOf(a.want(200, "GET", at("projects/guarded/"), nil))},
		{"components", "component_id", idOf(comp)},
		{"languages", "language_code", "fr"},
	}
	for _, l := range links {
		a.want(200, "POST", at(g+l.kind+"/"), map[string]any{l.field: l.value})
		a.want(204, "DELETE", at(g+l.kind+"/"+l.value+"/"), nil)
	}
	a.want(200, "PUT", at("users/tina/"), map[string]any{"full_name": "Tina T", "email": "tina@x.example"})
	a.want(200, "POST", at("users/tina/groups/"), map[string]any{"group_id": idOf(team)})
	a.want(200, "DELETE", at("users/tina/groups/"), map[string]any{"group_id": idOf(team)})
	a.want(204, "DELETE", at(g), nil)
	a.want(204, "DELETE", at("roles/"+idOf(role)+"/"), nil)
	a.want(204, "DELETE", at("users/olga/"), nil)

	sub := a.want(201, "POST", at("users/tina/notifications/"), map[string]any{"notification": "NewTranslationNotificaton", "scope": 10, "frequency": 1})
	s := "users/tina/notifications/" + idOf(sub) + "/"
	a.want(200, "GET", at(s), nil)
	a.want(200, "PUT", at(s), map[string]any{"notification": "NewTranslationNotificaton", "scope": 10, "frequency": 2})
	a.want(200, "PATCH", at(s), map[string]any{"frequency": 3})
	a.want(204, "DELETE", at(s), nil)

	po := "msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\nmsgid \"Hello\"\nmsgstr \"Salut\"\n"
	if code, body := a.request("PUT", at("translations/guarded/app/fr/file/"), uploadBody{method: "translate", file: []byte(po)}); code != 200 {
		t.Errorf("PUT upload: %d %s", code, body)
	}
	unit := f.unitOf("guarded", "fr")
	a.want(200, "PUT", at(unit), map[string]any{"target": []string{"Bonjour"}, "state": 20})
	if got := a.want(200, "GET", at(unit), nil)["target"]; fmt.Sprint(got) != "[Bonjour]" {
		t.Errorf("PUT unit: target %v", got)
	}
	if !strings.HasPrefix(unit, "units/") {
		t.Errorf("unit path %q", unit)
	}
}

// TestSuggestionVotes: POST /api/suggestions/<id>/vote/ counts one vote per
// user and accepts the suggestion at the component's threshold, answering
// as Weblate 2026.8 does; outsiders get 404, anonymous callers 401, and a
// component without voting refuses.
func TestSuggestionVotes(t *testing.T) {
	f := newTeamsFixture(t)
	a := f.admin
	unit := a.base + f.unitOf("guarded", "fr")
	sug := a.want(201, "POST", unit+"suggestions/", map[string]any{"target": []string{"Salut"}})
	vote := sug["url"].(string) + "vote/"
	if code, body := a.do("POST", vote, map[string]any{"value": 1}); code != 403 || !strings.Contains(string(body), "voting") {
		t.Errorf("vote without voting on: %d %s", code, body)
	}
	a.want(200, "PATCH", a.base+"components/guarded/app/", map[string]any{"suggestion_voting": true, "suggestion_autoaccept": 2})
	for _, c := range []struct {
		who  client
		body map[string]any
		code int
	}{
		{client{t: t, base: a.base, token: anonymous}, map[string]any{"value": 1}, 401},
		{f.users["rita"], map[string]any{"value": 1}, 403},
		{a, map[string]any{"value": 5}, 400},
		{a, map[string]any{}, 400},
	} {
		if code, body := c.who.do("POST", vote, c.body); code != c.code {
			t.Errorf("vote %v: %d %s, want %d", c.body, code, body, c.code)
		}
	}
	for range 2 { // one vote per user: the second replaces the first
		got := a.want(200, "POST", vote, map[string]any{"value": 1})
		if got["result"] != "voted" || got["suggestion"].(map[string]any)["votes"] != 1.0 {
			t.Errorf("first vote: %v", got)
		}
	}
	f.join("tina", "guarded", "Translate")
	got := f.users["tina"].want(200, "POST", vote, map[string]any{"value": 1})
	if got["result"] != "accepted" || got["suggestion"] != nil {
		t.Errorf("second voter: %v", got)
	}
	if tr := a.want(200, "GET", unit, nil)["target"]; fmt.Sprint(tr) != "[Salut]" {
		t.Errorf("accepted by votes: target %v", tr)
	}
	hidden := a.want(201, "POST", a.base+f.unitOf("hidden", "de")+"suggestions/", map[string]any{"target": []string{"Hallo!"}})
	if code, _ := f.users["rita"].do("POST", hidden["url"].(string)+"vote/", map[string]any{"value": 1}); code != 404 {
		t.Errorf("vote on a private project's suggestion: %d, want 404", code)
	}
}
