package e2e

import (
	"strconv"
	"strings"
	"testing"
)

// xliffFile is the fixture's file of a language (no target-language
// for ""): the same trans-units, with the given targets (and attributes
// of the greeting unit).
func xliffFile(lang string, targets map[string]string) []byte {
	t := func(id string) string {
		if s, ok := targets[id]; ok {
			return "\n        " + s
		}
		return ""
	}
	return xliffDoc(lang, `
      <trans-unit id="greeting"`+targets["greeting-attrs"]+`>
        <source>Hello, world!</source>`+t("greeting")+`
        <note from="developer">Shown on the start page</note>
        <context-group purpose="location">
          <context context-type="sourcefile">src/app.c</context>
          <context context-type="linenumber">12</context>
        </context-group>
      </trans-unit>
      <trans-unit id="escapes" maxwidth="40" size-unit="char">
        <source>Tom &amp; Jerry &lt;3</source>`+t("escapes")+`
      </trans-unit>
      <!-- inline markup -->
      <trans-unit id="markup">
        <source>Click <g id="1" ctype="bold">here</g> to <x id="2"/> continue</source>`+t("markup")+`
        <note>Inline markup</note>
        <note>Keep the tags</note>
      </trans-unit>
      <trans-unit id="review" weblate-flags="c-format">
        <source>Delete %s?</source>`+t("review")+`
      </trans-unit>
      <trans-unit id="quit">
        <source>Quit</source>`+t("quit")+`
      </trans-unit>`)
}

// xliffDoc is an XLIFF 1.2 document of one file, app, whose body holds
// units (no target-language for lang "").
func xliffDoc(lang, units string) []byte {
	target := ""
	if lang != "" {
		target = ` target-language="` + lang + `"`
	}
	return []byte(`<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="app" source-language="en"` + target + ` datatype="plaintext">
    <body>` + units + `
    </body>
  </file>
</xliff>
`)
}

// xliffFixture is a bilingual XLIFF component: English sources (the
// new_base), a German file with every state (approved, translated,
// needs-translation, needs-review-translation, no target), escapes and
// inline <g>/<x/>, and a Czech file with one translation.
var xliffFixture = map[string][]byte{
	"locales/en.xliff": xliffFile("", nil),
	"locales/de.xliff": xliffFile("de", map[string]string{
		"greeting-attrs": ` approved="yes"`,
		"greeting":       `<target state="final">Hallo, Welt!</target>`,
		"escapes":        `<target state="translated">Tom &amp; Jerry &lt;3 &gt; alle</target>`,
		"markup":         `<target state="needs-translation">Klicke <g id="1" ctype="bold">hier</g> um <x id="2"/> fortzufahren</target>`,
		"review":         `<target state="needs-review-translation">%s löschen?</target>`,
	}),
	"locales/cs.xliff": xliffFile("cs", map[string]string{
		"greeting": `<target state="translated">Ahoj, světe!</target>`,
	}),
}

// TestXLIFFComponent imports a bilingual XLIFF component through the REST
// API and checks statistics, units, a no-op commit, edits, a new language
// and an upload.
func TestXLIFFComponent(t *testing.T) {
	base, repo := startFormatComponent(t, xliffFixture, map[string]any{"filemask": "locales/*.xliff",
		"new_base": "locales/en.xliff", "file_format": "xliff"}, "cs", 5)

	expectStats(t, base, map[string][3]float64{"de": {5, 17, 3}, "cs": {5, 17, 1}})
	de := unitsByKey(t, base, "de")
	for key, want := range map[string][6]string{
		"app///greeting": {"Hello, world!", "Hallo, Welt!", "Shown on the start page", "xml-text", "src/app.c:12", "20"},
		"app///escapes":  {"Tom &amp; Jerry &lt;3", "Tom &amp; Jerry &lt;3 &gt; alle", "", "max-length:40, xml-text", "", "20"},
		"app///markup": {`Click <g id="1" ctype="bold">here</g> to <x id="2"/> continue`,
			`Klicke <g id="1" ctype="bold">hier</g> um <x id="2"/> fortzufahren`, "Inline markup\nKeep the tags", "xml-text", "", "10"},
		"app///review": {"Delete %s?", "%s löschen?", "", "c-format, xml-text", "", "20"},
		"app///quit":   {"Quit", "", "", "xml-text", "", "0"},
	} {
		u := de[key]
		if u == nil {
			t.Errorf("de %q: no unit", key)
			continue
		}
		got := [6]string{join(u["source"]), join(u["target"]), u["note"].(string), u["flags"].(string),
			u["location"].(string), strconv.Itoa(int(u["state"].(float64)))}
		if got != want {
			t.Errorf("de %q:\n got %q\nwant %q", key, got, want)
		}
	}

	expectNoChange(t, base, repo, xliffFixture)

	// An edit rewrites its <target> only, with translate-toolkit's escaping
	// and state, and marks the unit xml:space="preserve"; a unit without a
	// target gets one after its source.
	editUnit(t, base, de["app///escapes"], `Tom & Jerry "für" alle`)
	editUnit(t, base, de["app///quit"], "Beenden")
	want := strings.Replace(string(xliffFixture["locales/de.xliff"]),
		`<trans-unit id="escapes" maxwidth="40" size-unit="char">
        <source>Tom &amp; Jerry &lt;3</source>
        <target state="translated">Tom &amp; Jerry &lt;3 &gt; alle</target>`,
		`<trans-unit id="escapes" maxwidth="40" size-unit="char" xml:space="preserve">
        <source>Tom &amp; Jerry &lt;3</source>
        <target state="translated">Tom &amp; Jerry "für" alle</target>`, 1)
	want = strings.Replace(want, `<trans-unit id="quit">
        <source>Quit</source>`, `<trans-unit id="quit" xml:space="preserve">
        <source>Quit</source>
        <target state="translated">Beenden</target>`, 1)
	expectFile(t, base, repo, "locales/de.xliff", want)

	// A new language starts from the new_base, its target-language added
	// (after the other attributes, as lxml sets it).
	call(t, "POST", base+"components/demo/app/translations/", map[string]any{"language_code": "fr"}, 201)
	expectFile(t, base, repo, "locales/fr.xliff", strings.Replace(string(xliffFixture["locales/en.xliff"]),
		`datatype="plaintext">`, `datatype="plaintext" target-language="fr">`, 1))
	if tr := call(t, "GET", base+"translations/demo/app/fr/", nil, 200); tr["total"] != float64(5) || tr["translated"] != float64(0) {
		t.Errorf("fr: %v strings, %v translated", tr["total"], tr["translated"])
	}

	// An uploaded file is applied by context and source.
	up := xliffFile("cs", map[string]string{"review": `<target state="translated">Smazat %s?</target>`})
	if out := uploadFile(t, base+"translations/demo/app/cs/file/", "cs.xliff", string(up)); out["accepted"] != float64(1) {
		t.Errorf("upload: %v", out)
	}
	if got := join(unitsByKey(t, base, "cs")["app///review"]["target"]); got != "Smazat %s?" {
		t.Errorf("uploaded target = %q", got)
	}
	expectFile(t, base, repo, "locales/cs.xliff", strings.Replace(string(xliffFixture["locales/cs.xliff"]),
		`<trans-unit id="review" weblate-flags="c-format">
        <source>Delete %s?</source>`, `<trans-unit id="review" weblate-flags="c-format" xml:space="preserve">
        <source>Delete %s?</source>
        <target state="translated">Smazat %s?</target>`, 1))
}
