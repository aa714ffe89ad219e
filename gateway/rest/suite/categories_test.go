package suite

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestCategories walks categories as the reference's API has them:
// create (nested at most three deep), list, read, rename, statistics, a
// component placed in one and addressed as category%252Fslug, and delete
// with what it holds.
func TestCategories(t *testing.T) {
	c := newStack(t, nil)
	c.want(201, "POST", c.base+"projects/", map[string]any{"name": "Hello", "slug": "hello", "web": "https://x.example/"})
	for _, slug := range []string{"app", "guide"} {
		c.want(201, "POST", c.base+"projects/hello/components/", map[string]any{"name": slug, "slug": slug,
			"repo": "file://" + fixtureRepo(t), "filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"})
		waitFor(t, func() bool { code, _ := c.do("GET", c.base+"translations/hello/"+slug+"/de/", nil); return code == 200 })
	}
	project := c.base + "projects/hello/"
	docs := c.want(201, "POST", c.base+"categories/", map[string]any{"name": "Docs", "slug": "docs", "project": project})
	wantKeys := append([]string{"announcements_url", "category", "check_flags", "id", "name", "project", "secondary_language", "slug", "statistics_url", "url"},
		strings.Fields("license agreement new_lang language_code_style commit_message add_message delete_message merge_message addon_message pull_message")...)
	for _, n := range strings.Fields("license agreement new_lang language_code_style secondary_language commit_message add_message delete_message merge_message addon_message pull_message check_flags") {
		if n != "check_flags" {
			wantKeys = append(wantKeys, "inherit_"+n)
		}
		wantKeys = append(wantKeys, "effective_"+n)
	}
	slices.Sort(wantKeys)
	if got := keys(docs); !slices.Equal(got, wantKeys) ||
		docs["project"] != project || docs["category"] != nil {
		t.Errorf("created category: %v", docs)
	}
	api := c.want(201, "POST", c.base+"categories/", map[string]any{"name": "API", "slug": "api", "project": project, "category": docs["url"]})
	v1 := c.want(201, "POST", c.base+"categories/", map[string]any{"name": "v1", "slug": "v1", "project": "hello", "category": api["url"]})
	for name, bad := range map[string]map[string]any{
		"fourth level":     {"name": "deep", "slug": "deep", "project": project, "category": v1["url"]},
		"taken slug":       {"name": "Other", "slug": "docs", "project": project},
		"no project":       {"name": "X", "slug": "x"},
		"bad slug":         {"name": "X", "slug": "a b", "project": project},
		"unknown parent":   {"name": "X", "slug": "x", "project": project, "category": c.base + "categories/999/"},
		"unknown project":  {"name": "X", "slug": "x", "project": c.base + "projects/nope/"},
		"parent elsewhere": {"name": "X", "slug": "x", "project": project, "category": "garbage"},
	} {
		if code, body := c.do("POST", c.base+"categories/", bad); code != 400 && code != 404 {
			t.Errorf("%s: %d %s", name, code, body)
		}
	}
	if code, body := c.do("PATCH", docs["url"].(string), map[string]any{"category": v1["url"]}); code != 400 {
		t.Errorf("a category inside itself: %d %s", code, body)
	}
	if got := c.want(200, "PATCH", docs["url"].(string), map[string]any{"name": "Documentation"}); got["name"] != "Documentation" || got["slug"] != "docs" {
		t.Errorf("rename: %v", got)
	}
	if n := c.want(200, "GET", project+"categories/", nil)["count"]; n != 3.0 {
		t.Errorf("project categories: %v", n)
	}

	guide := c.want(200, "PATCH", c.base+"components/hello/guide/", map[string]any{"category": api["url"]})
	want := c.base + "components/hello/docs%252Fapi%252Fguide/"
	if guide["category"] != api["url"] || guide["url"] != want {
		t.Fatalf("component in a category: category %v url %v, want %v", guide["category"], guide["url"], want)
	}
	checkCategoryAddressing(t, c, want)
	st := c.want(200, "GET", api["statistics_url"].(string), nil)
	all := c.want(200, "GET", project+"statistics/", nil) // two components of one repository
	if st["total"] != all["total"].(float64)/2 || st["name"] != "API" || st["total"] == 0.0 ||
		st["translate_url"] != c.host()+"/projects/hello/docs/api/" {
		t.Errorf("category statistics %v, project total %v", st, all["total"])
	}

	// The category's page, which its statistics link to, answers.
	for _, page := range []string{st["url"].(string), c.host() + "/projects/hello/docs/"} {
		if code, typ, body := c.page(page); code != 200 || !strings.HasPrefix(typ, "text/html") || !strings.Contains(body, "guide") && page != c.host()+"/projects/hello/docs/" {
			t.Errorf("GET %s: %d %s", page, code, typ)
		}
	}
	c.want(204, "DELETE", docs["url"].(string), nil)
	for _, gone := range []string{docs["url"].(string), v1["url"].(string), c.base + "components/hello/guide/", c.base + "translations/hello/guide/de/"} {
		if code, _ := c.do("GET", gone, nil); code != 404 {
			t.Errorf("after delete GET %s: %d", gone, code)
		}
	}
	c.want(200, "GET", c.base+"components/hello/app/", nil)
	if n := c.want(200, "GET", c.base+"categories/", nil)["count"]; n != 0.0 {
		t.Errorf("categories left: %v", n)
	}
}

// checkCategoryAddressing: every URL of a component in a category names
// it with its path, resolves, and a wrong path does not.
func checkCategoryAddressing(t *testing.T, c client, url string) {
	t.Helper()
	trs := c.want(200, "GET", url+"translations/", nil)["results"].([]any)
	if len(trs) == 0 {
		t.Fatal("no translations")
	}
	tr := trs[0].(map[string]any)
	if !strings.Contains(tr["url"].(string), "/translations/hello/docs%252Fapi%252Fguide/") {
		t.Errorf("translation url %v", tr["url"])
	}
	c.want(200, "GET", tr["url"].(string), nil)
	units := c.want(200, "GET", tr["url"].(string)+"units/", nil)["results"].([]any)
	if u := units[0].(map[string]any); u["translation"] != tr["url"] {
		t.Errorf("unit's translation %v, want %v", u["translation"], tr["url"])
	}
	c.want(200, "GET", url+"repository/", nil)
	c.want(200, "GET", c.base+"components/hello/guide/", nil) // the slug alone, too
	for _, wrong := range []string{"docs%252Fguide", "v2%252Fguide", "docs%252Fapi%252Fapp"} {
		if code, _ := c.do("GET", fmt.Sprintf("%scomponents/hello/%s/", c.base, wrong), nil); code != 404 {
			t.Errorf("GET components/hello/%s/: %d, want 404", wrong, code)
		}
		if code, _ := c.do("PATCH", fmt.Sprintf("%scomponents/hello/%s/", c.base, wrong), map[string]any{"name": "Moved"}); code != 404 {
			t.Errorf("PATCH components/hello/%s/: %d, want 404", wrong, code)
		}
	}
	if name := c.want(200, "GET", url, nil)["name"]; name == "Moved" {
		t.Error("a PATCH through a wrong category path changed the component")
	}
}
