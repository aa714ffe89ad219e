package suite

import (
	"bytes"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

// writeCase is one write route: prep (run as the admin, once per role)
// makes what the request needs and returns its path (below /api/) and
// body; want is the status per role: anonymous, a signed-in user in the
// built-in teams only (Users: "Power user" on public projects), the
// superuser. TestTeams covers project teams, reviewers and language scope.
type writeCase struct {
	name   string
	method string
	prep   func(role string) (path string, body any)
	want   [3]int
}

var roles = [3]string{"anonymous", "user", "superuser"}

// TestWritePermissions runs every write route as each role, on a public
// project (403 when the role may not, with the reason) and on a private
// one (404 for a user who may not see it: its existence is not revealed).
func TestWritePermissions(t *testing.T) {
	f := newPermissionFixture(t)
	cases := f.cases()
	for _, tc := range cases {
		for i, role := range roles {
			path, body := tc.prep(role)
			code, out := f.clients[i].request(tc.method, f.admin.base+path, body)
			if code != tc.want[i] {
				t.Errorf("%s as %s: %s %s -> %d, want %d: %.300s", tc.name, role, tc.method, path, code, tc.want[i], out)
			}
			if code == 403 && !strings.Contains(string(out), `"detail"`) {
				t.Errorf("%s as %s: 403 without a reason: %s", tc.name, role, out)
			}
		}
	}
	// The private project's writes as the user: 404 each, never 403.
	for _, tc := range f.privateCases() {
		path, body := tc.prep("user")
		if code, out := f.clients[1].request(tc.method, f.admin.base+path, body); code != 404 {
			t.Errorf("%s on the private project as a user: %d, want 404: %.200s", tc.name, code, out)
		}
		if code, _ := f.clients[0].request(tc.method, f.admin.base+path, body); code != 401 {
			t.Errorf("%s on the private project anonymously: %d, want 401", tc.name, code)
		}
	}
}

type permissionFixture struct {
	t       *testing.T
	admin   client
	clients [3]client
	seq     int
}

func newPermissionFixture(t *testing.T) *permissionFixture {
	f := &permissionFixture{t: t, admin: newStack(t, nil)}
	a := f.admin
	for _, slug := range []string{"open", "secret"} {
		a.want(201, "POST", a.base+"projects/", map[string]any{"name": slug, "slug": slug, "web": "https://x.example/", "translation_review": true})
		f.component(slug, "app")
	}
	a.want(200, "PATCH", a.base+"projects/secret/", map[string]any{"access_control": 100})
	a.want(201, "POST", a.base+"users/", map[string]any{"username": "tina", "full_name": "Tina", "email": "tina@x.example"})
	a.want(201, "POST", a.base+"users/", map[string]any{"username": "victim", "full_name": "V", "email": "v@x.example"})
	tina := a.want(200, "POST", a.base+"users/tina/token/", map[string]any{})["token"].(string)
	f.clients = [3]client{{t: t, base: a.base, token: anonymous}, {t: t, base: a.base, token: tina}, a}
	return f
}

// component creates a component from the fixture repository and waits
// for its import.
func (f *permissionFixture) component(project, slug string) {
	f.admin.want(201, "POST", f.admin.base+"projects/"+project+"/components/", map[string]any{"name": slug, "slug": slug,
		"repo": "file://" + fixtureRepo(f.t), "filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po", "manage_units": true})
	waitFor(f.t, func() bool {
		code, _ := f.admin.do("GET", f.admin.base+"translations/"+project+"/"+slug+"/de/", nil)
		return code == 200
	})
}

// role makes a role as the admin and returns its path ("roles/<id>").
func (f *permissionFixture) role() string {
	r := f.admin.want(201, "POST", f.admin.base+"roles/", map[string]any{"name": f.unique("Role "), "permissions": []string{}})
	return strings.TrimSuffix(strings.TrimPrefix(r["url"].(string), f.admin.base), "/")
}

// group makes a site-wide team as the admin and returns its path.
func (f *permissionFixture) group() string {
	g := f.admin.want(201, "POST", f.admin.base+"groups/", map[string]any{"name": f.unique("Team ")})
	return strings.TrimSuffix(strings.TrimPrefix(g["url"].(string), f.admin.base), "/")
}

// category makes a category of project as the admin and returns its path.
func (f *permissionFixture) category(project string) string {
	s := f.unique("cat")
	x := f.admin.want(201, "POST", f.admin.base+"categories/", map[string]any{"name": s, "slug": s, "project": project})
	return strings.TrimPrefix(x["url"].(string), f.admin.base)
}

// label makes a label of project as the admin and returns its path.
func (f *permissionFixture) label(project string) string {
	return fmt.Sprintf("projects/%s/labels/%d/", project, f.labelID(project))
}

func (f *permissionFixture) labelID(project string) int64 {
	l := f.admin.want(201, "POST", f.admin.base+"projects/"+project+"/labels/", map[string]any{"name": f.unique("Label ")})
	return int64(l["id"].(float64))
}

// unique names a resource made for one case and role.
func (f *permissionFixture) unique(prefix string) string {
	f.seq++
	return fmt.Sprintf("%s%d", prefix, f.seq)
}

// helloUnit is the path of the unit "Hello" of <project>/app/de.
func (f *permissionFixture) helloUnit(project string) string {
	units := f.admin.want(200, "GET", f.admin.base+"translations/"+project+"/app/de/units/?q=source:%22Hello%22", nil)["results"].([]any)
	if len(units) == 0 {
		f.t.Fatalf("no unit \"Hello\" in %s", project)
	}
	return strings.TrimPrefix(units[0].(map[string]any)["url"].(string), f.admin.base)
}

func fixed(path string, body any) func(string) (string, any) {
	return func(string) (string, any) { return path, body }
}

func (f *permissionFixture) cases() []writeCase {
	a := f.admin
	deny := [3]int{401, 403, 0}
	with := func(super int) [3]int { d := deny; d[2] = super; return d }
	userOK := func(status int) [3]int { return [3]int{401, status, status} }
	hello := f.helloUnit("open")
	cases := []writeCase{
		{"create project", "POST", func(string) (string, any) {
			s := f.unique("p")
			return "projects/", map[string]any{"name": s, "slug": s, "web": "https://x.example/"}
		}, with(201)},
		{"edit project", "PATCH", fixed("projects/open/", map[string]any{"instructions": "Be kind"}), with(200)},
		{"delete project", "DELETE", func(string) (string, any) {
			s := f.unique("gone")
			a.want(201, "POST", a.base+"projects/", map[string]any{"name": s, "slug": s, "web": "https://x.example/"})
			return "projects/" + s + "/", nil
		}, with(204)},
		{"create component", "POST", func(string) (string, any) {
			s := f.unique("c")
			return "projects/open/components/", map[string]any{"name": s, "slug": s, "repo": "file://" + fixtureRepo(f.t),
				"filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"}
		}, with(201)},
		{"project repository", "POST", fixed("projects/open/repository/", map[string]any{"operation": "commit"}), with(200)},
		{"project lock", "POST", fixed("projects/open/lock/", map[string]any{"lock": false}), with(200)},
		{"edit component", "PATCH", fixed("components/open/app/", map[string]any{"agreement": ""}), with(200)},
		{"delete component", "DELETE", func(string) (string, any) {
			s := f.unique("d")
			f.component("open", s)
			return "components/open/" + s + "/", nil
		}, with(204)},
		{"add translation", "POST", func(role string) (string, any) {
			return "components/open/app/translations/", map[string]any{"language_code": map[string]string{"anonymous": "it", "user": "it", "superuser": "fr"}[role]}
		}, userOK(201)}, // the Users team's "Power user" role adds languages
		{"component lock", "POST", fixed("components/open/app/lock/", map[string]any{"lock": false}), with(200)},
		{"component repository", "POST", fixed("components/open/app/repository/", map[string]any{"operation": "commit"}), with(200)},
		{"delete translation", "DELETE", func(role string) (string, any) {
			code := map[string]string{"anonymous": "cs", "user": "pl", "superuser": "sk"}[role]
			a.want(201, "POST", a.base+"components/open/app/translations/", map[string]any{"language_code": code})
			return "translations/open/app/" + code + "/", nil
		}, with(204)},
		{"add string", "POST", func(string) (string, any) {
			s := f.unique("New string ")
			return "translations/open/app/de/units/", map[string]any{"source": []string{s}, "target": []string{s + " (de)"}}
		}, with(200)},
		{"translation repository", "POST", fixed("translations/open/app/de/repository/", map[string]any{"operation": "commit"}), with(200)},
		{"translate", "PATCH", fixed(hello, map[string]any{"target": []string{"Hallo"}, "state": 20}), userOK(200)},
		{"approve", "PATCH", fixed(hello, map[string]any{"target": []string{"Hallo"}, "state": 30}), with(200)},
		{"delete string", "DELETE", func(string) (string, any) {
			s := f.unique("Doomed ")
			u := a.want(200, "POST", a.base+"translations/open/app/de/units/", map[string]any{"source": []string{s}, "target": []string{s}})
			return strings.TrimPrefix(u["url"].(string), a.base), nil
		}, with(204)},
		{"suggest", "POST", func(string) (string, any) {
			return hello + "suggestions/", map[string]any{"target": []string{f.unique("Servus ")}}
		}, userOK(201)},
		{"accept suggestion", "POST", func(string) (string, any) {
			s := a.want(201, "POST", a.base+hello+"suggestions/", map[string]any{"target": []string{f.unique("Moin ")}})
			return strings.TrimPrefix(s["url"].(string), a.base) + "accept/", nil
		}, userOK(200)},
		{"reject suggestion", "DELETE", func(string) (string, any) {
			s := a.want(201, "POST", a.base+hello+"suggestions/", map[string]any{"target": []string{f.unique("Tach ")}})
			return strings.TrimPrefix(s["url"].(string), a.base), nil
		}, userOK(204)},
		{"comment", "POST", fixed(hello+"comments/", map[string]any{"scope": "translation", "comment": "Fine?"}), userOK(201)},
		{"resolve comment", "POST", func(string) (string, any) {
			x := a.want(201, "POST", a.base+hello+"comments/", map[string]any{"scope": "translation", "comment": "Check"})
			return strings.TrimPrefix(x["url"].(string), a.base) + "resolve/", nil
		}, with(200)},
		{"delete comment", "DELETE", func(string) (string, any) {
			x := a.want(201, "POST", a.base+hello+"comments/", map[string]any{"scope": "translation", "comment": "Gone"})
			return strings.TrimPrefix(x["url"].(string), a.base), nil
		}, with(204)},
		// Labels are the project's settings (project.edit); setting them on
		// a string needs source.edit, which "Power user" lacks.
		{"create label", "POST", func(string) (string, any) {
			return "projects/open/labels/", map[string]any{"name": f.unique("Label "), "color": "red"}
		}, with(201)},
		{"edit label", "PATCH", func(string) (string, any) { return f.label("open"), map[string]any{"color": "blue"} }, with(200)},
		{"delete label", "DELETE", func(string) (string, any) { return f.label("open"), nil }, with(204)},
		{"label a string", "PATCH", func(string) (string, any) {
			return hello, map[string]any{"labels": []int64{f.labelID("open")}}
		}, with(200)},
		// Sharing a component with another project needs component.edit.
		{"link component", "POST", fixed("components/open/app/links/", map[string]any{"project_slug": "secret"}), [3]int{401, 403, 201}},
		{"unlink component", "DELETE", func(string) (string, any) {
			a.want(201, "POST", a.base+"components/open/app/links/", map[string]any{"project_slug": "secret"})
			return "components/open/app/links/secret/", nil
		}, with(204)},
		{"machinery settings", "POST", fixed("projects/open/machinery_settings/", map[string]any{"service": "weblate", "configuration": map[string]any{}}), with(201)},
		// Announcements: project.edit for a project's, component.edit below.
		{"project announcement", "POST", fixed("projects/open/announcements/", map[string]any{"message": "Hi", "notify": false}), with(201)},
		{"component announcement", "POST", fixed("components/open/app/announcements/", map[string]any{"message": "Hi", "notify": false}), with(201)},
		{"translation announcement", "POST", fixed("translations/open/app/de/announcements/", map[string]any{"message": "Hi", "notify": false}), with(201)},
		{"delete announcement", "DELETE", func(string) (string, any) {
			x := a.want(201, "POST", a.base+"projects/open/announcements/", map[string]any{"message": "Bye", "notify": false})
			return fmt.Sprintf("projects/open/announcements/%d/", int64(x["id"].(float64))), nil
		}, with(204)},
		// Categories are the project's settings too (project.edit).
		{"create category", "POST", func(string) (string, any) {
			s := f.unique("cat")
			return "categories/", map[string]any{"name": s, "slug": s, "project": "open"}
		}, with(201)},
		{"edit category", "PATCH", func(string) (string, any) { return f.category("open"), map[string]any{"name": f.unique("Cat ")} }, with(200)},
		{"delete category", "DELETE", func(string) (string, any) { return f.category("open"), nil }, with(204)},
		{"create user", "POST", func(string) (string, any) {
			s := f.unique("u")
			return "users/", map[string]any{"username": s, "full_name": s, "email": s + "@x.example"}
		}, with(201)},
		// Site-wide roles and teams are the superusers'; a team the user is
		// not in does not exist for it (TestTeams: project teams).
		{"create role", "POST", func(string) (string, any) {
			return "roles/", map[string]any{"name": f.unique("Role "), "permissions": []string{"unit.edit"}}
		}, with(201)},
		{"edit role", "PATCH", func(string) (string, any) { return f.role() + "/", map[string]any{"permissions": []string{"unit.add"}} }, with(200)},
		{"delete role", "DELETE", func(string) (string, any) { return f.role() + "/", nil }, with(204)},
		{"create team", "POST", func(string) (string, any) { return "groups/", map[string]any{"name": f.unique("Team ")} }, with(201)},
		{"edit team", "PATCH", func(string) (string, any) { return f.group() + "/", map[string]any{"language_selection": 1} }, [3]int{401, 404, 200}},
		{"delete team", "DELETE", func(string) (string, any) { return f.group() + "/", nil }, [3]int{401, 404, 204}},
		{"team role", "POST", func(string) (string, any) {
			return f.group() + "/roles/", map[string]any{"role_id": strings.TrimPrefix(f.role(), "roles/")}
		}, [3]int{401, 404, 200}},
		{"team member", "POST", func(string) (string, any) {
			return "users/victim/groups/", map[string]any{"group_id": strings.TrimPrefix(f.group(), "groups/")}
		}, [3]int{401, 400, 200}},
		// Another user's token and subscriptions are not the user's to see.
		{"another user's token", "POST", fixed("users/victim/token/", map[string]any{}), [3]int{401, 404, 200}},
		{"another user's subscription", "POST", fixed("users/victim/notifications/", map[string]any{"notification": "NewTranslationNotificaton", "scope": 10, "frequency": 1}), [3]int{401, 404, 201}},
	}
	// Uploads: every method needs the rights of the edits it makes.
	for _, m := range []struct {
		method string
		want   [3]int
	}{{"translate", userOK(200)}, {"fuzzy", userOK(200)}, {"suggest", userOK(200)}, {"approve", with(200)}, {"add", with(200)}, {"replace", with(200)}} {
		cases = append(cases, writeCase{"upload " + m.method, "UPLOAD", func(string) (string, any) {
			_, file := a.do("GET", a.base+"translations/open/app/de/file/", nil)
			return "translations/open/app/de/file/", uploadBody{method: m.method, file: file}
		}, m.want})
	}
	return cases
}

// privateCases are writes on the private project.
func (f *permissionFixture) privateCases() []writeCase {
	unit := f.helloUnit("secret")
	return []writeCase{
		{"edit project", "PATCH", fixed("projects/secret/", map[string]any{"instructions": "x"}), [3]int{}},
		{"delete project", "DELETE", fixed("projects/secret/", nil), [3]int{}},
		{"create component", "POST", fixed("projects/secret/components/", map[string]any{"name": "x", "slug": "x"}), [3]int{}},
		{"project repository", "POST", fixed("projects/secret/repository/", map[string]any{"operation": "commit"}), [3]int{}},
		{"edit component", "PATCH", fixed("components/secret/app/", map[string]any{"agreement": ""}), [3]int{}},
		{"component lock", "POST", fixed("components/secret/app/lock/", map[string]any{"lock": true}), [3]int{}},
		{"add translation", "POST", fixed("components/secret/app/translations/", map[string]any{"language_code": "fr"}), [3]int{}},
		{"delete translation", "DELETE", fixed("translations/secret/app/de/", nil), [3]int{}},
		{"add string", "POST", fixed("translations/secret/app/de/units/", map[string]any{"source": []string{"x"}}), [3]int{}},
		{"translate", "PATCH", fixed(unit, map[string]any{"target": []string{"x"}, "state": 20}), [3]int{}},
		{"delete string", "DELETE", fixed(unit, nil), [3]int{}},
		{"suggest", "POST", fixed(unit+"suggestions/", map[string]any{"target": []string{"x"}}), [3]int{}},
		{"comment", "POST", fixed(unit+"comments/", map[string]any{"scope": "translation", "comment": "x"}), [3]int{}},
		{"create label", "POST", fixed("projects/secret/labels/", map[string]any{"name": "x"}), [3]int{}},
		{"create category", "POST", fixed("categories/", map[string]any{"name": "x", "slug": "x", "project": "secret"}), [3]int{}},
		{"link component", "POST", fixed("components/secret/app/links/", map[string]any{"project_slug": "open"}), [3]int{}},
		{"project announcement", "POST", fixed("projects/secret/announcements/", map[string]any{"message": "x"}), [3]int{}},
		{"machinery settings", "POST", fixed("projects/secret/machinery_settings/", map[string]any{"service": "weblate", "configuration": map[string]any{}}), [3]int{}},
		{"translation announcement", "POST", fixed("translations/secret/app/de/announcements/", map[string]any{"message": "x"}), [3]int{}},
		{"edit category", "PATCH", fixed(f.category("secret"), map[string]any{"name": "y"}), [3]int{}},
		{"delete category", "DELETE", fixed(f.category("secret"), nil), [3]int{}},
		{"edit label", "PATCH", fixed(f.label("secret"), map[string]any{"name": "y"}), [3]int{}},
		{"label a string", "PATCH", fixed(unit, map[string]any{"labels": []int64{f.labelID("secret")}}), [3]int{}},
		{"upload", "UPLOAD", fixed("translations/secret/app/de/file/", uploadBody{method: "translate", file: []byte("msgid \"\"\nmsgstr \"\"\n")}), [3]int{}},
	}
}

// uploadBody is a multipart file upload.
type uploadBody struct {
	method string
	file   []byte
}

// request is do with multipart uploads: an uploadBody is sent with the
// method ("UPLOAD" POSTs it).
func (c client) request(method, url string, body any) (int, []byte) {
	up, ok := body.(uploadBody)
	if !ok {
		return c.do(method, url, body)
	}
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	_ = w.WriteField("method", up.method)
	fw, _ := w.CreateFormFile("file", "de.po")
	_, _ = fw.Write(up.file)
	_ = w.Close()
	if method == "UPLOAD" {
		method = "POST"
	}
	req, _ := http.NewRequest(method, url, &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return c.send(req)
}
