package suite

import (
	"archive/zip"
	"bytes"
	"net/http"
	"slices"
	"testing"

	"github.com/tmsproject/tms/gateway/bench/origin"
)

// TestProjectDownloads: /api/projects/<p>/file/ and
// /api/projects/<p>/languages/<code>/file/ answer a zip of the project's
// translation files, each below its component's slug, converted on
// ?format=; a private project is 404 to outsiders, an unknown language 404.
func TestProjectDownloads(t *testing.T) {
	f := newTeamsFixture(t)
	a := f.admin
	f.component("guarded", "web")
	cases := []struct {
		who  client
		path string
		code int
		want []string
	}{
		{a, "projects/guarded/file/", 200, []string{"app/po/app.pot", "app/po/de.po", "app/po/fr.po", "web/po/app.pot", "web/po/de.po"}},
		{a, "projects/guarded/languages/fr/file/", 200, []string{"app/po/fr.po"}},
		{a, "projects/guarded/languages/de/file/?format=mo", 200, []string{"app/po/de.mo", "web/po/de.mo"}},
		{a, "projects/guarded/languages/xx-nope/file/", 404, nil},
		{a, "projects/nope/file/", 404, nil},
		{f.users["rita"], "projects/hidden/file/", 404, nil},
		{client{t: t, base: a.base, token: anonymous}, "projects/hidden/languages/de/file/", 404, nil},
		{client{t: t, base: a.base, token: anonymous}, "projects/guarded/languages/fr/file/", 200, []string{"app/po/fr.po"}},
	}
	for _, c := range cases {
		req, _ := http.NewRequest("GET", a.base+c.path, nil)
		code, body := c.who.send(req)
		if code != c.code {
			t.Errorf("%s: %d, want %d: %.200s", c.path, code, c.code, body)
			continue
		}
		if c.code != 200 {
			continue
		}
		zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
		if err != nil {
			t.Errorf("%s: %v", c.path, err)
			continue
		}
		var names []string
		for _, e := range zr.File {
			names = append(names, e.Name)
		}
		slices.Sort(names)
		if !slices.Equal(names, c.want) {
			t.Errorf("%s: entries %v, want %v", c.path, names, c.want)
		}
	}
}

// TestComponentTemplates: monolingual_base/ answers a monolingual
// component's template and new_template/ its new_base, as committed;
// either is 404 where the component has none, and both are 404 to who may
// not see the project.
func TestComponentTemplates(t *testing.T) {
	f := newTeamsFixture(t)
	a := f.admin
	bare, err := origin.Create(t.TempDir(), map[string][]byte{
		"locale/en.json":  []byte("{\"hello\": \"Hello\"}\n"),
		"locale/de.json":  []byte("{\"hello\": \"Hallo\"}\n"),
		"locale/new.json": []byte("{}\n"),
	})
	if err != nil {
		t.Fatal(err)
	}
	a.want(201, "POST", a.base+"projects/hidden/components/", map[string]any{"name": "Mono", "slug": "mono",
		"repo": "file://" + bare, "filemask": "locale/*.json", "template": "locale/en.json", "new_base": "locale/new.json",
		"file_format": "json"})
	waitFor(t, func() bool {
		code, _ := a.do("GET", a.base+"translations/hidden/mono/de/", nil)
		return code == 200
	})
	anon := client{t: t, base: a.base, token: anonymous}
	cases := []struct {
		who  client
		path string
		code int
		body string
	}{
		{a, "components/hidden/mono/monolingual_base/", 200, "{\"hello\": \"Hello\"}\n"},
		{a, "components/hidden/mono/new_template/", 200, "{}\n"},
		{a, "components/hidden/app/monolingual_base/", 404, ""},
		{a, "components/hidden/app/new_template/", 200, ""},
		{f.users["rita"], "components/hidden/mono/monolingual_base/", 404, ""},
		{anon, "components/hidden/mono/new_template/", 404, ""},
	}
	for _, c := range cases {
		req, _ := http.NewRequest("GET", a.base+c.path, nil)
		code, body := c.who.send(req)
		if code != c.code || (c.body != "" && string(body) != c.body) {
			t.Errorf("%s: %d %q, want %d %q", c.path, code, body, c.code, c.body)
		}
	}
}
