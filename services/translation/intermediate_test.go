package translation_test

import (
	"strings"
	"testing"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
)

// intermediateFiles is a JSON component whose developers write their
// strings into locales/dev.json (the intermediate language file, which the
// file mask also matches); locales/en.json, the template, holds the final
// English strings: it lacks "new" and has "legacy", which the developers
// dropped. German translates the final strings.
var intermediateFiles = map[string]string{
	"locales/dev.json": `{
    "app": {
        "title": "Hello world",
        "welcome": "Welcome text"
    },
    "cart": "Items in cart",
    "new": "A brand new string"
}
`,
	"locales/en.json": `{
    "app": {
        "title": "Hello, World!",
        "welcome": "Welcome!"
    },
    "cart": "Your cart",
    "legacy": "Only in the template"
}
`,
	"locales/de.json": `{
    "app": {
        "title": "Hallo, Welt!"
    },
    "cart": "Ihr Warenkorb",
    "legacy": "Nur in der Vorlage"
}
`,
}

func intermediateComponent(origin string) *catalogv1.Component {
	return &catalogv1.Component{Id: 1, ProjectSlug: "hello", Slug: "greeter", Name: "Greeter", Repo: origin,
		Filemask: "locales/*.json", Template: "locales/en.json", Intermediate: "locales/dev.json", EditTemplate: true,
		SourceLanguageCode: "en", FileFormat: "json", CommitMessage: weblateCommitMessage}
}

// unitView is what the test checks of a unit.
type unitView struct {
	source, target string
	state          typev1.UnitState
}

func unitsByContext(t *testing.T, e *env, code string) map[string]*translationv1.Unit {
	t.Helper()
	out := map[string]*translationv1.Unit{}
	for _, u := range e.units(t, e.translation(t, 1, code).GetId()) {
		out[u.GetContext()] = u
	}
	return out
}

func expectUnits(t *testing.T, e *env, code string, want map[string]unitView) {
	t.Helper()
	got := unitsByContext(t, e, code)
	if len(got) != len(want) {
		t.Errorf("%s: %d units, want %d", code, len(got), len(want))
	}
	for key, w := range want {
		u := got[key]
		if u == nil {
			t.Errorf("%s %q: no unit", code, key)
			continue
		}
		v := unitView{strings.Join(u.GetSource(), "|"), strings.Join(u.GetTarget(), "|"), u.GetState()}
		if v != w {
			t.Errorf("%s %q = %+v, want %+v", code, key, v, w)
		}
	}
}

func TestIntermediateLanguageFile(t *testing.T) {
	e := newEnv(t, true)
	origin := fixture.Origin(t, intermediateFiles)
	e.catalog.Set(intermediateComponent(origin), project)
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	const (
		empty      = typev1.UnitState_UNIT_STATE_EMPTY
		translated = typev1.UnitState_UNIT_STATE_TRANSLATED
		readonly   = typev1.UnitState_UNIT_STATE_READONLY
	)
	list, err := e.client.ListTranslations(t.Context(), &translationv1.ListTranslationsRequest{ComponentId: 1})
	if err != nil || list.GetTotal() != 2 {
		t.Fatalf("translations: %d, %v (the intermediate file is none)", list.GetTotal(), err)
	}
	// English: the intermediate file's keys, its strings as sources, the
	// template's as targets; "legacy" is gone with the developers' key.
	expectUnits(t, e, "en", map[string]unitView{
		"app.title":   {"Hello world", "Hello, World!", translated},
		"app.welcome": {"Welcome text", "Welcome!", translated},
		"cart":        {"Items in cart", "Your cart", translated},
		"new":         {"A brand new string", "", empty},
	})
	// German translates the final strings; "new", untranslated in English,
	// is read-only until it is.
	expectUnits(t, e, "de", map[string]unitView{
		"app.title":   {"Hello, World!", "Hallo, Welt!", translated},
		"app.welcome": {"Welcome!", "", empty},
		"cart":        {"Your cart", "Ihr Warenkorb", translated},
		"new":         {"A brand new string", "", readonly},
	})
	if st := e.translation(t, 1, "de").GetStats(); st.GetTotal() != 4 || st.GetTranslated() != 3 || st.GetReadonly() != 1 {
		t.Errorf("de stats = %+v", st)
	}

	// A new language gets the same strings, every one empty.
	if _, err := e.client.AddTranslation(t.Context(), &translationv1.AddTranslationRequest{ComponentId: 1, LanguageCode: "fr", Actor: "admin"}); err != nil {
		t.Fatal(err)
	}
	expectUnits(t, e, "fr", map[string]unitView{
		"app.title":   {"Hello, World!", "", empty},
		"app.welcome": {"Welcome!", "", empty},
		"cart":        {"Your cart", "", empty},
		"new":         {"A brand new string", "", readonly},
	})

	// English edits go into the template, never into the intermediate file.
	en := unitsByContext(t, e, "en")
	for key, text := range map[string]string{"app.welcome": "Welcome, friend!", "new": "Brand new!"} {
		_, err := e.client.UpdateUnit(t.Context(), &translationv1.UpdateUnitRequest{Id: en[key].GetId(),
			Target: []string{text}, State: translated, Actor: "ana"})
		if err != nil {
			t.Fatalf("edit en %q: %v", key, err)
		}
	}
	if res := e.op(t, "push"); !res.GetResult() {
		t.Fatalf("push: %+v", res)
	}
	wantEN := strings.Replace(intermediateFiles["locales/en.json"], `"Welcome!"`, `"Welcome, friend!"`, 1)
	wantEN = strings.Replace(wantEN, "    \"legacy\": \"Only in the template\"\n", "    \"legacy\": \"Only in the template\",\n    \"new\": \"Brand new!\"\n", 1)
	if got := originFile(t, origin, "locales/en.json"); got != wantEN {
		t.Errorf("en.json:\n%s\nwant\n%s", got, wantEN)
	}
	if got := originFile(t, origin, "locales/dev.json"); got != intermediateFiles["locales/dev.json"] {
		t.Errorf("the intermediate file changed:\n%s", got)
	}

	// Read again, German translates the new final strings.
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	expectUnits(t, e, "de", map[string]unitView{
		"app.title":   {"Hello, World!", "Hallo, Welt!", translated},
		"app.welcome": {"Welcome, friend!", "", empty},
		"cart":        {"Your cart", "Ihr Warenkorb", translated},
		"new":         {"Brand new!", "", empty},
	})
	if u := unitsByContext(t, e, "fr")["new"]; u.GetState() != empty || u.GetSource()[0] != "Brand new!" {
		t.Errorf("fr new = %v", u)
	}
}
