package suite

import (
	"strings"
	"testing"
)

// TestLanguageWrites walks creating, changing and deleting languages:
// the site's administrator may (language.edit), a user may not; the code
// is checked and unique, the plural required and valid.
func TestLanguageWrites(t *testing.T) {
	f := newPermissionFixture(t)
	a, user := f.admin, f.clients[1]
	base := a.base + "languages/"
	body := map[string]any{"code": "xqz", "name": "Testish", "direction": "rtl", "population": 12,
		"plural": map[string]any{"number": 3, "formula": "n==1 ? 0 : n==2 ? 1 : 2"}}
	if code, _ := user.do("POST", base, body); code != 403 {
		t.Errorf("a user creates a language: %d, want 403", code)
	}
	made := a.want(201, "POST", base, body)
	plural, _ := made["plural"].(map[string]any)
	if made["code"] != "xqz" || made["direction"] != "rtl" || made["population"] != 12.0 || plural["number"] != 3.0 {
		t.Errorf("created %v", made)
	}
	for name, bad := range map[string]map[string]any{
		"taken code":   body,
		"no plural":    {"code": "xqy", "name": "X"},
		"bad formula":  {"code": "xqy", "name": "X", "plural": map[string]any{"number": 2, "formula": "n !="}},
		"bad code":     {"code": "not a code", "name": "X", "plural": map[string]any{"number": 1, "formula": "0"}},
		"no name":      {"code": "xqy", "plural": map[string]any{"number": 1, "formula": "0"}},
		"bad plural n": {"code": "xqy", "name": "X", "plural": map[string]any{"number": 0, "formula": "0"}},
	} {
		if code, out := a.do("POST", base, bad); code != 400 {
			t.Errorf("%s: %d %s", name, code, out)
		}
	}
	url := made["url"].(string)
	if code, _ := user.do("PATCH", url, map[string]any{"name": "X"}); code != 403 {
		t.Errorf("a user changes a language: %d, want 403", code)
	}
	got := a.want(200, "PATCH", url, map[string]any{"name": "Testish (revised)"})
	if got["name"] != "Testish (revised)" || got["direction"] != "rtl" {
		t.Errorf("patched %v", got)
	}
	got = a.want(200, "PUT", url, map[string]any{"name": "Testish", "plural": map[string]any{"number": 2, "formula": "n != 1"}})
	if p := got["plural"].(map[string]any); p["formula"] != "n != 1" {
		t.Errorf("put plural %v", p)
	}
	if code, _ := user.do("DELETE", url, nil); code != 403 {
		t.Errorf("a user deletes a language: %d, want 403", code)
	}
	a.want(204, "DELETE", url, nil)
	if code, out := a.do("GET", url, nil); code != 404 || !strings.Contains(string(out), "detail") {
		t.Errorf("deleted language: %d %s", code, out)
	}
}

// TestLanguageVisibility: as in Weblate, those who may not edit languages
// list and read only the languages with a translation, here one in a
// project they may see; the administrator lists every language.
func TestLanguageVisibility(t *testing.T) {
	f := newPermissionFixture(t)
	admin, tina, anon := f.admin, f.clients[1], f.clients[0]
	base := admin.base
	admin.want(201, "POST", base+"components/secret/app/translations/", map[string]any{"language_code": "fr"})
	visible := map[string]bool{}
	for _, tr := range allPages(t, tina, base+"translations/") {
		visible[tr["language_code"].(string)] = true
	}
	if visible["fr"] || len(visible) == 0 {
		t.Fatalf("tina's translations are in %v", visible)
	}
	for name, c := range map[string]client{"tina": tina, "anonymous": anon} {
		listed := map[string]bool{}
		for _, l := range allPages(t, c, base+"languages/") {
			listed[l["code"].(string)] = true
		}
		if len(listed) != len(visible) {
			t.Errorf("%s lists %v, want %v", name, listed, visible)
		}
		for code := range visible {
			if !listed[code] {
				t.Errorf("%s does not list %s", name, code)
			}
			c.want(200, "GET", base+"languages/"+code+"/", nil)
		}
		c.want(404, "GET", base+"languages/fr/", nil)
		c.want(404, "GET", base+"languages/xh/", nil) // no translation anywhere
	}
	if n := admin.want(200, "GET", base+"languages/", nil)["count"].(float64); n < 500 {
		t.Errorf("the administrator lists %v languages", n)
	}
	admin.want(200, "GET", base+"languages/fr/", nil)
	admin.want(200, "GET", base+"languages/xh/", nil)
}
