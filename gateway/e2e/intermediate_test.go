package e2e

import (
	"strconv"
	"strings"
	"testing"

	"github.com/tmsproject/tms/gateway/bench/origin"
)

// intermediateFixture is a JSON component whose developers write their
// strings into locales/dev.json, the intermediate language file (which the
// file mask matches too); locales/en.json, the template, holds the final
// English strings and lacks the developers' newest key.
var intermediateFixture = map[string][]byte{
	"locales/dev.json": []byte(`{
    "app": {
        "title": "Hello world",
        "welcome": "Welcome text"
    },
    "cart": "Items in cart",
    "new": "A brand new string"
}
`),
	"locales/en.json": []byte(`{
    "app": {
        "title": "Hello, World!",
        "welcome": "Welcome!"
    },
    "cart": "Your cart"
}
`),
	"locales/de.json": []byte(`{
    "app": {
        "title": "Hallo, Welt!"
    },
    "cart": "Ihr Warenkorb"
}
`),
}

// TestIntermediateComponent imports a monolingual JSON component with an
// intermediate language file through the REST API: English translates the
// developers' strings into the template's, the other languages translate
// the template's, and an English edit is written to the template only.
func TestIntermediateComponent(t *testing.T) {
	base, repo := startFormatComponent(t, intermediateFixture, map[string]any{"filemask": "locales/*.json",
		"template": "locales/en.json", "intermediate": "locales/dev.json", "file_format": "json"}, "de", 4)

	// Two languages (the intermediate file is none); the read-only string
	// counts as translated, as the reference counts it.
	if list := call(t, "GET", base+"components/demo/app/translations/", nil, 200); list["count"] != float64(2) {
		t.Errorf("translations: %v", list["count"])
	}
	expectStats(t, base, map[string][3]float64{"en": {4, 11, 3}, "de": {4, 9, 3}})
	for code, want := range map[string]map[string][3]any{
		"en": {
			"app.title":   {"Hello world", "Hello, World!", float64(20)},
			"app.welcome": {"Welcome text", "Welcome!", float64(20)},
			"cart":        {"Items in cart", "Your cart", float64(20)},
			"new":         {"A brand new string", "", float64(0)},
		},
		"de": {
			"app.title":   {"Hello, World!", "Hallo, Welt!", float64(20)},
			"app.welcome": {"Welcome!", "", float64(0)},
			"cart":        {"Your cart", "Ihr Warenkorb", float64(20)},
			"new":         {"A brand new string", "", float64(100)},
		},
	} {
		units := unitsByKey(t, base, code)
		for key, w := range want {
			u := units[key]
			if u == nil {
				t.Errorf("%s %q: no unit", code, key)
				continue
			}
			if got := [3]any{join(u["source"]), join(u["target"]), u["state"]}; got != w {
				t.Errorf("%s %q: source, target, state = %v, want %v", code, key, got, w)
			}
		}
	}

	expectNoChange(t, base, repo, intermediateFixture)

	// Translating the German string of a read-only source is refused.
	de := unitsByKey(t, base, "de")
	if _, status := fetch(t, "PATCH", base+"units/"+strconv.Itoa(int(de["new"]["id"].(float64)))+"/", map[string]any{"target": []string{"Neu"}, "state": 20}); status != 403 {
		t.Errorf("edit of a read-only string: %d", status)
	}

	// An English edit changes the template's value only.
	editUnit(t, base, unitsByKey(t, base, "en")["app.welcome"], "Welcome, friend!")
	expectFile(t, base, repo, "locales/en.json", strings.Replace(string(intermediateFixture["locales/en.json"]),
		`"Welcome!"`, `"Welcome, friend!"`, 1))
	if got, _, _ := origin.Read(repo, "locales/dev.json"); got != string(intermediateFixture["locales/dev.json"]) {
		t.Errorf("the intermediate file changed:\n%s", got)
	}
}
