package suite

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
)

var (
	basicUserKeys = []string{"full_name", "id", "username"}
	fullUserKeys  = []string{"contributions_url", "date_expires", "date_joined", "email", "full_name", "groups", "id",
		"is_active", "is_bot", "is_superuser", "last_login", "notifications", "profile", "statistics_url", "url", "username"}
)

func keys(v map[string]any) []string {
	var out []string
	for k := range v {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestUsers covers the users API: the two shapes, who lists whom, edits
// and deactivation by superusers only, statistics and contributions that
// count nothing of a project the caller may not see.
func TestUsers(t *testing.T) {
	f := newPermissionFixture(t)
	admin, tina, anon := f.clients[2], f.clients[1], f.clients[0]
	base := admin.base

	if got := keys(tina.want(200, "GET", base+"users/admin/", nil)); !slices.Equal(got, basicUserKeys) {
		t.Errorf("another user's account shows %v, want %v", got, basicUserKeys)
	}
	for name, c := range map[string]client{"self": tina, "superuser": admin} {
		if got := keys(c.want(200, "GET", base+"users/tina/", nil)); !slices.Equal(got, fullUserKeys) {
			t.Errorf("%s sees %v, want %v", name, got, fullUserKeys)
		}
	}
	// An account without an e-mail answers null, as Weblate's nullable
	// field; one with it, the address.
	if self := admin.want(200, "GET", base+"users/admin/", nil); self["email"] != nil {
		t.Errorf("the admin, created without an e-mail, shows email %#v", self["email"])
	}
	if got := admin.want(200, "GET", base+"users/tina/", nil)["email"]; got != "tina@x.example" {
		t.Errorf("tina's email %#v", got)
	}
	if n := admin.want(200, "GET", base+"users/", nil)["count"]; n.(float64) < 4 {
		t.Errorf("superuser lists %v users", n)
	}
	if own := tina.want(200, "GET", base+"users/", nil); own["count"] != 1.0 || own["results"].([]any)[0].(map[string]any)["username"] != "tina" {
		t.Errorf("a user lists %v", own)
	}
	if n := anon.want(200, "GET", base+"users/", nil)["count"]; n != 0.0 {
		t.Errorf("anonymous lists %v users", n)
	}

	patch := map[string]any{"full_name": "Tina T.", "is_bot": true, "date_expires": "2030-01-02T03:04:05Z", "username": "ignored"}
	// The account itself changes its name (and settings); Weblate ignores
	// the other fields it sends.
	if self := tina.want(200, "PATCH", base+"users/tina/", patch); self["full_name"] != "Tina T." || self["is_bot"] != false ||
		self["date_expires"] != nil {
		t.Errorf("a self-service PATCH: %v", self)
	}
	tina.want(400, "PATCH", base+"users/tina/", map[string]any{"email": "someone@else.example"})
	tina.want(403, "PATCH", base+"users/admin/", patch)
	anon.want(401, "PATCH", base+"users/tina/", patch)
	admin.want(404, "PATCH", base+"users/nobody/", patch)
	got := admin.want(200, "PATCH", base+"users/tina/", patch)
	if got["full_name"] != "Tina T." || got["is_bot"] != true || got["date_expires"] != "2030-01-02T03:04:05Z" || got["username"] != "tina" {
		t.Errorf("after PATCH: %v", got)
	}
	for _, bad := range []struct {
		body any
		attr string
	}{
		{map[string]any{"email": "not an address"}, `"attr":"email"`},
		{map[string]any{"is_bot": "maybe"}, `"attr":"is_bot"`},
		{map[string]any{"date_expires": "next tuesday"}, `"attr":"date_expires"`},
		{json.RawMessage(`{"full_name": `), `"code":"parse_error"`},
	} {
		if code, body := admin.do("PATCH", base+"users/tina/", bad.body); code != 400 || !strings.Contains(string(body), bad.attr) {
			t.Errorf("PATCH %v: %d %s", bad.body, code, body)
		}
	}
	if got := admin.want(200, "GET", base+"users/tina/", nil); got["full_name"] != "Tina T." {
		t.Errorf("a refused PATCH changed the account: %v", got)
	}

	// Statistics and contributions: tina's work in the public project
	// counts; the admin's in the private one is not counted for her.
	hello := f.helloUnit("open")
	tina.want(200, "PATCH", base+hello, map[string]any{"target": []string{"Hallo!"}, "state": 20})
	tina.want(201, "POST", base+hello+"comments/", map[string]any{"scope": "translation", "comment": "ok?"})
	secret := f.helloUnit("secret")
	admin.want(200, "PATCH", base+secret, map[string]any{"target": []string{"Geheim"}, "state": 20})
	waitFor(t, func() bool { return admin.want(200, "GET", base+"users/tina/statistics/", nil)["commented"] == 1.0 })
	stats := tina.want(200, "GET", base+"users/tina/statistics/", nil)
	if stats["translated"] != 1.0 || stats["commented"] != 1.0 || stats["languages"] != 1.0 || stats["suggested"] != 0.0 {
		t.Errorf("tina's statistics: %v", stats)
	}
	waitFor(t, func() bool {
		return admin.want(200, "GET", base+"projects/secret/changes/?user=admin&action=2", nil)["count"] == 1.0
	})
	all := admin.want(200, "GET", base+"users/admin/contributions/", nil)
	seen := tina.want(200, "GET", base+"users/admin/contributions/", nil)
	raw, _ := json.Marshal(seen)
	if all["count"].(float64) <= seen["count"].(float64) || strings.Contains(string(raw), "/secret/") {
		t.Errorf("the private project's contributions reach an outsider: admin sees %v, tina %s", all["count"], raw)
	}
	mine := tina.want(200, "GET", base+"users/tina/contributions/", nil)
	if mine["count"] != 1.0 || mine["results"].([]any)[0].(map[string]any)["url"] != base+"translations/open/app/de/" {
		t.Errorf("tina's contributions: %v", mine)
	}
	if a, o := admin.want(200, "GET", base+"users/admin/statistics/", nil), anon.want(200, "GET", base+"users/admin/statistics/", nil); a["translated"].(float64) <= o["translated"].(float64) {
		t.Errorf("admin's statistics: %v to the admin, %v anonymously", a, o)
	}

	tina.want(403, "DELETE", base+"users/victim/", nil)
	admin.want(204, "DELETE", base+"users/tina/", nil)
	if code, _ := tina.do("GET", base+"projects/", nil); code != 401 {
		t.Errorf("a deactivated user's token still works: %d", code)
	}
	if got := admin.want(200, "GET", base+"users/tina/", nil); got["is_active"] != false {
		t.Errorf("deactivated user: %v", got)
	}
	admin.want(400, "DELETE", base+"users/admin/", nil)
}

// TestUserProfile: an account's settings (Weblate's profile) read with
// their defaults, written by the account itself and by superusers,
// validated field by field, and rendered within what the caller may see:
// a watched private project is left out for those who cannot see it.
func TestUserProfile(t *testing.T) {
	f := newPermissionFixture(t)
	admin, tina := f.clients[2], f.clients[1]
	base := admin.base
	profile := func(c client, user string) map[string]any {
		t.Helper()
		return c.want(200, "GET", base+"users/"+user+"/", nil)["profile"].(map[string]any)
	}
	p := profile(tina, "tina")
	if len(p) != 36 || p["theme"] != "auto" || p["nearby_strings"] != 15.0 || p["auto_watch"] != true || p["dashboard_view"] != 1.0 ||
		p["dashboard_component_list"] != nil || p["last_2fa"] != "" || len(p["languages"].([]any)) != 0 || p["translated"] != 0.0 {
		t.Errorf("defaults (%d keys): %v", len(p), p)
	}
	p = tina.want(200, "PATCH", base+"users/tina/", map[string]any{"profile": map[string]any{"theme": "dark",
		"languages": []string{"de"}, "secondary_languages": []string{"cs"}, "watched": []string{"open"}, "company": "ACME",
		"commit_email": "tina@x.example", "auto_watch": false, "translated": 99}})["profile"].(map[string]any)
	if p["theme"] != "dark" || fmt.Sprint(p["languages"]) != "["+base+"languages/de/]" || fmt.Sprint(p["watched"]) != "["+base+"projects/open/]" ||
		p["company"] != "ACME" || p["auto_watch"] != false || p["translated"] != 0.0 || p["commit_email"] != "tina@x.example" {
		t.Errorf("after PATCH: %v", p)
	}
	for _, bad := range []struct {
		profile any
		attr    string
	}{
		{map[string]any{"watched": []string{"secret"}}, "profile.watched"},
		{map[string]any{"languages": []string{"no-such-language"}}, "profile.languages"},
		{map[string]any{"theme": "neon"}, "profile.theme"},
		{map[string]any{"nearby_strings": "many"}, "profile.nearby_strings"},
		{map[string]any{"website": "ftp://example.com/"}, "profile.website"},
		{map[string]any{"public_email": "admin@x.example"}, "profile.public_email"},
		{map[string]any{"dashboard_component_list": "no-such-list"}, "profile.dashboard_component_list"},
		{"dark", `"attr":"profile"`},
	} {
		code, body := tina.do("PATCH", base+"users/tina/", map[string]any{"profile": bad.profile, "full_name": "Changed"})
		if code != 400 || !strings.Contains(string(body), bad.attr) {
			t.Errorf("profile %v: %d %s", bad.profile, code, body)
		}
	}
	if got := tina.want(200, "GET", base+"users/tina/", nil); got["full_name"] != "Tina" || got["profile"].(map[string]any)["theme"] != "dark" {
		t.Errorf("a refused PATCH changed the account: %v", got)
	}
	// A superuser sets a private project; tina's own view leaves it out.
	admin.want(200, "PATCH", base+"users/tina/", map[string]any{"profile": map[string]any{"watched": []string{"secret", "open"}}})
	if w := profile(admin, "tina")["watched"].([]any); len(w) != 2 {
		t.Errorf("the admin sees watched %v", w)
	}
	if w := profile(tina, "tina")["watched"].([]any); len(w) != 1 || w[0] != base+"projects/open/" {
		t.Errorf("tina sees watched %v", w)
	}
	// null clears a list; the counts follow the user's statistics.
	p = tina.want(200, "PATCH", base+"users/tina/", map[string]any{"profile": map[string]any{"secondary_languages": nil}})["profile"].(map[string]any)
	if len(p["secondary_languages"].([]any)) != 0 || len(p["languages"].([]any)) != 1 {
		t.Errorf("after clearing: %v", p)
	}
	tina.want(200, "PATCH", base+f.helloUnit("open"), map[string]any{"target": []string{"Hallo!"}, "state": 20})
	waitFor(t, func() bool { return profile(tina, "tina")["translated"] == 1.0 })
	if stats := tina.want(200, "GET", base+"users/tina/statistics/", nil); stats["translated"] != 1.0 {
		t.Errorf("statistics %v", stats)
	}
	// Others see the basic form, without settings.
	if other := tina.want(200, "GET", base+"users/admin/", nil); other["profile"] != nil {
		t.Errorf("tina sees the admin's settings: %v", other)
	}
}
