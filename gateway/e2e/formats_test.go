package e2e

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/bench/origin"
)

// jsonFixture is an i18next v4 component: an English template with nested
// keys, a plural, escapes and non-ASCII text, a German translation with
// another indentation, and a partial Russian one.
var jsonFixture = map[string][]byte{
	"locales/en.json": []byte(`{
    "app": {
        "title": "Hello \"World\"",
        "welcome": "Welcome, {{name}}!\nEnjoy."
    },
    "apple_one": "{{count}} apple",
    "apple_other": "{{count}} apples",
    "emoji": "Caf\u00e9 ☕"
}
`),
	"locales/de.json": []byte(`{
  "app": {
    "title": "Hallo \"Welt\"",
    "welcome": "Willkommen, {{name}}!\nViel Spaß."
  },
  "apple_one": "{{count}} Apfel",
  "apple_other": "{{count}} Äpfel",
  "emoji": ""
}
`),
	"locales/ru.json": []byte(`{"app": {"title": "Привет"}, "apple_one": "{{count}} яблоко", "apple_few": "{{count}} яблока", "apple_many": "{{count}} яблок"}
`),
}

// TestJSONComponent imports a monolingual i18next component through the
// REST API and checks statistics, units, a no-op commit, an edit's diff,
// a new language, an upload and a new key.
func TestJSONComponent(t *testing.T) {
	repo, err := origin.Create(t.TempDir(), jsonFixture)
	if err != nil {
		t.Fatal(err)
	}
	bin := buildTMS(t)
	httpAddr := freeAddr(t)
	startProc(t, bin, []string{"TMS_DATA_DIR=" + t.TempDir(), "TMS_HTTP_ADDR=" + httpAddr,
		"TMS_ADMIN_TOKEN=" + adminToken, "TMS_ALLOW_LOCAL_REPOS=true"})
	base := "http://" + httpAddr + "/api/"
	waitHTTP(t, base)
	call(t, "POST", base+"projects/", map[string]any{"name": "Demo", "slug": "demo", "web": "https://demo.example/"}, 201)
	call(t, "POST", base+"projects/demo/components/", map[string]any{"name": "App", "slug": "app", "repo": repo,
		"filemask": "locales/*.json", "template": "locales/en.json", "new_base": "locales/en.json",
		"file_format": "i18nextv4", "manage_units": true}, 201)
	eventually(t, 60*time.Second, func() bool {
		tr, status := fetch(t, "GET", base+"translations/demo/app/ru/", nil)
		return status == 200 && tr["total"] == float64(4)
	})

	// Statistics: 4 strings of 11 words (the plural's two forms count).
	for code, want := range map[string][3]float64{"en": {4, 11, 4}, "de": {4, 11, 3}, "ru": {4, 11, 2}} {
		tr := call(t, "GET", base+"translations/demo/app/"+code+"/", nil, 200)
		if got := [3]float64{tr["total"].(float64), tr["total_words"].(float64), tr["translated"].(float64)}; got != want {
			t.Errorf("%s: total, words, translated = %v, want %v", code, got, want)
		}
	}
	de := unitsByKey(t, base, "de")
	for key, want := range map[string][2]string{
		"app.title":   {`Hello "World"`, `Hallo "Welt"`},
		"app.welcome": {"Welcome, {{name}}!\nEnjoy.", "Willkommen, {{name}}!\nViel Spaß."},
		"apple":       {"{{count}} apple|{{count}} apples", "{{count}} Apfel|{{count}} Äpfel"},
		"emoji":       {"Café ☕", ""},
	} {
		u := de[key]
		if got := [2]string{join(u["source"]), join(u["target"])}; got != want {
			t.Errorf("de %q: source, target = %q, want %q", key, got, want)
		}
	}
	if ru := unitsByKey(t, base, "ru")["apple"]; join(ru["target"]) != "{{count}} яблоко|{{count}} яблока|{{count}} яблок" {
		t.Errorf("ru plural: %v", ru["target"])
	}

	// A commit without edits changes nothing.
	expectOperation(t, base, "app", "commit")
	expectOperation(t, base, "app", "push")
	for name, want := range jsonFixture {
		if got, _, _ := origin.Read(repo, name); got != string(want) {
			t.Errorf("%s changed without an edit:\n%s", name, got)
		}
	}

	// An edit changes exactly its value.
	id := int(de["app.title"]["id"].(float64))
	call(t, "PATCH", base+"units/"+strconv.Itoa(id)+"/", map[string]any{"target": []string{"Hallo, \"Welt\" ✓"}, "state": 20}, 200)
	expectOperation(t, base, "app", "push")
	want := strings.Replace(string(jsonFixture["locales/de.json"]), `"title": "Hallo \"Welt\"",`, `"title": "Hallo, \"Welt\" ✓",`, 1)
	if got, _, _ := origin.Read(repo, "locales/de.json"); got != want {
		t.Errorf("after the edit, de.json is\n%s\nwant\n%s", got, want)
	}

	// A new language starts from the template, every value empty.
	call(t, "POST", base+"components/demo/app/translations/", map[string]any{"language_code": "fr"}, 201)
	expectOperation(t, base, "app", "push")
	wantFr := "{\n    \"app\": {\n        \"title\": \"\",\n        \"welcome\": \"\"\n    },\n" +
		"    \"apple_one\": \"\",\n    \"apple_other\": \"\",\n    \"emoji\": \"\"\n}\n"
	if got, _, _ := origin.Read(repo, "locales/fr.json"); got != wantFr {
		t.Errorf("fr.json is\n%s\nwant\n%s", got, wantFr)
	}
	if tr := call(t, "GET", base+"translations/demo/app/fr/", nil, 200); tr["total"] != float64(4) || tr["translated"] != float64(0) {
		t.Errorf("fr: %v strings, %v translated", tr["total"], tr["translated"])
	}

	// An uploaded JSON file is applied by key.
	if out := uploadFile(t, base+"translations/demo/app/ru/file/", "ru.json",
		`{"app": {"welcome": "Добро пожаловать, {{name}}!"}, "unknown": "x"}`); out["accepted"] != float64(1) || out["not_found"] != float64(1) {
		t.Errorf("upload: %v", out)
	}
	if got := join(unitsByKey(t, base, "ru")["app.welcome"]["target"]); got != "Добро пожаловать, {{name}}!" {
		t.Errorf("uploaded target = %q", got)
	}

	// A key added to the source goes into the template.
	u := call(t, "POST", base+"translations/demo/app/en/units/", map[string]any{"key": "app.bye", "value": []string{"Bye"}}, 200)
	if u["context"] != "app.bye" || join(u["source"]) != "Bye" {
		t.Errorf("added unit: %v", u)
	}
	expectOperation(t, base, "app", "push")
	if got, _, _ := origin.Read(repo, "locales/en.json"); !strings.Contains(got, "        \"welcome\": \"Welcome, {{name}}!\\nEnjoy.\",\n        \"bye\": \"Bye\"\n    },") {
		t.Errorf("en.json after adding a key:\n%s", got)
	}
}

func unitsByKey(t *testing.T, base, code string) map[string]map[string]any {
	t.Helper()
	out := map[string]map[string]any{}
	for _, r := range call(t, "GET", base+"translations/demo/app/"+code+"/units/", nil, 200)["results"].([]any) {
		u := r.(map[string]any)
		out[u["context"].(string)] = u
	}
	return out
}

func join(v any) string {
	var parts []string
	for _, s := range v.([]any) {
		parts = append(parts, s.(string))
	}
	return strings.Join(parts, "|")
}

func uploadFile(t *testing.T, url, name, content string) map[string]any {
	t.Helper()
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	_ = w.WriteField("method", "translate")
	part, err := w.CreateFormFile("file", name)
	if err != nil {
		t.Fatal(err)
	}
	if _, err = part.Write([]byte(content)); err != nil {
		t.Fatal(err)
	}
	if err = w.Close(); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", url, &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	out, status, err := send(req)
	if err != nil || status != 200 {
		t.Fatalf("upload: %d %v %v", status, out, err)
	}
	return out
}
