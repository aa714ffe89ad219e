package e2e

import (
	"maps"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/bench/origin"
	"github.com/tmsproject/tms/gateway/stacktest"
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
	base, repo := startFormatComponent(t, jsonFixture, map[string]any{"filemask": "locales/*.json",
		"template": "locales/en.json", "new_base": "locales/en.json", "file_format": "i18nextv4", "manage_units": true}, "ru", 4)

	// Statistics: 4 strings of 11 words (the plural's two forms count).
	expectStats(t, base, map[string][3]float64{"en": {4, 11, 4}, "de": {4, 11, 3}, "ru": {4, 11, 2}})
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
	expectNoChange(t, base, repo, jsonFixture)

	// An edit changes exactly its value.
	editUnit(t, base, de["app.title"], "Hallo, \"Welt\" ✓")
	expectFile(t, base, repo, "locales/de.json", strings.Replace(string(jsonFixture["locales/de.json"]),
		`"title": "Hallo \"Welt\"",`, `"title": "Hallo, \"Welt\" ✓",`, 1))

	// A new language starts from the template, every value empty.
	call(t, "POST", base+"components/demo/app/translations/", map[string]any{"language_code": "fr"}, 201)
	expectFile(t, base, repo, "locales/fr.json", "{\n    \"app\": {\n        \"title\": \"\",\n        \"welcome\": \"\"\n    },\n"+
		"    \"apple_one\": \"\",\n    \"apple_other\": \"\",\n    \"emoji\": \"\"\n}\n")
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

// startFormatComponent serves a TMS, creates the component demo/app of
// comp (repository, name and slug added) on a repository of fixture, and
// waits until the translation of language ready has total strings. It
// returns the API's base URL and the repository.
func startFormatComponent(t *testing.T, fixture map[string][]byte, comp map[string]any, ready string, total int) (base, repo string) {
	t.Helper()
	repo, err := origin.Create(t.TempDir(), fixture)
	if err != nil {
		t.Fatal(err)
	}
	base = stacktest.Start(t, stacktest.Options{Mode: stacktest.Binary}).API
	call(t, "POST", base+"projects/", map[string]any{"name": "Demo", "slug": "demo", "web": "https://demo.example/"}, 201)
	comp = maps.Clone(comp)
	comp["name"], comp["slug"], comp["repo"] = "App", "app", repo
	call(t, "POST", base+"projects/demo/components/", comp, 201)
	stacktest.Eventually(t, 60*time.Second, func() bool {
		tr, status := fetch(t, "GET", base+"translations/demo/app/"+ready+"/", nil)
		return status == 200 && tr["total"] == float64(total)
	})
	return base, repo
}

// expectStats checks the strings, words and translated strings of each
// language of demo/app.
func expectStats(t *testing.T, base string, want map[string][3]float64) {
	t.Helper()
	for code, w := range want {
		tr := call(t, "GET", base+"translations/demo/app/"+code+"/", nil, 200)
		if got := [3]float64{tr["total"].(float64), tr["total_words"].(float64), tr["translated"].(float64)}; got != w {
			t.Errorf("%s: total, words, translated = %v, want %v", code, got, w)
		}
	}
}

// expectNoChange commits and pushes demo/app without an edit and checks
// that every file of fixture is still as it was.
func expectNoChange(t *testing.T, base, repo string, fixture map[string][]byte) {
	t.Helper()
	expectOperation(t, base, "app", "commit")
	expectOperation(t, base, "app", "push")
	for name, want := range fixture {
		if got, _, _ := origin.Read(repo, name); got != string(want) {
			t.Errorf("%s changed without an edit:\n%s", name, got)
		}
	}
}

// expectFile checks a file of the repository after a push of demo/app.
func expectFile(t *testing.T, base, repo, name, want string) {
	t.Helper()
	expectOperation(t, base, "app", "push")
	if got, _, _ := origin.Read(repo, name); got != want {
		t.Errorf("%s is\n%s\nwant\n%s", name, got, want)
	}
}

// editUnit saves a translated target of a unit listed by unitsByKey.
func editUnit(t *testing.T, base string, unit map[string]any, target ...string) {
	t.Helper()
	id := int(unit["id"].(float64))
	call(t, "PATCH", base+"units/"+strconv.Itoa(id)+"/", map[string]any{"target": target, "state": 20}, 200)
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

// expectUnitTexts checks the source, target and note of the German units
// (unitsByKey) by key.
func expectUnitTexts(t *testing.T, units map[string]map[string]any, want map[string][3]string) {
	t.Helper()
	for key, w := range want {
		u := units[key]
		if u == nil {
			t.Errorf("de %q: no unit", key)
			continue
		}
		if got := [3]string{join(u["source"]), join(u["target"]), u["note"].(string)}; got != w {
			t.Errorf("de %q: source, target, note = %q, want %q", key, got, w)
		}
	}
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
	return uploadFileWith(t, url, name, content, "translate")
}

// uploadFileWith is uploadFile with the given method.
func uploadFileWith(t *testing.T, url, name, content, method string) map[string]any {
	t.Helper()
	out, status := fetchUpload(t, url, name, content, method)
	if status != 200 {
		t.Fatalf("upload: %d %v", status, out)
	}
	return out
}

// fetchUpload posts a file upload and returns the answer and its status.
func fetchUpload(t *testing.T, url, name, content, method string) (map[string]any, int) {
	t.Helper()
	return postUploadNamed(t, url, name, map[string]string{"method": method}, content)
}
