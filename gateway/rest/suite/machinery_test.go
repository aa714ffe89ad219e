package suite

import (
	"encoding/json"
	"testing"
)

// TestMachinerySettings stores a project's machinery configuration as the
// reference's API does: validated per service, secrets never shown again.
func TestMachinerySettings(t *testing.T) {
	c := newStack(t, nil)
	c.want(201, "POST", c.base+"projects/", map[string]any{"name": "Hello", "slug": "hello", "web": "https://x.example/"})
	settings := c.base + "projects/hello/machinery_settings/"
	if got := c.want(200, "GET", settings, nil); len(got) != 0 {
		t.Errorf("fresh project: %v", got)
	}
	ok := c.want(201, "POST", settings, map[string]any{"service": "deepl",
		"configuration": map[string]any{"key": "sekrit-deepl-key", "url": "https://api.deepl.com/v2/", "formality": "less"}})
	if ok["message"] != "Service installed: DeepL" {
		t.Errorf("install answer: %v", ok)
	}
	c.want(201, "POST", settings, map[string]any{"service": "libretranslate", "configuration": map[string]any{"url": "https://lt.example/"}})
	code, body := c.do("GET", settings, nil)
	var got map[string]map[string]any
	if code != 200 || json.Unmarshal(body, &got) != nil {
		t.Fatalf("GET: %d %s", code, body)
	}
	if deepl := got["deepl"]; deepl["formality"] != "less" || deepl["url"] != "https://api.deepl.com/v2/" || got["libretranslate"]["url"] != "https://lt.example/" {
		t.Errorf("settings: %v", got)
	}
	if _, shown := got["deepl"]["key"]; shown {
		t.Errorf("the secret came back: %s", body)
	}
	for name, bad := range map[string]any{
		"unknown service":   map[string]any{"service": "babelfish", "configuration": map[string]any{}},
		"missing key":       map[string]any{"service": "deepl", "configuration": map[string]any{"url": "https://api.deepl.com/v2/"}},
		"local url":         map[string]any{"service": "libretranslate", "configuration": map[string]any{"url": "file:///etc/passwd"}},
		"not an object":     map[string]any{"service": "deepl", "configuration": "key=x"},
		"no service":        map[string]any{"configuration": map[string]any{}},
		"malformed":         json.RawMessage(`{"service": "deepl",`),
		"number as setting": map[string]any{"service": "google-translate", "configuration": map[string]any{"key": 12}},
	} {
		if code, out := c.do("POST", settings, bad); code != 400 {
			t.Errorf("%s: %d %s", name, code, out)
		}
	}
	if got := c.want(200, "GET", settings, nil); len(got) != 2 {
		t.Errorf("refused writes changed the settings: %v", got)
	}
	// Reading them needs project.edit too, as in the reference.
	c.want(201, "POST", c.base+"users/", map[string]any{"username": "tina", "full_name": "Tina", "email": "tina@x.example"})
	tina := client{t: t, base: c.base, token: c.want(200, "POST", c.base+"users/tina/token/", map[string]any{})["token"].(string)}
	if code, _ := tina.do("GET", settings, nil); code != 403 {
		t.Errorf("a translator reads the settings: %d", code)
	}
	if code, _ := (client{t: t, base: c.base, token: anonymous}).do("GET", settings, nil); code != 401 && code != 403 {
		t.Errorf("anonymous reads the settings: %d", code)
	}
}
