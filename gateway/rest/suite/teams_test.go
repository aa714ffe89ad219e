package suite

import (
	"net/url"
	"slices"
	"strings"
	"testing"
)

// teamsFixture is a stack with a protected and a private project, and a
// client per account.
type teamsFixture struct {
	*permissionFixture
	users map[string]client
}

func newTeamsFixture(t *testing.T) *teamsFixture {
	f := &teamsFixture{permissionFixture: &permissionFixture{t: t, admin: newStack(t, nil)}, users: map[string]client{}}
	a := f.admin
	for slug, access := range map[string]int{"guarded": 1, "hidden": 100} {
		a.want(201, "POST", a.base+"projects/", map[string]any{"name": slug, "slug": slug, "web": "https://x.example/",
			"translation_review": true})
		a.want(200, "PATCH", a.base+"projects/"+slug+"/", map[string]any{"access_control": access})
		f.component(slug, "app")
	}
	a.want(201, "POST", a.base+"components/guarded/app/translations/", map[string]any{"language_code": "fr"})
	for _, name := range []string{"tina", "rita", "pete", "lena", "olga"} {
		a.want(201, "POST", a.base+"users/", map[string]any{"username": name, "full_name": name, "email": name + "@x.example"})
		tok := a.want(200, "POST", a.base+"users/"+name+"/token/", map[string]any{})["token"].(string)
		f.users[name] = client{t: t, base: a.base, token: tok}
	}
	return f
}

// team is the id of a project's own team (or a site-wide one for "").
func (f *teamsFixture) team(project, name string) string {
	groups := f.admin.want(200, "GET", f.admin.base+"groups/?page_size=1000", nil)["results"].([]any)
	for _, g := range groups {
		g := g.(map[string]any)
		def, _ := g["defining_project"].(string)
		if g["name"] == name && (project == "" && def == "" || project != "" && strings.HasSuffix(def, "/projects/"+project+"/")) {
			return strings.TrimSuffix(strings.TrimPrefix(g["url"].(string), f.admin.base+"groups/"), "/")
		}
	}
	f.t.Fatalf("no team %q of %q", name, project)
	return ""
}

func (f *teamsFixture) join(user, project, team string) {
	u := f.admin.want(200, "POST", f.admin.base+"users/"+user+"/groups/", map[string]any{"group_id": f.team(project, team)})
	if !slices.ContainsFunc(u["groups"].([]any), func(g any) bool { return strings.HasSuffix(g.(string), "/groups/"+f.team(project, team)+"/") }) {
		f.t.Fatalf("%s not in %s/%s: %v", user, project, team, u["groups"])
	}
}

func (f *teamsFixture) unitOf(project, lang string) string {
	units := f.admin.want(200, "GET", f.admin.base+"translations/"+project+"/app/"+lang+"/units/?q=source:%22Hello%22", nil)["results"].([]any)
	return strings.TrimPrefix(units[0].(map[string]any)["url"].(string), f.admin.base)
}

// TestTeams: a protected project is translated by its Translate team only,
// approving needs its Review team, a language-limited team edits its
// language only, and a private project's teams see it and their project
// administrator manages them; nobody else learns that it exists.
func TestTeams(t *testing.T) {
	f := newTeamsFixture(t)
	de, fr := f.unitOf("guarded", "de"), f.unitOf("guarded", "fr")
	edit := func(target string, state int) map[string]any {
		return map[string]any{"target": []string{target}, "state": state}
	}
	f.users["olga"].want(200, "GET", f.admin.base+"projects/guarded/", nil) // protected: visible to all
	f.users["olga"].want(403, "PATCH", f.admin.base+de, edit("Hallo!", 20))
	f.join("tina", "guarded", "Translate")
	tina := f.users["tina"]
	tina.want(200, "PATCH", f.admin.base+de, edit("Hallo!", 20))
	tina.want(403, "PATCH", f.admin.base+de, edit("Hallo!", 30))
	f.join("rita", "guarded", "Review")
	f.users["rita"].want(200, "PATCH", f.admin.base+de, edit("Hallo!", 30))
	tina.want(403, "PATCH", f.admin.base+de, edit("Hallo?", 20)) // approved: reviewers only

	checkLanguageScope(t, f, de, fr)
	checkPrivateTeams(t, f)
}

// checkLanguageScope builds a team limited to German on the protected
// project through the API.
func checkLanguageScope(t *testing.T, f *teamsFixture, de, fr string) {
	a := f.admin
	g := a.want(201, "POST", a.base+"groups/", map[string]any{"name": "German", "project_selection": 0, "language_selection": 0})
	id := strings.TrimSuffix(strings.TrimPrefix(g["url"].(string), a.base+"groups/"), "/")
	project := a.want(200, "GET", a.base+"projects/guarded/", nil)["id"]
	roles := a.want(200, "GET", a.base+"roles/?page_size=100", nil)["results"].([]any)
	translate := ""
	for _, r := range roles {
		if r := r.(map[string]any); r["name"] == "Translate" {
			translate = strings.TrimSuffix(strings.TrimPrefix(r["url"].(string), a.base+"roles/"), "/")
			if !slices.Contains(r["permissions"].([]any), any("unit.edit")) || slices.Contains(r["permissions"].([]any), any("unit.review")) {
				t.Errorf("Translate role: %v", r["permissions"])
			}
		}
	}
	a.want(200, "POST", a.base+"groups/"+id+"/projects/", map[string]any{"project_id": project})
	a.want(200, "POST", a.base+"groups/"+id+"/languages/", map[string]any{"language_code": "de"})
	g = a.want(200, "POST", a.base+"groups/"+id+"/roles/", map[string]any{"role_id": translate})
	if len(g["projects"].([]any)) != 1 || len(g["languages"].([]any)) != 1 || len(g["roles"].([]any)) != 1 {
		t.Errorf("team links: %v", g)
	}
	a.want(400, "POST", a.base+"groups/"+id+"/roles/", map[string]any{"role_id": 99999})
	a.want(200, "POST", a.base+"users/lena/groups/", map[string]any{"group_id": id})
	lena := f.users["lena"]
	lena.want(403, "PATCH", a.base+fr, map[string]any{"target": []string{"Bonjour"}, "state": 20})
	if code, _ := lena.do("PATCH", a.base+de, map[string]any{"target": []string{"Servus"}, "state": 20}); code != 403 {
		t.Errorf("lena edits an approved German string: %d, want 403 (reviewers only)", code)
	}
	lena.want(200, "GET", a.base+"groups/"+id+"/", nil) // a member reads its team
	lena.want(403, "PATCH", a.base+"groups/"+id+"/", g) // but does not change it
	lena.want(403, "POST", a.base+"groups/", map[string]any{"name": "Mine"})
	f.users["olga"].want(404, "GET", a.base+"groups/"+id+"/", nil)
	client{t: t, base: a.base, token: anonymous}.want(401, "POST", a.base+"groups/", map[string]any{"name": "x"})
}

// checkPrivateTeams: members of a private project's teams see it, its
// Administration team manages its teams; outsiders get 404 throughout.
func checkPrivateTeams(t *testing.T, f *teamsFixture) {
	a, olga, pete := f.admin, f.users["olga"], f.users["pete"]
	olga.want(404, "GET", a.base+"projects/hidden/", nil)
	f.join("pete", "hidden", "Administration")
	pete.want(200, "GET", a.base+"projects/hidden/", nil)
	if n := pete.want(200, "GET", a.base+"units/?q="+url.QueryEscape("source:Hello"), nil)["count"].(float64); n < 2 {
		t.Errorf("pete sees %v Hello units, want those of hidden too", n)
	}
	pete.want(200, "PATCH", a.base+"projects/hidden/", map[string]any{"instructions": "Pete's"})
	pete.want(403, "PATCH", a.base+"projects/guarded/", map[string]any{"instructions": "Pete's"})
	translate := f.team("hidden", "Translate")
	pete.want(200, "POST", a.base+"users/olga/groups/", map[string]any{"group_id": translate})
	olga.want(200, "GET", a.base+"projects/hidden/", nil)
	olga.want(200, "PATCH", a.base+f.unitOf("hidden", "de"), map[string]any{"target": []string{"Hallo?"}, "state": 20})
	olga.want(403, "POST", a.base+"users/tina/groups/", map[string]any{"group_id": translate})
	// Site-wide teams are not his to see, so not to join: no such team.
	pete.want(400, "POST", a.base+"users/pete/groups/", map[string]any{"group_id": f.team("", "Managers")})
	pete.want(403, "POST", a.base+"groups/", map[string]any{"name": "Site"})
	pete.want(201, "POST", a.base+"groups/", map[string]any{"name": "Pete's", "defining_project": "hidden"})
	pete.want(400, "POST", a.base+"groups/"+translate+"/projects/", map[string]any{"project_id": "guarded"})
	listed := pete.want(200, "GET", a.base+"groups/", nil)
	if n := listed["count"].(float64); n < 11 {
		t.Errorf("pete lists %v teams, want hidden's eleven and his own", n)
	}
	a.want(204, "DELETE", a.base+"projects/hidden/", nil)
	olga.want(404, "GET", a.base+"groups/"+translate+"/", nil)
	a.want(404, "GET", a.base+"groups/"+translate+"/", nil)
}
