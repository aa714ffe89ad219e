package suite

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// secretText is put into a private project's strings, suggestions,
// comments and change records; no answer to an outsider may contain it.
const secretText = "ZEBRA-SECRET-42"

// TestPrivateProjectInvisible builds a public and a private project and
// asks every list, search, count and sum as an anonymous caller and as a
// signed-in outsider: the private project's text never appears, and every
// count is the admin's count without the private project's share.
func TestPrivateProjectInvisible(t *testing.T) {
	admin := newStack(t, nil)
	for _, slug := range []string{"open", "secret"} {
		admin.want(201, "POST", admin.base+"projects/", map[string]any{"name": slug, "slug": slug, "web": "https://x.example/"})
		admin.want(201, "POST", admin.base+"projects/"+slug+"/components/", map[string]any{"name": "App", "slug": "app",
			"repo": "file://" + fixtureRepo(t), "filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"})
		waitFor(t, func() bool {
			code, _ := admin.do("GET", admin.base+"translations/"+slug+"/app/de/", nil)
			return code == 200
		})
	}
	units := admin.want(200, "GET", admin.base+"translations/secret/app/de/units/", nil)["results"].([]any)
	unit := units[0].(map[string]any)["url"].(string)
	admin.want(200, "PATCH", unit, map[string]any{"target": []string{secretText}, "state": 20})
	openUnit := admin.want(200, "GET", admin.base+"translations/open/app/de/units/", nil)["results"].([]any)[0].(map[string]any)["url"].(string)
	admin.want(200, "PATCH", openUnit, map[string]any{"target": []string{"Offen"}, "state": 20})
	admin.want(201, "POST", unit+"suggestions/", map[string]any{"target": []string{secretText + " suggestion"}})
	admin.want(201, "POST", unit+"comments/", map[string]any{"scope": "translation", "comment": secretText + " comment"})
	label := admin.want(201, "POST", admin.base+"projects/secret/labels/", map[string]any{"name": secretText + " label"})
	admin.want(200, "PATCH", unit, map[string]any{"labels": []any{label["id"]}})
	category := admin.want(201, "POST", admin.base+"categories/", map[string]any{"name": secretText + " category", "slug": "hidden", "project": "secret"})
	admin.want(201, "POST", admin.base+"categories/", map[string]any{"name": "Public category", "slug": "shown", "project": "open"})
	admin.want(201, "POST", admin.base+"components/secret/app/links/", map[string]any{"project_slug": "open"})
	admin.want(201, "POST", admin.base+"projects/secret/announcements/", map[string]any{"message": secretText + " announcement"})
	admin.want(200, "PATCH", admin.base+"projects/secret/", map[string]any{"access_control": 100})
	waitFor(t, func() bool { // the records of the edits reach the change log
		return admin.want(200, "GET", admin.base+"projects/secret/changes/?action=3", nil)["count"] == 1.0
	})

	admin.want(201, "POST", admin.base+"users/", map[string]any{"username": "olga", "full_name": "Olga Outsider", "email": "olga@x.example"})
	olgaToken := admin.want(200, "POST", admin.base+"users/olga/token/", map[string]any{})["token"].(string)
	callers := map[string]client{"anonymous": {t: t, base: admin.base, token: anonymous}, "outsider": {t: t, base: admin.base, token: olgaToken}}

	labelQuery := "units/?q=" + url.QueryEscape(`label:"`+secretText+` label"`)
	if n := admin.want(200, "GET", admin.base+labelQuery, nil)["count"]; n != 2.0 {
		t.Errorf("label search as the admin finds %v units, want the source string and its German translation", n)
	}
	// The admin's contributions reach the change log with the edits'
	// records, the public project's too.
	contributions := "users/admin/contributions/"
	waitFor(t, func() bool {
		return admin.want(200, "GET", admin.base+contributions, nil)["count"].(float64) > privateRows(t, admin, contributions)
	})
	// What the private project holds, counted by the admin.
	share := map[string]float64{
		"units/":                 admin.want(200, "GET", admin.base+"projects/secret/statistics/", nil)["total"].(float64),
		"translations/":          admin.want(200, "GET", admin.base+"components/secret/app/translations/", nil)["count"].(float64),
		"components/":            1,
		"projects/":              1,
		"suggestions/":           1,
		"changes/":               admin.want(200, "GET", admin.base+"projects/secret/changes/", nil)["count"].(float64),
		"units/?q=" + secretText: 1,
		labelQuery:               admin.want(200, "GET", admin.base+labelQuery, nil)["count"].(float64),
		"units/?q=source:Hello": admin.want(200, "GET", admin.base+"translations/secret/app/de/units/?q=source:Hello", nil)["count"].(float64) +
			admin.want(200, "GET", admin.base+"translations/secret/app/en/units/?q=source:Hello", nil)["count"].(float64),
		"changes/?action=3":                 1,
		"changes/?user=admin":               admin.want(200, "GET", admin.base+"projects/secret/changes/?user=admin", nil)["count"].(float64),
		"languages/de/statistics/":          admin.want(200, "GET", admin.base+"translations/secret/app/de/", nil)["total"].(float64),
		"projects/open/languages/":          0,
		"projects/open/credits/":            0,
		"projects/open/components/":         1, // the private component shared with the public project
		"projects/open/statistics/":         admin.want(200, "GET", admin.base+"projects/secret/statistics/", nil)["total"].(float64),
		"categories/":                       1,
		"components/open/app/translations/": 0,
		contributions:                       privateRows(t, admin, contributions),
	}
	for name, c := range callers {
		for path, hidden := range share {
			all := admin.want(200, "GET", admin.base+path, nil)
			code, body := c.do("GET", admin.base+path, nil)
			if name == "anonymous" && strings.Contains(path, "credits/") {
				if code != 401 { // the reference shows credits to signed-in users only
					t.Errorf("anonymous GET %s: %d, want 401", path, code)
				}
				continue
			}
			if code != 200 {
				t.Errorf("%s GET %s: %d %s", name, path, code, body)
				continue
			}
			if strings.Contains(string(body), secretText) || strings.Contains(string(body), "/secret/") {
				t.Errorf("%s GET %s shows the private project: %.400s", name, path, body)
			}
			var got map[string]any
			_ = json.Unmarshal(body, &got)
			if n, ok := countOf(all); ok {
				if m, _ := countOf(got); m != n-hidden {
					t.Errorf("%s GET %s counts %v, want %v (admin %v less the private %v)", name, path, m, n-hidden, n, hidden)
				}
			}
		}
		// The lists the services filter for the caller: every page is
		// full up to the total, which no hidden row inflates.
		for _, path := range []string{"translations/", "suggestions/", contributions, "users/"} {
			exactPages(t, c, name, path)
		}
		// Accounts are listed in full to superusers only (the notification
		// service's rule): a user finds its own, the anonymous caller none.
		if n, want := c.want(200, "GET", admin.base+"users/", nil)["count"], map[string]float64{"anonymous": 0, "outsider": 1}[name]; n != want {
			t.Errorf("%s GET users/: count %v, want %v", name, n, want)
		}
		// Teams name their project: the private project's are not listed.
		for _, path := range []string{"groups/?page_size=100", "roles/?page_size=100", "users/olga/"} {
			if code, body := c.do("GET", admin.base+path, nil); code >= 500 || strings.Contains(string(body), "/secret/") {
				t.Errorf("%s GET %s shows the private project's teams: %d %.300s", name, path, code, body)
			}
		}
		for _, path := range []string{"projects/secret/", "components/secret/app/", "translations/secret/app/de/",
			"translations/secret/app/de/units/", "projects/secret/changes/", "projects/secret/statistics/",
			"projects/secret/credits/", "projects/secret/labels/", "projects/secret/categories/", "components/secret/app/links/", "projects/secret/announcements/", "projects/secret/machinery_settings/",
			"translations/secret/app/de/file/", "components/secret/app/file/",
			"translations/secret/app/de/file/?format=po", "translations/secret/app/de/file/?format=csv",
			"translations/secret/app/de/file/?format=json", "translations/secret/app/de/file/?format=mo",
			"components/secret/app/file/?format=csv",
			"translations/secret/app/de/announcements/",
			strings.TrimPrefix(category["url"].(string), admin.base), strings.TrimPrefix(category["statistics_url"].(string), admin.base), fmt.Sprintf("projects/secret/labels/%v/", label["id"]), strings.TrimPrefix(unit, admin.base), strings.TrimPrefix(unit, admin.base) + "comments/"} {
			if code, _ := c.do("GET", admin.base+path, nil); code != 404 {
				t.Errorf("%s GET %s: %d, want 404", name, path, code)
			}
		}
		if name == "outsider" {
			outsiderEditsAre404(t, c, unit)
		}
	}
	if got := admin.want(200, "GET", unit, nil)["target"].([]any)[0]; got != secretText {
		t.Errorf("the private string became %q", got)
	}
	removedContributionGone(t, admin, callers["outsider"], contributions)
}

// removedContributionGone removes the public German translation the admin
// changed: once its record reaches the change log, it is gone from the
// admin's contributions, in the total and every page, for the admin and
// an outsider alike.
func removedContributionGone(t *testing.T, admin, outsider client, contributions string) {
	t.Helper()
	before := admin.want(200, "GET", admin.base+contributions, nil)["count"].(float64)
	shown := outsider.want(200, "GET", admin.base+contributions, nil)["count"].(float64)
	admin.want(204, "DELETE", admin.base+"translations/open/app/de/", nil)
	waitFor(t, func() bool {
		return admin.want(200, "GET", admin.base+contributions, nil)["count"].(float64) == before-1
	})
	if n := outsider.want(200, "GET", admin.base+contributions, nil)["count"].(float64); n != shown-1 {
		t.Errorf("outsider: %v contributions after the removal, want %v", n, shown-1)
	}
	exactPages(t, admin, "admin", contributions)
	exactPages(t, outsider, "outsider", contributions)
}

// privateRows counts the rows of a list (of one page) that name the
// private project, as the admin sees them.
func privateRows(t *testing.T, admin client, path string) float64 {
	t.Helper()
	var n float64
	for _, row := range admin.want(200, "GET", admin.base+path+"?page_size=1000", nil)["results"].([]any) {
		if strings.Contains(row.(map[string]any)["url"].(string), "/secret/") {
			n++
		}
	}
	return n
}

// exactPages walks a list one row a page: every page up to the count
// holds exactly one row, the count stays the same, and the page after the
// last is not found (a count inflated by rows left out of pages shows as
// a short page).
func exactPages(t *testing.T, c client, name, path string) {
	t.Helper()
	count := c.want(200, "GET", c.base+path, nil)["count"].(float64)
	for page := 1; page <= int(count); page++ {
		got := c.want(200, "GET", fmt.Sprintf("%s%s?page_size=1&page=%d", c.base, path, page), nil)
		if rows := len(got["results"].([]any)); rows != 1 {
			t.Errorf("%s GET %s page %d of %v: %d rows, want 1", name, path, page, count, rows)
		}
		if got["count"] != count {
			t.Errorf("%s GET %s page %d: count %v, was %v", name, path, page, got["count"], count)
		}
	}
	if code, _ := c.do("GET", fmt.Sprintf("%s%s?page_size=1&page=%d", c.base, path, int(count)+1), nil); count > 0 && code != 404 {
		t.Errorf("%s GET %s page %d after the last: %d, want 404", name, path, int(count)+1, code)
	}
}

// outsiderEditsAre404 edits a private unit as a signed-in outsider, with
// valid and invalid bodies: each is 404, as for a unit that does not
// exist, never the 400 or 403 that would tell it exists.
func outsiderEditsAre404(t *testing.T, c client, unit string) {
	for _, method := range []string{"PATCH", "PUT"} {
		for name, body := range map[string]any{
			"valid":      map[string]any{"target": []string{"leak"}, "state": 20},
			"approve":    map[string]any{"target": []string{"leak"}, "state": 30},
			"no state":   map[string]any{"target": []string{"leak"}},
			"wrong type": map[string]any{"target": 7, "state": "x"},
			"labels":     map[string]any{"labels": []int{1}},
		} {
			if code, out := c.do(method, unit, body); code != 404 {
				t.Errorf("outsider %s of a private unit, %s body: %d %s, want 404", method, name, code, out)
			}
		}
	}
}

// countOf reads the size of a paginated list or a statistics total.
func countOf(v map[string]any) (float64, bool) {
	if n, ok := v["count"].(float64); ok {
		return n, true
	}
	n, ok := v["total"].(float64)
	return n, ok
}

// TestAccessChangeAtOnce makes a project private and public again between
// two anonymous requests: every service hides it from the very next
// request and shows it again as soon, with nothing kept by time (the
// services once kept access levels for two seconds, and a project made
// private stayed searchable meanwhile).
func TestAccessChangeAtOnce(t *testing.T) {
	admin := newStack(t, nil)
	admin.want(201, "POST", admin.base+"projects/", map[string]any{"name": "Demo", "slug": "demo", "web": "https://x.example/"})
	admin.want(201, "POST", admin.base+"projects/demo/components/", map[string]any{"name": "App", "slug": "app",
		"repo": "file://" + fixtureRepo(t), "filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"})
	waitFor(t, func() bool {
		code, _ := admin.do("GET", admin.base+"translations/demo/app/de/", nil)
		return code == 200
	})
	unit := admin.want(200, "GET", admin.base+"translations/demo/app/de/units/", nil)["results"].([]any)[0].(map[string]any)["url"].(string)
	anon := client{t: t, base: admin.base, token: anonymous}
	counts := map[string]string{ // lists answered by the translation and change log services
		"units/?q=source:Hello": "count", "changes/": "count", "translations/": "count",
	}
	visible := func(wantSeen bool) {
		t.Helper()
		for path, field := range counts {
			if n := anon.want(200, "GET", admin.base+path, nil)[field].(float64); (n > 0) != wantSeen {
				t.Errorf("%s: count %v, want the project seen = %v", path, n, wantSeen)
			}
		}
		want := map[bool]int{true: 200, false: 404}[wantSeen]
		for _, url := range []string{unit, admin.base + "translations/demo/app/de/units/", admin.base + "projects/demo/statistics/"} {
			if code, _ := anon.do("GET", url, nil); code != want {
				t.Errorf("GET %s: %d, want %d", url, code, want)
			}
		}
	}
	visible(true)
	for range 3 {
		admin.want(200, "PATCH", admin.base+"projects/demo/", map[string]any{"access_control": 100})
		visible(false)
		admin.want(200, "PATCH", admin.base+"projects/demo/", map[string]any{"access_control": 0})
		visible(true)
	}
}

// TestRenamedPrivateProjectInvisible renames a project and makes it
// private: the rows the services wrote under its former slug are not
// shown to anonymous callers either (they once were: the services hid
// the slugs the catalog lists as private, and the former slug was listed
// as nothing).
func TestRenamedPrivateProjectInvisible(t *testing.T) {
	admin := newStack(t, nil)
	admin.want(201, "POST", admin.base+"projects/", map[string]any{"name": "Demo", "slug": "demo", "web": "https://x.example/"})
	admin.want(201, "POST", admin.base+"projects/demo/components/", map[string]any{"name": "App", "slug": "app",
		"repo": "file://" + fixtureRepo(t), "filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"})
	waitFor(t, func() bool {
		code, _ := admin.do("GET", admin.base+"translations/demo/app/de/", nil)
		return code == 200
	})
	admin.want(200, "PATCH", admin.base+"projects/demo/", map[string]any{"slug": "renamed"})
	admin.want(200, "PATCH", admin.base+"projects/renamed/", map[string]any{"access_control": 100})
	anon := client{t: t, base: admin.base, token: anonymous}
	for _, path := range []string{"units/?q=source:Hello", "changes/", "translations/", "languages/de/statistics/"} {
		got := anon.want(200, "GET", admin.base+path, nil)
		for _, field := range []string{"count", "total"} {
			if n, ok := got[field].(float64); ok && n != 0 {
				t.Errorf("anonymous GET %s: %s %v, want 0", path, field, n)
			}
		}
	}
}

// TestRenamedProjectFollowed renames a public project and its component:
// its translations, units and change records are listed under the new
// slugs, to anonymous callers too, as soon as the rename reaches the
// services; the renames are recorded as Weblate records them.
func TestRenamedProjectFollowed(t *testing.T) {
	admin := newStack(t, nil)
	admin.want(201, "POST", admin.base+"projects/", map[string]any{"name": "Demo", "slug": "demo", "web": "https://x.example/"})
	admin.want(201, "POST", admin.base+"projects/demo/components/", map[string]any{"name": "App", "slug": "app",
		"repo": "file://" + fixtureRepo(t), "filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"})
	waitFor(t, func() bool {
		code, _ := admin.do("GET", admin.base+"translations/demo/app/de/", nil)
		return code == 200
	})
	admin.want(200, "PATCH", admin.base+"projects/demo/", map[string]any{"slug": "renamed"})
	admin.want(200, "PATCH", admin.base+"components/renamed/app/", map[string]any{"slug": "web"})
	anon := client{t: t, base: admin.base, token: anonymous}
	waitFor(t, func() bool {
		code, body := anon.do("GET", admin.base+"units/?q=source:Hello", nil)
		return code == 200 && strings.Contains(string(body), "/translations/renamed/web/de/")
	})
	if got := anon.want(200, "GET", admin.base+"translations/renamed/web/de/units/", nil)["count"]; got != 2.0 {
		t.Errorf("units of the renamed translation: %v, want 2", got)
	}
	waitFor(t, func() bool {
		return anon.want(200, "GET", admin.base+"projects/renamed/changes/?action=41", nil)["count"] == 1.0 &&
			anon.want(200, "GET", admin.base+"components/renamed/web/changes/?action=42", nil)["count"] == 1.0
	})
	if n := anon.want(200, "GET", admin.base+"components/renamed/web/changes/?action=51", nil)["count"]; n != 1.0 {
		t.Errorf("the component's creation record under its new slugs: %v, want 1", n)
	}
	rename := anon.want(200, "GET", admin.base+"projects/renamed/changes/?action=41", nil)["results"].([]any)[0].(map[string]any)
	if rename["old"] != "demo" || rename["target"] != "renamed" {
		t.Errorf("rename record: old %v, target %v", rename["old"], rename["target"])
	}
}
