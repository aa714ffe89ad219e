package suite

import (
	"testing"
)

// TestComponentLinks shares a component with another project as the
// reference's links API does: it is then listed and counted there, and
// the refusals answer as the reference's.
func TestComponentLinks(t *testing.T) {
	c := newStack(t, nil)
	for _, p := range []string{"hello", "other"} {
		c.want(201, "POST", c.base+"projects/", map[string]any{"name": p, "slug": p, "web": "https://x.example/"})
	}
	c.want(201, "POST", c.base+"projects/hello/components/", map[string]any{"name": "App", "slug": "app",
		"repo": "file://" + fixtureRepo(t), "filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"})
	waitFor(t, func() bool { code, _ := c.do("GET", c.base+"translations/hello/app/de/", nil); return code == 200 })
	links := c.base + "components/hello/app/links/"

	added := c.want(201, "POST", links, map[string]any{"project_slug": "other"})
	if data, _ := added["data"].(map[string]any); data["slug"] != "app" {
		t.Errorf("link answer: %v", added)
	}
	c.want(201, "POST", links, map[string]any{"project_slug": "other"}) // twice is one link
	list := c.want(200, "GET", links, nil)
	if list["count"] != 1.0 || list["results"].([]any)[0].(map[string]any)["slug"] != "other" {
		t.Errorf("links: %v", list)
	}
	shared := c.want(200, "GET", c.base+"projects/other/components/", nil)
	if shared["count"] != 1.0 || shared["results"].([]any)[0].(map[string]any)["url"] != c.base+"components/hello/app/" {
		t.Errorf("the other project's components: %v", shared)
	}
	own := c.want(200, "GET", c.base+"projects/hello/statistics/", nil)
	if st := c.want(200, "GET", c.base+"projects/other/statistics/", nil); st["total"] != own["total"] || st["total"] == 0.0 {
		t.Errorf("statistics of the other project: %v, want %v", st["total"], own["total"])
	}
	for name, body := range map[string]any{
		"no project":      map[string]any{},
		"its own project": map[string]any{"project_slug": "hello"},
		"unknown project": map[string]any{"project_slug": "nope"},
	} {
		if code, out := c.do("POST", links, body); code != 400 {
			t.Errorf("%s: %d %s", name, code, out)
		}
	}
	c.want(204, "DELETE", links+"other/", nil)
	if code, _ := c.do("DELETE", links+"other/", nil); code != 404 {
		t.Errorf("unlink twice: %d", code)
	}
	if n := c.want(200, "GET", c.base+"projects/other/components/", nil)["count"]; n != 0.0 {
		t.Errorf("after unlink the other project lists %v components", n)
	}
}
