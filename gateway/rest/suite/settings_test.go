package suite

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/tmsproject/tms/gateway/bench/origin"
)

// TestInheritedSettings walks Weblate 2026.8's inherited settings: a
// project's and a category's settings reach the components that inherit
// them (effective_*), a component's own value stops inheriting, and what
// is in effect is what the service does: the commit message it writes, the
// check flags it checks with, and who may add a language.
func TestInheritedSettings(t *testing.T) {
	c := newStack(t, nil)
	project := c.want(201, "POST", c.base+"projects/", map[string]any{"name": "Inh", "slug": "inh", "web": "https://x.example/",
		"license": "MIT", "check_flags": "c-format", "commit_message": "Project says {{ language_name }}"})
	wantSettings(t, "project", project, map[string]any{"inherit_license": false, "effective_license": "MIT",
		"effective_new_lang": "add", "effective_check_flags": "c-format", "effective_secondary_language": nil})
	cat := c.want(201, "POST", c.base+"categories/", map[string]any{"name": "Docs", "slug": "docs", "project": "inh",
		"new_lang": "none", "check_flags": "max-length:100", "secondary_language": "de"})
	wantSettings(t, "category", cat, map[string]any{"inherit_new_lang": false, "inherit_license": true,
		"effective_license": "MIT", "effective_new_lang": "none", "effective_check_flags": "c-format, max-length:100",
		"secondary_language": 0.0, "inherit_secondary_language": false})
	de := c.want(200, "GET", c.base+"languages/de/", nil)
	if cat["secondary_language"] != de["id"] || cat["effective_secondary_language"] != de["id"] {
		t.Errorf("category secondary language %v (effective %v), want German's id %v", cat["secondary_language"], cat["effective_secondary_language"], de["id"])
	}
	bare := fixtureRepo(t)
	comp := c.want(201, "POST", c.base+"projects/inh/components/", map[string]any{"name": "App", "slug": "app",
		"repo": "file://" + bare, "push": "file://" + bare, "filemask": "po/*.po", "new_base": "po/app.pot",
		"file_format": "po", "category": cat["url"], "license": "Apache-2.0"})
	wantSettings(t, "component", comp, map[string]any{"inherit_license": false, "inherit_commit_message": true,
		"effective_license": "Apache-2.0", "effective_new_lang": "none", "effective_commit_message": "Project says {{ language_name }}",
		"effective_check_flags": "c-format, max-length:100", "effective_secondary_language": de["id"]})
	url := comp["url"].(string)
	waitFor(t, func() bool {
		code, _ := c.do("GET", c.base+"translations/inh/docs%252Fapp/de/", nil)
		return code == 200
	})

	// The category's new_lang "none": a user who may add languages but not
	// edit the component is refused; the admin may.
	c.want(201, "POST", c.base+"users/", map[string]any{"username": "una", "full_name": "Una", "email": "una@x.example"})
	una := client{t: t, base: c.base, token: c.want(200, "POST", c.base+"users/una/token/", map[string]any{})["token"].(string)}
	if code, body := una.do("POST", url+"translations/", map[string]any{"language_code": "fr"}); code != 403 ||
		!strings.Contains(string(body), "You do not have permissions to add new translation file.") {
		t.Errorf("new language against the policy: %d %s", code, body)
	}
	c.want(201, "POST", url+"translations/", map[string]any{"language_code": "fr"})
	// The category inherits the project's "add" again: the user may.
	c.want(200, "PATCH", cat["url"].(string), map[string]any{"inherit_new_lang": true})
	if got := c.want(200, "GET", url, nil); got["effective_new_lang"] != "add" {
		t.Errorf("after the category inherits: effective_new_lang %v", got["effective_new_lang"])
	}
	una.want(201, "POST", url+"translations/", map[string]any{"language_code": "it"})

	// The check flags in effect are those the checks use: max-length:100
	// from the category, then the project narrows nothing.
	c.want(200, "PATCH", cat["url"].(string), map[string]any{"check_flags": "max-length:3"})
	unit := unitBySource(t, c, c.base+"translations/inh/docs%252Fapp/de/units/", "Hello")
	c.want(200, "PATCH", unit, map[string]any{"target": []string{"Hallo Welt"}, "state": 20})
	if checks := c.want(200, "GET", unit+"checks/", nil); !strings.Contains(jsonText(checks), "max-length") {
		t.Errorf("the category's max-length:3 is not checked: %v", checks)
	}

	// The project's commit message is the one written.
	if r := c.want(200, "POST", url+"repository/", map[string]any{"operation": "push"}); r["result"] != true {
		t.Fatalf("push: %v", r)
	}
	if _, msg, err := origin.Read(bare, "po/de.po"); err != nil || !strings.HasPrefix(msg, "Project says German") {
		t.Errorf("commit message %q, %v", msg, err)
	}

	// A component's own value stops inheriting it; a project's change
	// reaches the components still inheriting.
	got := c.want(200, "PATCH", url, map[string]any{"commit_message": "Own"})
	wantSettings(t, "own message", got, map[string]any{"inherit_commit_message": false, "effective_commit_message": "Own"})
	c.want(200, "PATCH", project["url"].(string), map[string]any{"license": "GPL-3.0-or-later", "agreement": "Sign here"})
	c.want(200, "PATCH", url, map[string]any{"inherit_license": true})
	wantSettings(t, "after the project changed", c.want(200, "GET", url, nil), map[string]any{
		"effective_license": "GPL-3.0-or-later", "effective_agreement": "Sign here"})
	// What is in effect is not written.
	c.want(200, "PATCH", url, map[string]any{"effective_license": "MIT"})
	wantSettings(t, "effective written", c.want(200, "GET", url, nil), map[string]any{"effective_license": "GPL-3.0-or-later"})
	if code, body := c.do("PATCH", cat["url"].(string), map[string]any{"new_lang": "sometimes"}); code != 400 || !strings.Contains(string(body), "new_lang") {
		t.Errorf("a bad new_lang: %d %s", code, body)
	}
}

// wantSettings checks keys of an answer.
func wantSettings(t *testing.T, what string, got map[string]any, want map[string]any) {
	t.Helper()
	for k, v := range want {
		if v == 0.0 {
			if _, ok := got[k]; !ok {
				t.Errorf("%s: no %s", what, k)
			}
			continue
		}
		if got[k] != v {
			t.Errorf("%s: %s = %#v, want %#v", what, k, got[k], v)
		}
	}
}

// jsonText is v as JSON text.
func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
