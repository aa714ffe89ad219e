package e2e

import (
	"strings"
	"testing"
)

// aresourceFixture is an Android app's res/: an English template with a
// string that is not translatable, notes, escapes, CDATA, markup and a
// plural; a German translation; a partial Russian one with other
// indentation and a quoted value.
var aresourceFixture = map[string][]byte{
	"app/src/main/res/values/strings.xml": []byte(`<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <string name="app_name" translatable="false">Notepad</string>
    <!-- Title of the main screen -->
    <string name="title">Hello, World!</string>
    <string name="quote">Don\'t say \"never\"</string>
    <string name="lines">First line\nSecond line</string>
    <string name="handle">\@notepad</string>
    <string name="bold"><![CDATA[<b>Bold</b> & more]]></string>
    <string name="welcome">Welcome, <xliff:g id="name" example="Ann">%1$s</xliff:g>!</string>
    <!-- Shown in the list header -->
    <plurals name="notes">
        <item quantity="one">%d note</item>
        <item quantity="other">%d notes</item>
    </plurals>
    <string-array name="sort_orders">
        <item>Name</item>
        <item>Date</item>
    </string-array>
</resources>
`),
	"app/src/main/res/values-de/strings.xml": []byte(`<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <!-- Titel des Hauptbildschirms -->
    <string name="title">Hallo, Welt!</string>
    <string name="quote">Sag\'s niemals \"nie\"</string>
    <string name="lines">Erste Zeile\nZweite Zeile</string>
    <string name="handle">\@notizblock</string>
    <string name="bold"><![CDATA[<b>Fett</b> & mehr]]></string>
    <string name="welcome">Willkommen, <xliff:g id="name" example="Ann">%1$s</xliff:g>!</string>
    <plurals name="notes">
        <item quantity="one">%d Notiz</item>
        <item quantity="other">%d Notizen</item>
    </plurals>
</resources>
`),
	"app/src/main/res/values-ru/strings.xml": []byte(`<?xml version="1.0" encoding="utf-8"?>
<resources>
  <string name="title">Привет, мир!</string>
  <string name="lines">"Первая строка\nВторая  строка"</string>
  <plurals name="notes">
    <item quantity="one">%d заметка</item>
    <item quantity="few">%d заметки</item>
    <item quantity="many">%d заметок</item>
    <item quantity="other">%d заметки</item>
  </plurals>
</resources>
`),
}

// TestAResourceComponent imports an Android string resource component
// through the REST API and checks statistics, units, a no-op commit, an
// edit's diff, a new language and an upload.
func TestAResourceComponent(t *testing.T) {
	const res = "app/src/main/res/"
	base, repo := startFormatComponent(t, aresourceFixture, map[string]any{"filemask": res + "values-*/strings.xml",
		"template": res + "values/strings.xml", "new_base": res + "values/strings.xml", "file_format": "aresource"}, "ru", 7)

	// Statistics: 7 strings of 21 words (markup tokens and both plural forms count).
	expectStats(t, base, map[string][3]float64{"en": {7, 21, 7}, "de": {7, 21, 7}, "ru": {7, 21, 3}})
	de := unitsByKey(t, base, "de")
	if len(de) != 7 || de["app_name"] != nil {
		t.Errorf("de units: %d, app_name %v", len(de), de["app_name"])
	}
	for key, want := range map[string][2]string{
		"title":   {"Hello, World!", "Hallo, Welt!"},
		"quote":   {`Don't say "never"`, `Sag's niemals "nie"`},
		"lines":   {"First line\nSecond line", "Erste Zeile\nZweite Zeile"},
		"handle":  {"@notepad", "@notizblock"},
		"bold":    {"<b>Bold</b> & more", "<b>Fett</b> & mehr"},
		"welcome": {`Welcome, <xliff:g id="name" example="Ann">%1$s</xliff:g>!`, `Willkommen, <xliff:g id="name" example="Ann">%1$s</xliff:g>!`},
		"notes":   {"%d note|%d notes", "%d Notiz|%d Notizen"},
	} {
		u := de[key]
		if u == nil {
			t.Errorf("de %q: no unit", key)
			continue
		}
		if got := [2]string{join(u["source"]), join(u["target"])}; got != want {
			t.Errorf("de %q: source, target = %q, want %q", key, got, want)
		}
	}
	// A note is the template's comment, then the translation's, as
	// Weblate joins them.
	for key, want := range map[string]string{"title": " Title of the main screen \n Titel des Hauptbildschirms ",
		"notes": " Shown in the list header \n", "quote": ""} {
		if got := de[key]["note"]; got != want {
			t.Errorf("%s: note %q, want %q", key, got, want)
		}
	}
	ru := unitsByKey(t, base, "ru")
	for key, want := range map[string]string{"title": "Привет, мир!", "lines": "Первая строка\nВторая  строка",
		"notes": "%d заметка|%d заметки|%d заметок", "quote": ""} {
		if got := join(ru[key]["target"]); got != want {
			t.Errorf("ru %q: target %q, want %q", key, got, want)
		}
	}

	expectNoChange(t, base, repo, aresourceFixture)

	// An edit rewrites its value only, escaped as translate-toolkit does.
	editUnit(t, base, de["quote"], `Sag's "nie" @jetzt?`)
	expectFile(t, base, repo, res+"values-de/strings.xml", strings.Replace(string(aresourceFixture[res+"values-de/strings.xml"]),
		`>Sag\'s niemals \"nie\"<`, `>Sag\'s \"nie\" @jetzt\?<`, 1))
	editUnit(t, base, ru["notes"], "%d заметка", "%d заметки", "%d заметок!")
	expectFile(t, base, repo, res+"values-ru/strings.xml", strings.Replace(string(aresourceFixture[res+"values-ru/strings.xml"]),
		`<item quantity="many">%d заметок</item>
    <item quantity="other">%d заметки</item>`, `<item quantity="many">%d заметок!</item>
    <item quantity="other">%d заметок!</item>`, 1))

	// A new language starts from the template, every value empty.
	call(t, "POST", base+"components/demo/app/translations/", map[string]any{"language_code": "fr"}, 201)
	expectFile(t, base, repo, res+"values-fr/strings.xml", `<?xml version="1.0" encoding="utf-8"?>
<resources xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2">
    <string name="app_name" translatable="false">Notepad</string>
    <!-- Title of the main screen -->
    <string name="title"></string>
    <string name="quote"></string>
    <string name="lines"></string>
    <string name="handle"></string>
    <string name="bold"></string>
    <string name="welcome"></string>
    <!-- Shown in the list header -->
    <plurals name="notes">
        <item quantity="one"></item>
        <item quantity="other"></item>
    </plurals>
    <string-array name="sort_orders">
        <item>Name</item>
        <item>Date</item>
    </string-array>
</resources>
`)
	if tr := call(t, "GET", base+"translations/demo/app/fr/", nil, 200); tr["total"] != float64(7) || tr["translated"] != float64(0) {
		t.Errorf("fr: %v strings, %v translated", tr["total"], tr["translated"])
	}

	// An uploaded strings.xml is applied by name.
	if out := uploadFile(t, base+"translations/demo/app/ru/file/", "strings.xml", `<?xml version="1.0" encoding="utf-8"?>
<resources>
    <string name="handle">\@блокнот</string>
    <string name="unknown">x</string>
</resources>
`); out["accepted"] != float64(1) || out["not_found"] != float64(1) {
		t.Errorf("upload: %v", out)
	}
	if got := join(unitsByKey(t, base, "ru")["handle"]["target"]); got != "@блокнот" {
		t.Errorf("uploaded target = %q", got)
	}
	expectFile(t, base, repo, res+"values-ru/strings.xml", `<?xml version="1.0" encoding="utf-8"?>
<resources>
  <string name="title">Привет, мир!</string>
  <string name="lines">"Первая строка\nВторая  строка"</string>
  <plurals name="notes">
    <item quantity="one">%d заметка</item>
    <item quantity="few">%d заметки</item>
    <item quantity="many">%d заметок!</item>
    <item quantity="other">%d заметок!</item>
  </plurals>
  <string name="handle">\@блокнот</string>
</resources>
`)
}
