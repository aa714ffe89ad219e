package suite

import (
	"slices"
	"strings"
	"testing"
)

// TestTeamAdministrators walks Weblate's team administrators: the site's
// administrator makes tina an administrator of a team (admins lists her,
// and she is a member); she may then add and remove its members and
// administrators, and nothing else of it; a user who is not one may not;
// revoking leaves her a member.
func TestTeamAdministrators(t *testing.T) {
	f := newTeamsFixture(t)
	a := f.admin
	team := a.want(201, "POST", a.base+"groups/", map[string]any{"name": "Proofreaders", "project_selection": 1, "language_selection": 1})
	url := team["url"].(string)
	userID := func(name string) float64 { return a.want(200, "GET", a.base+"users/"+name+"/", nil)["id"].(float64) }
	tina, rita, pete := userID("tina"), userID("rita"), userID("pete")

	// Not found for someone who does not see the team; user_id checked.
	if code, _ := f.users["tina"].do("POST", url+"admins/", map[string]any{"user_id": rita}); code != 404 {
		t.Errorf("a stranger grants: %d, want 404", code)
	}
	for _, bad := range []map[string]any{{}, {"user_id": 999999}, {"user_id": "x"}} {
		if code, body := a.do("POST", url+"admins/", bad); code != 400 || !strings.Contains(string(body), "user_id") {
			t.Errorf("grant %v: %d %s", bad, code, body)
		}
	}
	for range 2 { // granting twice keeps one
		if code, body := a.do("POST", url+"admins/", map[string]any{"user_id": tina}); code != 200 || string(body) != `["Administration rights granted."]` {
			t.Errorf("grant: %d %s", code, body)
		}
	}
	g := f.users["tina"].want(200, "GET", url, nil)
	if !slices.Equal(toStrings(g["admins"]), []string{a.base + "users/tina/"}) {
		t.Errorf("admins %v", g["admins"])
	}
	if groups := toStrings(a.want(200, "GET", a.base+"users/tina/", nil)["groups"]); !slices.Contains(groups, url) {
		t.Errorf("tina's teams %v lack the team she administers", groups)
	}

	// tina adds rita as a member and pete as an administrator; she may not
	// give the team a role. rita, a plain member, may not add anyone.
	f.users["tina"].want(200, "POST", a.base+"users/rita/groups/", map[string]any{"group_id": team["id"]})
	f.users["tina"].want(200, "POST", url+"admins/", map[string]any{"user_id": pete})
	if code, _ := f.users["tina"].do("POST", url+"roles/", map[string]any{"role_id": 1}); code != 403 {
		t.Errorf("an administrator adds a role: %d, want 403", code)
	}
	if code, _ := f.users["rita"].do("POST", a.base+"users/lena/groups/", map[string]any{"group_id": team["id"]}); code != 403 {
		t.Errorf("a member adds a member: %d, want 403", code)
	}
	if code, _ := f.users["rita"].do("POST", url+"admins/", map[string]any{"user_id": rita}); code != 403 {
		t.Errorf("a member makes herself an administrator: %d, want 403", code)
	}

	// pete revokes tina: she stays a member; revoking her again is refused.
	g = f.users["pete"].want(200, "DELETE", url+"admins/"+formatID(tina)+"/", nil)
	if !slices.Equal(toStrings(g["admins"]), []string{a.base + "users/pete/"}) {
		t.Errorf("after revoking tina: admins %v", g["admins"])
	}
	if code, body := a.do("DELETE", url+"admins/"+formatID(tina)+"/", nil); code != 400 || !strings.Contains(string(body), "User not found") {
		t.Errorf("revoke a user who is not one: %d %s", code, body)
	}
	if code, _ := f.users["tina"].do("POST", a.base+"users/lena/groups/", map[string]any{"group_id": team["id"]}); code != 403 {
		t.Errorf("a former administrator adds a member: %d, want 403", code)
	}
	if groups := toStrings(a.want(200, "GET", a.base+"users/tina/", nil)["groups"]); !slices.Contains(groups, url) {
		t.Errorf("revoking removed tina from the team: %v", groups)
	}
}

func toStrings(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func formatID(f float64) string {
	return strings.TrimSuffix(strings.TrimSuffix(jsonText(f), ".0"), "\n")
}
