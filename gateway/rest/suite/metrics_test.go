package suite

import (
	"slices"
	"testing"
)

// TestMetrics walks /api/metrics/ and a project's metrics: signed-in
// callers only, counts within what the caller may see (a private project's
// translations count for its members alone), and per component path and
// language the statistics its translations show.
func TestMetrics(t *testing.T) {
	c := newStack(t, nil)
	for _, slug := range []string{"open", "secret"} {
		c.want(201, "POST", c.base+"projects/", map[string]any{"name": slug, "slug": slug, "web": "https://x.example/"})
		c.want(201, "POST", c.base+"projects/"+slug+"/components/", map[string]any{"name": "App", "slug": "app",
			"repo": "file://" + fixtureRepo(t), "filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"})
		waitFor(t, func() bool { code, _ := c.do("GET", c.base+"translations/"+slug+"/app/de/", nil); return code == 200 })
	}
	c.want(200, "PATCH", c.base+"projects/secret/", map[string]any{"access_control": 100})
	cat := c.want(201, "POST", c.base+"categories/", map[string]any{"name": "Docs", "slug": "docs", "project": "open"})
	c.want(201, "POST", c.base+"projects/open/components/", map[string]any{"name": "Guide", "slug": "guide",
		"repo": "file://" + fixtureRepo(t), "filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po", "category": cat["url"]})
	waitFor(t, func() bool {
		code, _ := c.do("GET", c.base+"translations/open/docs%252Fguide/de/", nil)
		return code == 200
	})
	c.want(201, "POST", c.base+"users/", map[string]any{"username": "una", "full_name": "Una", "email": "una@x.example"})
	una := client{t: t, base: c.base, token: c.want(200, "POST", c.base+"users/una/token/", map[string]any{})["token"].(string)}

	if code, _ := (client{t: t, base: c.base, token: anonymous}).do("GET", c.base+"metrics/", nil); code != 401 {
		t.Errorf("anonymous metrics: %d, want 401", code)
	}
	for who, cl := range map[string]client{"admin": c, "una": una} {
		// Change records arrive while the test reads: the count lies
		// between those listed before and after.
		changesBefore := cl.want(200, "GET", c.base+"changes/", nil)["count"].(float64)
		m := cl.want(200, "GET", c.base+"metrics/", nil)
		changesAfter := cl.want(200, "GET", c.base+"changes/", nil)["count"].(float64)
		if n, _ := m["changes"].(float64); n < changesBefore || n > changesAfter || n == 0 {
			t.Errorf("%s: metrics changes = %v, listed %v then %v", who, m["changes"], changesBefore, changesAfter)
		}
		translations := cl.want(200, "GET", c.base+"translations/", nil)
		var units, translated float64
		for _, tr := range allPages(t, cl, c.base+"translations/") {
			units += tr["total"].(float64)
			translated += tr["translated"].(float64)
		}
		for key, want := range map[string]any{
			"projects":     cl.want(200, "GET", c.base+"projects/", nil)["count"],
			"components":   cl.want(200, "GET", c.base+"components/", nil)["count"],
			"translations": translations["count"],
			// every configured language, as Weblate counts them (those who
			// may not edit languages list only the translated ones)
			"languages": c.want(200, "GET", c.base+"languages/", nil)["count"],
			"units":     units, "units_translated": translated, "name": "TMS",
		} {
			if m[key] != want {
				t.Errorf("%s: metrics %s = %v, want %v", who, key, m[key], want)
			}
		}
		if wantProjects := map[string]float64{"admin": 2, "una": 1}[who]; m["projects"] != wantProjects {
			t.Errorf("%s: %v projects counted, want %v", who, m["projects"], wantProjects)
		}
	}

	// A project's metrics: each component by its path, each language by
	// its code, with the numbers its translations' statistics show.
	pm := una.want(200, "GET", c.base+"projects/open/metrics/", nil)
	if got := keys(pm); !slices.Equal(got, []string{"app", "docs/guide"}) {
		t.Fatalf("component paths %v", got)
	}
	de := pm["docs/guide"].(map[string]any)["de"].(map[string]any)
	st := una.want(200, "GET", c.base+"translations/open/docs%252Fguide/de/statistics/", nil)
	for _, k := range []string{"total", "total_words", "translated", "translated_words", "fuzzy", "approved", "suggestions", "comments", "translated_percent"} {
		if de[k] != st[k] {
			t.Errorf("metrics %s = %v, statistics %v", k, de[k], st[k])
		}
	}
	if de["name"] != "German" || de["failing_chars"] == nil {
		t.Errorf("German's metrics: %v", de)
	}
	if code, _ := una.do("GET", c.base+"projects/secret/metrics/", nil); code != 404 {
		t.Errorf("a private project's metrics for a stranger: %d, want 404", code)
	}
	if got := c.want(200, "GET", c.base+"projects/open/", nil)["metrics_url"]; got != c.base+"projects/open/metrics/" {
		t.Errorf("metrics_url %v", got)
	}
}

// allPages reads every page of a list.
func allPages(t *testing.T, c client, url string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for url != "" {
		page := c.want(200, "GET", url, nil)
		for _, r := range page["results"].([]any) {
			out = append(out, r.(map[string]any))
		}
		next, _ := page["next"].(string)
		url = next
	}
	return out
}
