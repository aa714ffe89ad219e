package e2e

import (
	"strings"
	"testing"

	"github.com/tmsproject/tms/gateway/bench/origin"
)

// expectUnits checks that a language of demo/app has exactly the units of
// want (by key, which is the context), each with its source, target,
// note and flags.
func expectUnits(t *testing.T, base, code string, want map[string][4]string) map[string]map[string]any {
	t.Helper()
	units := unitsByKey(t, base, code)
	if len(units) != len(want) {
		keys := make([]string, 0, len(units))
		for k := range units {
			keys = append(keys, k)
		}
		t.Errorf("%s: %d units %q, want %d", code, len(units), keys, len(want))
	}
	for key, w := range want {
		u := units[key]
		if u == nil {
			t.Errorf("%s %q: no unit", code, key)
			continue
		}
		got := [4]string{join(u["source"]), join(u["target"]), u["note"].(string), u["flags"].(string)}
		if got != w {
			t.Errorf("%s %q: source, target, note, flags =\n %q\nwant\n %q", code, key, got, w)
		}
	}
	return units
}

// expectNewLanguage adds a language to demo/app and checks its file and
// that none of its total strings is translated.
func expectNewLanguage(t *testing.T, base, repo, code, name, want string, total int) {
	t.Helper()
	call(t, "POST", base+"components/demo/app/translations/", map[string]any{"language_code": code}, 201)
	expectFile(t, base, repo, name, want)
	if tr := call(t, "GET", base+"translations/demo/app/"+code+"/", nil, 200); tr["total"] != float64(total) || tr["translated"] != float64(0) {
		t.Errorf("%s: %v strings, %v translated", code, tr["total"], tr["translated"])
	}
}

// expectUpload uploads a translation file of a language with
// method=translate and checks how many strings it applied and missed.
func expectUpload(t *testing.T, base, code, name, content string, accepted, notFound int) {
	t.Helper()
	out := uploadFile(t, base+"translations/demo/app/"+code+"/file/", name, content)
	if out["accepted"] != float64(accepted) || out["not_found"] != float64(notFound) {
		t.Errorf("upload to %s: %v, want %d accepted, %d not found", code, out, accepted, notFound)
	}
}

// jsonNestedFixture is a json-nested component: an English template with
// objects three deep, an array, escapes (quotes, newline, tab,
// backslashes, \u escapes) and keys that look like plurals but are not
// (json-nested has none); a German translation indented by two; a
// partial Russian one on one line.
var jsonNestedFixture = map[string][]byte{
	"i18n/en.json": []byte(`{
    "app": {
        "title": "Notes",
        "welcome": "Welcome, %s!\nEnjoy \"Notes\"."
    },
    "menu": {
        "file": {
            "open": "Open…",
            "save_as": "Save as\t(Ctrl+Shift+S)"
        },
        "sort": [
            "By name",
            "By date"
        ]
    },
    "path": "C:\\Users\\%s\\Notes",
    "apple_one": "%d apple",
    "apple_other": "%d apples",
    "html": "<b>Bold</b> \u0026 caf\u00e9"
}
`),
	"i18n/de.json": []byte(`{
  "app": {
    "title": "Notizen",
    "welcome": "Willkommen, %s!\nViel Spaß mit \"Notizen\"."
  },
  "menu": {
    "file": {
      "open": "Öffnen…",
      "save_as": "Speichern unter\t(Strg+Umschalt+S)"
    },
    "sort": [
      "Nach Name",
      "Nach Datum"
    ]
  },
  "path": "C:\\Benutzer\\%s\\Notizen",
  "apple_one": "%d Apfel",
  "apple_other": "%d Äpfel",
  "html": ""
}
`),
	"i18n/ru.json": []byte(`{"app": {"title": "Заметки"}, "menu": {"sort": ["По имени"]}, "apple_one": "%d яблоко"}
`),
}

// TestJSONNestedComponent imports a json-nested component through the
// REST API and checks statistics, units, a no-op commit, edits, a new
// language and an upload.
func TestJSONNestedComponent(t *testing.T) {
	base, repo := startFormatComponent(t, jsonNestedFixture, map[string]any{"filemask": "i18n/*.json",
		"template": "i18n/en.json", "new_base": "i18n/en.json", "file_format": "json-nested"}, "ru", 10)

	// Statistics: 10 strings of 21 words; every leaf string is a unit.
	expectStats(t, base, map[string][3]float64{"en": {10, 21, 10}, "de": {10, 21, 9}, "ru": {10, 21, 3}})
	de := expectUnits(t, base, "de", map[string][4]string{
		"app.title":         {"Notes", "Notizen", "", ""},
		"app.welcome":       {"Welcome, %s!\nEnjoy \"Notes\".", "Willkommen, %s!\nViel Spaß mit \"Notizen\".", "", ""},
		"menu.file.open":    {"Open…", "Öffnen…", "", ""},
		"menu.file.save_as": {"Save as\t(Ctrl+Shift+S)", "Speichern unter\t(Strg+Umschalt+S)", "", ""},
		"menu.sort[0]":      {"By name", "Nach Name", "", ""},
		"menu.sort[1]":      {"By date", "Nach Datum", "", ""},
		"path":              {`C:\Users\%s\Notes`, `C:\Benutzer\%s\Notizen`, "", ""},
		"apple_one":         {"%d apple", "%d Apfel", "", ""},
		"apple_other":       {"%d apples", "%d Äpfel", "", ""},
		"html":              {"<b>Bold</b> & café", "", "", ""},
	})
	ru := unitsByKey(t, base, "ru")
	for key, want := range map[string]string{"app.title": "Заметки", "menu.sort[0]": "По имени", "apple_one": "%d яблоко", "menu.sort[1]": ""} {
		if got := join(ru[key]["target"]); got != want {
			t.Errorf("ru %q: target %q, want %q", key, got, want)
		}
	}

	expectNoChange(t, base, repo, jsonNestedFixture)

	// An edit rewrites its string only, as json.dumps(ensure_ascii=False)
	// writes it; an array item is edited in place.
	editUnit(t, base, de["menu.file.save_as"], "Speichern unter…\t\"Strg+Umschalt+S\" \\ ✓")
	editUnit(t, base, de["menu.sort[1]"], "Nach Änderungsdatum")
	want := strings.Replace(string(jsonNestedFixture["i18n/de.json"]), `"save_as": "Speichern unter\t(Strg+Umschalt+S)"`,
		`"save_as": "Speichern unter…\t\"Strg+Umschalt+S\" \\ ✓"`, 1)
	want = strings.Replace(want, `"Nach Datum"`, `"Nach Änderungsdatum"`, 1)
	expectFile(t, base, repo, "i18n/de.json", want)

	// A new language is the template with every string empty, written as
	// translate-toolkit dumps it (indent 4).
	expectNewLanguage(t, base, repo, "fr", "i18n/fr.json", `{
    "app": {
        "title": "",
        "welcome": ""
    },
    "menu": {
        "file": {
            "open": "",
            "save_as": ""
        },
        "sort": [
            "",
            ""
        ]
    },
    "path": "",
    "apple_one": "",
    "apple_other": "",
    "html": ""
}
`, 10)

	// An uploaded file is applied by key.
	expectUpload(t, base, "ru", "ru.json", `{"app": {"welcome": "Добро пожаловать, %s!"}, "menu": {"sort": ["По имени", "По дате"]}, "nope": "x"}`, 2, 1)
	ru = unitsByKey(t, base, "ru")
	for key, want := range map[string]string{"app.welcome": "Добро пожаловать, %s!", "menu.sort[1]": "По дате"} {
		if got := join(ru[key]["target"]); got != want {
			t.Errorf("uploaded ru %q: target %q, want %q", key, got, want)
		}
	}
	expectOperation(t, base, "app", "push")
	if got, _, _ := origin.Read(repo, "i18n/ru.json"); !strings.Contains(got, `"Добро пожаловать, %s!"`) || !strings.Contains(got, `"По дате"`) {
		t.Errorf("ru.json after the upload:\n%s", got)
	}
}

// i18nextFixture is an i18next v3 component: an English template with a
// plural as key/key_plural at the top and in a nested object, nesting
// ($t) and formatting syntax and escapes; a German translation indented
// by two; a Russian one with the plural as key_0, key_1, key_2.
var i18nextFixture = map[string][]byte{
	"public/locales/en/translation.json": []byte(`{
    "app": {
        "title": "Notes",
        "welcome": "Welcome, {{name}}!\nEnjoy."
    },
    "note": "{{count}} note",
    "note_plural": "{{count}} notes",
    "trash": {
        "deleted": "Deleted {{count}} note",
        "deleted_plural": "Deleted {{count}} notes",
        "empty": "Empty the trash?"
    },
    "quote": "Say \"cheese\" \\o/",
    "nesting": "$t(app.title): {{name, uppercase}}"
}
`),
	"public/locales/de/translation.json": []byte(`{
  "app": {
    "title": "Notizen",
    "welcome": "Willkommen, {{name}}!\nViel Spaß."
  },
  "note": "{{count}} Notiz",
  "note_plural": "{{count}} Notizen",
  "trash": {
    "deleted": "{{count}} Notiz gelöscht",
    "deleted_plural": "{{count}} Notizen gelöscht",
    "empty": "Papierkorb leeren?"
  },
  "quote": "Sag \"Käse\" \\o/",
  "nesting": ""
}
`),
	"public/locales/ru/translation.json": []byte(`{
    "app": {"title": "Заметки"},
    "note_0": "{{count}} заметка",
    "note_1": "{{count}} заметки",
    "note_2": "{{count}} заметок"
}
`),
}

// TestI18nextComponent imports an i18next v3 component through the REST
// API and checks statistics, units (plurals of _plural and of _0.._2
// keys), a no-op commit, edits, a new language with another number of
// plural forms and an upload.
func TestI18nextComponent(t *testing.T) {
	const dir = "public/locales/"
	base, repo := startFormatComponent(t, i18nextFixture, map[string]any{"filemask": dir + "*/translation.json",
		"template": dir + "en/translation.json", "new_base": dir + "en/translation.json", "file_format": "i18next"}, "ru", 7)

	// Statistics: 7 strings of 23 words (both forms of a plural count).
	expectStats(t, base, map[string][3]float64{"en": {7, 23, 7}, "de": {7, 23, 6}, "ru": {7, 23, 2}})
	de := expectUnits(t, base, "de", map[string][4]string{
		"app.title":     {"Notes", "Notizen", "", ""},
		"app.welcome":   {"Welcome, {{name}}!\nEnjoy.", "Willkommen, {{name}}!\nViel Spaß.", "", ""},
		"note":          {"{{count}} note|{{count}} notes", "{{count}} Notiz|{{count}} Notizen", "", ""},
		"trash.deleted": {"Deleted {{count}} note|Deleted {{count}} notes", "{{count}} Notiz gelöscht|{{count}} Notizen gelöscht", "", ""},
		"trash.empty":   {"Empty the trash?", "Papierkorb leeren?", "", ""},
		"quote":         {`Say "cheese" \o/`, `Sag "Käse" \o/`, "", ""},
		"nesting":       {"$t(app.title): {{name, uppercase}}", "", "", ""},
	})
	ru := unitsByKey(t, base, "ru")
	for key, want := range map[string]string{"app.title": "Заметки", "note": "{{count}} заметка|{{count}} заметки|{{count}} заметок",
		"trash.deleted": "||"} {
		if got := join(ru[key]["target"]); got != want {
			t.Errorf("ru %q: target %q, want %q", key, got, want)
		}
	}

	expectNoChange(t, base, repo, i18nextFixture)

	// A plural edit rewrites the strings of its keys only.
	editUnit(t, base, de["trash.deleted"], "{{count}} Notiz entfernt", "{{count}} Notizen entfernt ✓")
	expectFile(t, base, repo, dir+"de/translation.json", strings.Replace(string(i18nextFixture[dir+"de/translation.json"]),
		`"deleted": "{{count}} Notiz gelöscht",
    "deleted_plural": "{{count}} Notizen gelöscht",`, `"deleted": "{{count}} Notiz entfernt",
    "deleted_plural": "{{count}} Notizen entfernt ✓",`, 1))
	editUnit(t, base, ru["note"], "{{count}} заметка", "{{count}} заметки", "{{count}} заметок!")
	expectFile(t, base, repo, dir+"ru/translation.json", strings.Replace(string(i18nextFixture[dir+"ru/translation.json"]),
		`"note_2": "{{count}} заметок"`, `"note_2": "{{count}} заметок!"`, 1))

	// A new language with three plural forms: the template's key/key_plural
	// become key_0, key_1, key_2, as translate-toolkit labels three forms.
	expectNewLanguage(t, base, repo, "pl", dir+"pl/translation.json", `{
    "app": {
        "title": "",
        "welcome": ""
    },
    "note_0": "",
    "note_1": "",
    "note_2": "",
    "trash": {
        "deleted_0": "",
        "deleted_1": "",
        "deleted_2": "",
        "empty": ""
    },
    "quote": "",
    "nesting": ""
}
`, 7)

	// An uploaded file is applied by key, a plural by its _N keys.
	expectUpload(t, base, "pl", "translation.json", `{"note_0": "{{count}} notatka", "note_1": "{{count}} notatki", "note_2": "{{count}} notatek",
 "trash": {"empty": "Opróżnić kosz?"}, "unknown": "x"}`, 2, 1)
	pl := unitsByKey(t, base, "pl")
	for key, want := range map[string]string{"note": "{{count}} notatka|{{count}} notatki|{{count}} notatek", "trash.empty": "Opróżnić kosz?"} {
		if got := join(pl[key]["target"]); got != want {
			t.Errorf("uploaded pl %q: target %q, want %q", key, got, want)
		}
	}
	expectFile(t, base, repo, dir+"pl/translation.json", `{
    "app": {
        "title": "",
        "welcome": ""
    },
    "note_0": "{{count}} notatka",
    "note_1": "{{count}} notatki",
    "note_2": "{{count}} notatek",
    "trash": {
        "deleted_0": "",
        "deleted_1": "",
        "deleted_2": "",
        "empty": "Opróżnić kosz?"
    },
    "quote": "",
    "nesting": ""
}
`)
}

// goI18nFixture is a go-i18n v1 component (an array of {id, description,
// translation}; plurals as an object of CLDR categories): an English
// template with descriptions, a plural, escapes and a \u-escaped id; a
// German translation that drops a description; a Russian one with three
// plural forms, indented by four.
var goI18nFixture = map[string][]byte{
	"i18n/en-us.all.json": []byte(`[
  {
    "id": "greeting",
    "description": "Shown on the start page",
    "translation": "Hello, {{.Name}}!"
  },
  {
    "id": "unread_emails",
    "description": "Inbox counter",
    "translation": {
      "one": "You have {{.Count}} unread email.",
      "other": "You have {{.Count}} unread emails."
    }
  },
  {
    "id": "quote",
    "translation": "Say \"cheese\"\n\t\\o/"
  },
  {
    "id": "caf\u00e9",
    "translation": "Café ☕"
  }
]
`),
	"i18n/de.all.json": []byte(`[
  {
    "id": "greeting",
    "description": "Shown on the start page",
    "translation": "Hallo, {{.Name}}!"
  },
  {
    "id": "unread_emails",
    "translation": {
      "one": "Du hast {{.Count}} ungelesene E-Mail.",
      "other": "Du hast {{.Count}} ungelesene E-Mails."
    }
  },
  {
    "id": "quote",
    "translation": ""
  }
]
`),
	"i18n/ru.all.json": []byte(`[
    {
        "id": "unread_emails",
        "translation": {
            "one": "У вас {{.Count}} непрочитанное письмо.",
            "few": "У вас {{.Count}} непрочитанных письма.",
            "many": "У вас {{.Count}} непрочитанных писем."
        }
    }
]
`),
}

// TestGoI18nJSONComponent imports a go-i18n v1 component through the REST
// API and checks statistics, units (descriptions as notes), a no-op
// commit, edits, a new language and an upload.
func TestGoI18nJSONComponent(t *testing.T) {
	base, repo := startFormatComponent(t, goI18nFixture, map[string]any{"filemask": "i18n/*.all.json",
		"template": "i18n/en-us.all.json", "new_base": "i18n/en-us.all.json", "file_format": "go-i18n-json"}, "ru", 4)

	// Statistics: 4 strings of 17 words.
	expectStats(t, base, map[string][3]float64{"de": {4, 17, 2}, "ru": {4, 17, 1}})
	// A note is the template's description, then the translation's when
	// it differs, as Weblate joins them.
	de := expectUnits(t, base, "de", map[string][4]string{
		"greeting": {"Hello, {{.Name}}!", "Hallo, {{.Name}}!", "Shown on the start page", ""},
		"unread_emails": {"You have {{.Count}} unread email.|You have {{.Count}} unread emails.",
			"Du hast {{.Count}} ungelesene E-Mail.|Du hast {{.Count}} ungelesene E-Mails.", "Inbox counter\n", ""},
		"quote": {"Say \"cheese\"\n\t\\o/", "", "", ""},
		"café":  {"Café ☕", "", "", ""},
	})
	// A unit the translation lacks has the template's note, joined to
	// the missing unit's empty one.
	expectUnits(t, base, "ru", map[string][4]string{
		"greeting": {"Hello, {{.Name}}!", "", "Shown on the start page\n", ""},
		"unread_emails": {"You have {{.Count}} unread email.|You have {{.Count}} unread emails.",
			"У вас {{.Count}} непрочитанное письмо.|У вас {{.Count}} непрочитанных письма.|У вас {{.Count}} непрочитанных писем.", "Inbox counter\n", ""},
		"quote": {"Say \"cheese\"\n\t\\o/", "", "", ""},
		"café":  {"Café ☕", "", "", ""},
	})

	expectNoChange(t, base, repo, goI18nFixture)

	// Edits rewrite their strings only, escaped as json.dumps writes them.
	editUnit(t, base, de["quote"], "Sag \"Käse\"\n\t\\o/")
	editUnit(t, base, de["unread_emails"], "Du hast {{.Count}} ungelesene E-Mail.", "Du hast {{.Count}} ungelesene E-Mails ✉")
	want := strings.Replace(string(goI18nFixture["i18n/de.all.json"]), `"translation": ""`, `"translation": "Sag \"Käse\"\n\t\\o/"`, 1)
	want = strings.Replace(want, `E-Mails."`, `E-Mails ✉"`, 1)
	expectFile(t, base, repo, "i18n/de.all.json", want)

	// A new language is the template with every translation empty, a
	// plural with the new language's categories, written as
	// translate-toolkit dumps it (indent 4, the id unescaped).
	const plNew = `[
    {
        "id": "greeting",
        "description": "Shown on the start page",
        "translation": ""
    },
    {
        "id": "unread_emails",
        "description": "Inbox counter",
        "translation": {
            "one": "",
            "few": "",
            "many": ""
        }
    },
    {
        "id": "quote",
        "translation": ""
    },
    {
        "id": "café",
        "translation": ""
    }
]
`
	expectNewLanguage(t, base, repo, "pl", "i18n/pl.all.json", plNew, 4)

	// An uploaded file is applied by id.
	expectUpload(t, base, "pl", "pl.all.json", `[{"id": "café", "translation": "Kawiarnia ☕"}, {"id": "nope", "translation": "x"}]`, 1, 1)
	if got := join(unitsByKey(t, base, "pl")["café"]["target"]); got != "Kawiarnia ☕" {
		t.Errorf("uploaded target = %q", got)
	}
	expectFile(t, base, repo, "i18n/pl.all.json", strings.Replace(plNew, `"id": "café",
        "translation": ""`, `"id": "café",
        "translation": "Kawiarnia ☕"`, 1))
}

// TestXLIFF2PlaceablesComponent imports the XLIFF 2.0 component of
// TestXLIFF2Component as xliff2-placeables: strings are XML content (inline
// <pc>/<ph/> kept, & < > escaped) and every unit has the xml-text flag.
// It checks statistics, units, a no-op commit, edits with and without
// markup, a new language and an upload.
func TestXLIFF2PlaceablesComponent(t *testing.T) {
	base, repo := startFormatComponent(t, xliff2Fixture, map[string]any{"filemask": "locales/*.xlf",
		"new_base": "locales/en.xlf", "file_format": "xliff2-placeables"}, "cs", 5)

	// Statistics: 5 strings of 15 words (the inline tags split words).
	expectStats(t, base, map[string][3]float64{"de": {5, 15, 3}, "cs": {5, 15, 1}})
	de := expectUnits(t, base, "de", map[string][4]string{
		"greeting": {"Hello, world!", "Hallo, Welt!", "Shown on the start page", "xml-text"},
		"escapes":  {"Tom &amp; Jerry &lt;3", "Tom &amp; Jerry &lt;3 &gt; alle", "", "xml-text"},
		"markup":   {`Click <pc id="1">here</pc> to <ph id="2"/>continue`, `Klicke <pc id="1">hier</pc> um <ph id="2"/>fortzufahren`, "", "xml-text"},
		"review":   {"Delete %s?", "%s löschen?", "", "c-format, xml-text"},
		"quit":     {"Quit", "", "", "xml-text"},
	})
	for key, want := range map[string]float64{"greeting": 20, "escapes": 20, "markup": 10, "review": 20, "quit": 0} {
		if got := de[key]["state"]; got != want {
			t.Errorf("de %q: state %v, want %v", key, got, want)
		}
	}

	expectNoChange(t, base, repo, xliff2Fixture)

	// An edit writes its markup as elements and marks the segment
	// xml:space="preserve"; a value that is no XML content is escaped.
	editUnit(t, base, de["markup"], `Klicke  <pc id="1">hier</pc>, um <ph id="2"/>fortzufahren`)
	editUnit(t, base, de["quit"], "Beenden & schließen <jetzt")
	want := strings.Replace(string(xliff2Fixture["locales/de.xlf"]), `<segment state="initial">
          <source>Click <pc id="1">here</pc> to <ph id="2"/>continue</source>
          <target>Klicke <pc id="1">hier</pc> um <ph id="2"/>fortzufahren</target>`, `<segment state="translated" xml:space="preserve">
          <source>Click <pc id="1">here</pc> to <ph id="2"/>continue</source>
          <target>Klicke  <pc id="1">hier</pc>, um <ph id="2"/>fortzufahren</target>`, 1)
	want = strings.Replace(want, `<segment>
        <source>Quit</source>`, `<segment xml:space="preserve" state="translated">
        <source>Quit</source>
        <target>Beenden &amp; schließen &lt;jetzt</target>`, 1)
	expectFile(t, base, repo, "locales/de.xlf", want)
	if got := join(unitsByKey(t, base, "de")["markup"]["target"]); got != `Klicke  <pc id="1">hier</pc>, um <ph id="2"/>fortzufahren` {
		t.Errorf("de markup after the edit: %q", got)
	}

	// A new language starts from the new_base, its trgLang added.
	expectNewLanguage(t, base, repo, "pt_BR", "locales/pt-BR.xlf", strings.Replace(string(xliff2Fixture["locales/en.xlf"]),
		`srcLang="en">`, `srcLang="en" trgLang="pt-BR">`, 1), 5)

	// An uploaded file is applied by context and source, its markup kept.
	up := xliff2File("cs", map[string]string{"markup": "translated"}, map[string]string{"markup": `Klikněte <pc id="1">sem</pc> a <ph id="2"/>pokračujte`})
	expectUpload(t, base, "cs", "cs.xlf", string(up), 1, 0)
	if got := join(unitsByKey(t, base, "cs")["markup"]["target"]); got != `Klikněte <pc id="1">sem</pc> a <ph id="2"/>pokračujte` {
		t.Errorf("uploaded target = %q", got)
	}
	expectFile(t, base, repo, "locales/cs.xlf", strings.Replace(string(xliff2Fixture["locales/cs.xlf"]), `<segment>
          <source>Click <pc id="1">here</pc> to <ph id="2"/>continue</source>`, `<segment xml:space="preserve" state="translated">
          <source>Click <pc id="1">here</pc> to <ph id="2"/>continue</source>
          <target>Klikněte <pc id="1">sem</pc> a <ph id="2"/>pokračujte</target>`, 1))
}
