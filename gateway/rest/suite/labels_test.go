package suite

import (
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"testing"
)

// TestLabels walks a project's labels as the reference's API has them:
// create, list, read, change and delete, set on a string (shown on every
// translation of it, found with label:), and the refusals.
func TestLabels(t *testing.T) {
	c := newStack(t, nil)
	c.want(201, "POST", c.base+"projects/", map[string]any{"name": "Hello", "slug": "hello", "web": "https://x.example/"})
	c.want(201, "POST", c.base+"projects/hello/components/", map[string]any{"name": "App", "slug": "app",
		"repo": "file://" + fixtureRepo(t), "filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"})
	waitFor(t, func() bool { code, _ := c.do("GET", c.base+"translations/hello/app/de/", nil); return code == 200 })
	labels := c.base + "projects/hello/labels/"

	ui := c.want(201, "POST", labels, map[string]any{"name": "UI", "color": "navy", "description": "Buttons"})
	if keys(ui) == nil || fmt.Sprint(keys(ui)) != "[color description id name]" || ui["color"] != "navy" {
		t.Errorf("created label: %v", ui)
	}
	docs := c.want(201, "POST", labels, map[string]any{"name": "Docs"})
	if docs["color"] != "gray" || docs["description"] != "" {
		t.Errorf("defaults: %v", docs)
	}
	for _, bad := range []any{
		map[string]any{"name": "UI"},                       // taken in this project
		map[string]any{"name": ""},                         // blank
		map[string]any{"color": "red"},                     // no name
		map[string]any{"name": "X", "color": "chartreuse"}, // not in the palette
		map[string]any{"name": []string{"X"}},              // wrong type
		json.RawMessage(`{"name": "X"`),                    // malformed
	} {
		if code, body := c.do("POST", labels, bad); code != 400 || !strings.Contains(string(body), `"errors"`) {
			t.Errorf("POST %v: %d %s", bad, code, body)
		}
	}
	list := c.want(200, "GET", labels, nil)
	if list["count"] != 2.0 {
		t.Errorf("list: %v", list)
	}
	self := fmt.Sprintf("%s%v/", labels, ui["id"])
	if got := c.want(200, "PATCH", self, map[string]any{"color": "red"}); got["color"] != "red" || got["name"] != "UI" {
		t.Errorf("PATCH: %v", got)
	}
	if code, _ := c.do("PUT", self, map[string]any{"color": "red"}); code != 400 {
		t.Errorf("PUT without name: %d", code)
	}
	if code, _ := c.do("PATCH", self, map[string]any{"name": "Docs"}); code != 400 {
		t.Errorf("rename onto another label: %d", code)
	}

	checkUnitLabels(t, c, ui, docs)
	c.want(204, "DELETE", fmt.Sprintf("%s%v/", labels, docs["id"]), nil)
	if code, _ := c.do("GET", fmt.Sprintf("%s%v/", labels, docs["id"]), nil); code != 404 {
		t.Errorf("deleted label answers %d", code)
	}
	if n := c.want(200, "GET", c.base+"units/?q="+url.QueryEscape("label:Docs"), nil)["count"]; n != 0.0 {
		t.Errorf("a deleted label still finds %v units", n)
	}
	// A project made again under a deleted one's slug starts without labels.
	c.want(204, "DELETE", c.base+"projects/hello/", nil)
	c.want(201, "POST", c.base+"projects/", map[string]any{"name": "Hello", "slug": "hello", "web": "https://x.example/"})
	if n := c.want(200, "GET", labels, nil)["count"]; n != 0.0 {
		t.Errorf("the new project inherits %v labels", n)
	}
}

// checkUnitLabels sets both labels on a German string and checks every
// translation of the string shows them and label: finds them.
func checkUnitLabels(t *testing.T, c client, ui, docs map[string]any) {
	t.Helper()
	de := unitBySource(t, c, c.base+"translations/hello/app/de/units/", "Hello")
	edit := c.want(200, "PATCH", de, map[string]any{"labels": []any{ui["id"], docs["id"]}})
	if fmt.Sprint(edit["labels"]) != fmt.Sprint([]any{ui["id"], docs["id"]}) && fmt.Sprint(edit["labels"]) != fmt.Sprint([]any{docs["id"], ui["id"]}) {
		t.Errorf("edit answer labels: %v", edit["labels"])
	}
	en := unitBySource(t, c, c.base+"translations/hello/app/en/units/", "Hello")
	for _, u := range []string{de, en} {
		got := c.want(200, "GET", u, nil)["labels"].([]any)
		if len(got) != 2 || got[0].(map[string]any)["name"] != "Docs" || got[1].(map[string]any)["color"] != "red" {
			t.Errorf("%s labels: %v", u, got)
		}
	}
	if n := c.want(200, "GET", c.base+"units/?q="+url.QueryEscape("label:ui"), nil)["count"]; n != 2.0 {
		t.Errorf("label:ui finds %v units, want the source string and its German translation", n)
	}
	if code, body := c.do("PATCH", de, map[string]any{"labels": []int{99999}}); code != 400 || !strings.Contains(string(body), "not found in this project") {
		t.Errorf("unknown label: %d %s", code, body)
	}
	if code, _ := c.do("PATCH", de, map[string]any{"labels": "UI"}); code != 400 {
		t.Errorf("labels as a string: %d", code)
	}
	c.want(200, "PATCH", de, map[string]any{"labels": []any{ui["id"]}, "target": []string{"Hallo"}, "state": 20})
	if got := c.want(200, "GET", de, nil); len(got["labels"].([]any)) != 1 || fmt.Sprint(got["target"]) != "[Hallo]" {
		t.Errorf("labels with an edit: %v %v", got["labels"], got["target"])
	}
	// An edit alone answers the unit with its labels.
	if got := c.want(200, "PATCH", de, map[string]any{"target": []string{"Hallo!"}, "state": 20}); len(got["labels"].([]any)) != 1 {
		t.Errorf("the labels an edit answers: %v", got["labels"])
	}
}
