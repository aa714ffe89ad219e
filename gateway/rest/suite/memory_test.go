package suite

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
)

// TestMemory walks the translation memory as the reference's API has it:
// an imported component's translations are remembered, listed and read,
// looked up exactly and fuzzily, deleted; a TMX file goes in as a task
// and comes out again; a private project's memory stays with its members.
func TestMemory(t *testing.T) {
	c := newStack(t, nil)
	c.want(201, "POST", c.base+"projects/", map[string]any{"name": "Hello", "slug": "hello", "web": "https://x.example/"})
	c.want(201, "POST", c.base+"projects/hello/components/", map[string]any{"name": "App", "slug": "app",
		"repo": "file://" + fixtureRepo(t), "filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"})
	waitFor(t, func() bool { return c.want(200, "GET", c.base+"memory/", nil)["count"] == 1.0 })

	list := c.want(200, "GET", c.base+"memory/?source_language=en&target_language=de", nil)
	entry := list["results"].([]any)[0].(map[string]any)
	if fmt.Sprint(keys(entry)) != "[from_file id origin project shared source source_language target target_language]" ||
		entry["source"] != "Hello" || entry["target"] != "Hallo" || entry["origin"] != "hello/app" || entry["from_file"] != false {
		t.Errorf("entry: %v", entry)
	}
	self := fmt.Sprintf("%smemory/%v/", c.base, entry["id"])
	if got := c.want(200, "GET", self, nil); got["target"] != "Hallo" {
		t.Errorf("GET %s: %v", self, got)
	}
	lookup := c.base + "memory/lookup/?source_language=en&target_language=de"
	code, body := c.do("POST", lookup, map[string]any{"strings": []string{"Hello", "Hello!", "Goodbye"}})
	var matches []map[string]any
	if code != 200 || json.Unmarshal(body, &matches) != nil || len(matches) != 3 {
		t.Fatalf("lookup: %d %s", code, body)
	}
	if m := matches[0]["match"].(map[string]any); m["exact"] != true || m["quality"] != 100.0 || m["target"] != "Hallo" {
		t.Errorf("exact: %v", matches[0])
	}
	if m, _ := matches[1]["match"].(map[string]any); m == nil || m["exact"] != false || m["quality"] != 90.0 {
		t.Errorf("fuzzy (2·5/11 = 90): %v", matches[1])
	}
	if matches[2]["match"] != nil {
		t.Errorf("unrelated: %v", matches[2])
	}
	for name, bad := range map[string]struct {
		url  string
		body any
	}{
		"no languages":     {c.base + "memory/lookup/", map[string]any{"strings": []string{"x"}}},
		"unknown language": {c.base + "memory/lookup/?source_language=en&target_language=xx_NOPE", map[string]any{"strings": []string{"x"}}},
		"no strings":       {lookup, map[string]any{}},
		"empty list":       {lookup, map[string]any{"strings": []string{}}},
		"blank string":     {lookup, map[string]any{"strings": []string{" "}}},
		"too many":         {lookup, map[string]any{"strings": make([]string, 101)}},
		"too long":         {lookup, map[string]any{"strings": []string{strings.Repeat("x", 2001)}}},
		"not a list":       {lookup, map[string]any{"strings": 7}},
		"malformed":        {lookup, json.RawMessage(`{"strings": [`)},
	} {
		if code, out := c.do("POST", bad.url, bad.body); code != 400 || !strings.Contains(string(out), `"errors"`) {
			t.Errorf("%s: %d %s", name, code, out)
		}
	}
	checkMemoryAccess(t, c, self, lookup)
	checkTMX(t, c)
	c.want(204, "DELETE", self, nil)
	if code, _ := c.do("GET", self, nil); code != 404 {
		t.Errorf("a deleted entry answers %d", code)
	}
	// An edit's translation reaches the memory soon after the edit
	// answers (a background batch, as the reference's task).
	units := c.want(200, "GET", c.base+"translations/hello/app/de/units/?q=source:Hello", nil)["results"].([]any)
	hello := units[0].(map[string]any)
	c.want(200, "PATCH", hello["url"].(string), map[string]any{"target": []string{"Servus"}, "state": 20})
	waitFor(t, func() bool {
		got := c.want(200, "GET", c.base+"memory/?project=hello", nil)
		return got["count"] == 1.0 && got["results"].([]any)[0].(map[string]any)["target"] == "Servus"
	})
}

// checkMemoryAccess: anonymous callers are refused, an outsider sees
// nothing of a private project's memory, and a translator may not delete.
func checkMemoryAccess(t *testing.T, c client, self, lookup string) {
	t.Helper()
	if code, _ := (client{t: t, base: c.base, token: anonymous}).do("GET", c.base+"memory/", nil); code != 401 {
		t.Errorf("anonymous list: %d", code)
	}
	c.want(201, "POST", c.base+"users/", map[string]any{"username": "tina", "full_name": "Tina", "email": "tina@x.example"})
	tina := client{t: t, base: c.base, token: c.want(200, "POST", c.base+"users/tina/token/", map[string]any{})["token"].(string)}
	if code, _ := tina.do("DELETE", self, nil); code != 403 {
		t.Errorf("a translator deletes an entry: %d", code)
	}
	if code, _ := tina.postFile(c.base+"projects/hello/memory/", "x.tmx", []byte(tmxFile)); code != 403 {
		t.Errorf("a translator imports TMX: %d", code)
	}
	if code, _ := tina.do("DELETE", c.base+"projects/hello/memory/?origin=hello/app", nil); code != 403 {
		t.Errorf("a translator deletes an origin: %d", code)
	}
	c.want(200, "PATCH", c.base+"projects/hello/", map[string]any{"access_control": 100})
	if n := tina.want(200, "GET", c.base+"memory/", nil)["count"]; n != 0.0 {
		t.Errorf("an outsider lists %v entries of a private project", n)
	}
	for _, u := range []string{self} {
		if code, _ := tina.do("GET", u, nil); code != 404 {
			t.Errorf("an outsider reads %s: %d", u, code)
		}
		if code, _ := tina.do("DELETE", u, nil); code != 404 {
			t.Errorf("an outsider deletes %s: %d", u, code)
		}
	}
	code, body := tina.do("POST", lookup, map[string]any{"strings": []string{"Hello"}})
	if code != 200 || !strings.Contains(string(body), `"match":null`) {
		t.Errorf("an outsider's lookup: %d %s", code, body)
	}
	if code, _ := tina.do("GET", c.base+"projects/hello/memory/", nil); code != 404 {
		t.Errorf("an outsider exports: %d", code)
	}
	if code, _ := tina.do("DELETE", c.base+"projects/hello/memory/?origin=hello/app", nil); code != 404 {
		t.Errorf("an outsider deletes an origin: %d", code)
	}
	c.want(200, "PATCH", c.base+"projects/hello/", map[string]any{"access_control": 0})
}

// tmxFile is a small TMX 1.4b file of two units.
const tmxFile = `<?xml version="1.0" encoding="UTF-8"?>
<tmx version="1.4"><header srclang="en" datatype="plaintext" segtype="sentence" adminlang="en" o-tmf="x" creationtool="x" creationtoolversion="1"/>
<body>
<tu><tuv xml:lang="en"><seg>Open the file</seg></tuv><tuv xml:lang="de"><seg>Datei öffnen</seg></tuv></tu>
<tu><tuv xml:lang="en"><seg>Save &amp; quit</seg></tuv><tuv xml:lang="de"><seg>Speichern &amp; beenden</seg></tuv></tu>
</body></tmx>`

// checkTMX imports a TMX file as a task and exports the project's memory.
func checkTMX(t *testing.T, c client) {
	t.Helper()
	memory := c.base + "projects/hello/memory/"
	code, body := c.postFile(memory, "Glossary.TMX", []byte(tmxFile))
	var accepted map[string]any
	if code != 202 || json.Unmarshal(body, &accepted) != nil {
		t.Fatalf("TMX import: %d %s", code, body)
	}
	waitFor(t, func() bool { return c.want(200, "GET", accepted["task_url"].(string), nil)["completed"] == true })
	task := c.want(200, "GET", accepted["task_url"].(string), nil)
	if !strings.Contains(fmt.Sprint(task["log"]), "2 entries read, 2 added") {
		t.Errorf("task: %v", task)
	}
	files := c.want(200, "GET", c.base+"memory/?origin=glossary.tmx", nil)
	if files["count"] != 2.0 || files["results"].([]any)[0].(map[string]any)["from_file"] != true {
		t.Errorf("imported entries: %v", files)
	}
	for name, bad := range map[string][]byte{"not xml": []byte("msgid \"x\""), "no header": []byte("<tmx><body/></tmx>"), "empty": nil} {
		if got, out := c.postFile(memory, "x.tmx", bad); got != 400 {
			t.Errorf("TMX %s: %d %s", name, got, out)
		}
	}
	req, _ := http.NewRequest("GET", memory, nil)
	code, out := c.send(req)
	if code != 200 || !strings.Contains(string(out), `<seg>Save &amp; quit</seg>`) || !strings.Contains(string(out), `<seg>Hallo</seg>`) {
		t.Errorf("TMX export: %d %s", code, out)
	}
	// A whole origin goes at once; the origin is required.
	if got, out := c.do("DELETE", memory, nil); got != 400 || !strings.Contains(string(out), `"origin"`) {
		t.Errorf("delete without an origin: %d %s", got, out)
	}
	if got := c.want(200, "DELETE", memory+"?origin=glossary.tmx", nil); got["deleted"] != 2.0 {
		t.Errorf("delete by origin: %v", got)
	}
	if n := c.want(200, "GET", c.base+"memory/?project=hello", nil)["count"]; n != 1.0 {
		t.Errorf("after deleting glossary.tmx %v entries, want hello/app's one", n)
	}
}

// postFile POSTs a multipart body with one file part, "file".
func (c client) postFile(target, name string, content []byte) (int, []byte) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	fw, _ := w.CreateFormFile("file", name)
	_, _ = fw.Write(content)
	_ = w.Close()
	req, _ := http.NewRequest("POST", target, &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return c.send(req)
}

// TestAutoTranslateAndMachinery walks automatic translation from the
// other components and the memory as an engine, and a string's machinery
// proposals, with their refusals: a caller without translation.auto, an
// outsider of a private project, bad forms.
func TestAutoTranslateAndMachinery(t *testing.T) {
	c := newStack(t, nil)
	c.want(201, "POST", c.base+"projects/", map[string]any{"name": "Hello", "slug": "hello", "web": "https://x.example/"})
	repo := fixtureRepo(t)
	for _, slug := range []string{"app", "lib"} {
		c.want(201, "POST", c.base+"projects/hello/components/", map[string]any{"name": slug, "slug": slug,
			"repo": "file://" + repo, "filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"})
		waitFor(t, func() bool { code, _ := c.do("GET", c.base+"translations/hello/"+slug+"/de/", nil); return code == 200 })
	}
	// The memory takes each import's "Hallo" in its batch after the import.
	waitFor(t, func() bool { return c.want(200, "GET", c.base+"memory/", nil)["count"] == 2.0 })
	auto := c.base + "translations/hello/lib/de/autotranslate/"
	got := c.want(200, "POST", auto, map[string]any{"mode": "translate", "filter_type": "todo", "auto_source": "others", "threshold": 100})
	if got["details"] != "Automatic translation completed, no strings were updated." {
		t.Errorf("others: %v", got)
	}
	got = c.want(200, "POST", auto, map[string]any{"mode": "fuzzy", "q": "state:<translated", "auto_source": "mt",
		"engines": []string{"weblate-translation-memory"}, "threshold": 80})
	if !strings.HasPrefix(fmt.Sprint(got["details"]), "Automatic translation completed") {
		t.Errorf("memory engine: %v", got)
	}
	for name, body := range map[string]any{
		"missing mode":   map[string]any{"q": "state:empty", "auto_source": "others", "threshold": 80},
		"threshold 0":    map[string]any{"mode": "translate", "q": "state:empty", "auto_source": "others", "threshold": 0},
		"threshold 101":  map[string]any{"mode": "translate", "q": "state:empty", "auto_source": "others", "threshold": 101},
		"wrong type":     map[string]any{"mode": "translate", "q": "state:empty", "auto_source": "others", "threshold": "many"},
		"unknown engine": map[string]any{"mode": "translate", "q": "state:empty", "auto_source": "mt", "engines": []string{"x"}, "threshold": 80},
		"malformed":      json.RawMessage(`{"mode": `),
	} {
		if code, out := c.do("POST", auto, body); code != 400 {
			t.Errorf("%s: %d %s", name, code, out)
		}
	}
	unit := unitBySource(t, c, c.base+"translations/hello/app/de/units/", "Hello")
	mt := c.want(200, "GET", unit+"machinery/", nil)
	res, _ := mt["results"].([]any)
	if len(res) != 1 || res[0].(map[string]any)["service"] != "weblate-translation-memory" || res[0].(map[string]any)["text"] != "Hallo" ||
		res[0].(map[string]any)["quality"] != 100.0 {
		t.Errorf("machinery: %v", mt)
	}
	c.want(201, "POST", c.base+"users/", map[string]any{"username": "tina", "full_name": "Tina", "email": "tina@x.example"})
	tina := client{t: t, base: c.base, token: c.want(200, "POST", c.base+"users/tina/token/", map[string]any{})["token"].(string)}
	body := map[string]any{"mode": "translate", "q": "state:empty", "auto_source": "others", "threshold": 100}
	if code, out := tina.do("POST", auto, body); code != 403 || !strings.Contains(string(out), "Can not auto translate") {
		t.Errorf("a translator autotranslates: %d %s", code, out)
	}
	if code, _ := tina.do("GET", unit+"machinery/", nil); code != 200 {
		t.Errorf("a translator's machinery: %d", code)
	}
	c.want(200, "PATCH", c.base+"projects/hello/", map[string]any{"access_control": 100})
	if code, _ := tina.do("POST", auto, body); code != 404 {
		t.Errorf("an outsider autotranslates a private project: %d", code)
	}
	if code, _ := tina.do("GET", unit+"machinery/", nil); code != 404 {
		t.Errorf("an outsider's machinery of a private string: %d", code)
	}
	if code, _ := tina.postFile(c.base+"projects/hello/memory/", "x.tmx", []byte(tmxFile)); code != 404 {
		t.Errorf("an outsider imports TMX into a private project: %d", code)
	}
}

// TestSharedMemory walks the shared memory: a lookup for a project that
// uses it finds what another project's translations put there while that
// project contributes, never a private project's entries for a caller
// who may not see it, and the two settings read and write as project
// fields.
func TestSharedMemory(t *testing.T) {
	c := newStack(t, nil)
	c.want(201, "POST", c.base+"projects/", map[string]any{"name": "Hello", "slug": "hello", "web": "https://x.example/"})
	c.want(201, "POST", c.base+"projects/hello/components/", map[string]any{"name": "App", "slug": "app",
		"repo": "file://" + fixtureRepo(t), "filemask": "po/*.po", "new_base": "po/app.pot", "file_format": "po"})
	other := c.want(201, "POST", c.base+"projects/", map[string]any{"name": "Other", "slug": "other", "web": "https://x.example/"})
	if other["use_shared_tm"] != true || other["contribute_shared_tm"] != true {
		t.Errorf("a new project's sharing: use %v, contribute %v", other["use_shared_tm"], other["contribute_shared_tm"])
	}
	waitFor(t, func() bool { return c.want(200, "GET", c.base+"memory/", nil)["count"] == 1.0 })
	c.want(201, "POST", c.base+"users/", map[string]any{"username": "tina", "full_name": "Tina", "email": "tina@x.example"})
	tina := client{t: t, base: c.base, token: c.want(200, "POST", c.base+"users/tina/token/", map[string]any{})["token"].(string)}
	found := func(who client) bool {
		t.Helper()
		code, body := who.do("POST", c.base+"memory/lookup/?source_language=en&target_language=de&project=other",
			map[string]any{"strings": []string{"Hello"}})
		if code != 200 {
			t.Fatalf("lookup: %d %s", code, body)
		}
		return !strings.Contains(string(body), `"match":null`)
	}
	shared := func() any {
		return c.want(200, "GET", c.base+"memory/", nil)["results"].([]any)[0].(map[string]any)["shared"]
	}
	steps := []struct {
		name          string
		patch         map[string]map[string]any
		admin, tina   bool
		entryIsShared bool
	}{
		{"both share", nil, true, true, true},
		{"hello stops contributing", map[string]map[string]any{"hello": {"contribute_shared_tm": false}}, false, false, false},
		{"other stops using", map[string]map[string]any{"hello": {"contribute_shared_tm": true}, "other": {"use_shared_tm": false}}, false, false, true},
		{"hello is private", map[string]map[string]any{"hello": {"access_control": 100}, "other": {"use_shared_tm": true}}, true, false, true},
	}
	for _, s := range steps {
		for project, body := range s.patch {
			got := c.want(200, "PATCH", c.base+"projects/"+project+"/", body)
			for k, v := range body {
				if strings.HasSuffix(k, "_tm") && got[k] != v {
					t.Errorf("%s: PATCH %s %s=%v answers %v", s.name, project, k, v, got[k])
				}
			}
		}
		if got := found(c); got != s.admin {
			t.Errorf("%s: the admin finds hello's entry: %v", s.name, got)
		}
		if got := found(tina); got != s.tina {
			t.Errorf("%s: tina finds hello's entry: %v", s.name, got)
		}
		if got := shared(); got != s.entryIsShared {
			t.Errorf("%s: the entry is shared: %v", s.name, got)
		}
	}
	if code, body := c.do("PATCH", c.base+"projects/other/", map[string]any{"use_shared_tm": "maybe"}); code != 400 ||
		!strings.Contains(string(body), "use_shared_tm") {
		t.Errorf("a string for use_shared_tm: %d %s", code, body)
	}
	if code, _ := tina.do("PATCH", c.base+"projects/other/", map[string]any{"use_shared_tm": false}); code != 403 {
		t.Errorf("a translator changes the sharing: %d", code)
	}
}
