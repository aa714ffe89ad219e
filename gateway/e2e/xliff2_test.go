package e2e

import (
	"strconv"
	"strings"
	"testing"
)

// xliff2File is the fixture's XLIFF 2.0 file of a language (no trgLang
// for ""): the same units, with the given segment states and targets.
func xliff2File(lang string, states, targets map[string]string) []byte {
	seg := func(id string) string {
		if s, ok := states[id]; ok {
			return `<segment state="` + s + `">`
		}
		return "<segment>"
	}
	t := func(id string) string {
		if s, ok := targets[id]; ok {
			return "\n        <target>" + s + "</target>"
		}
		return ""
	}
	trg := ""
	if lang != "" {
		trg = ` trgLang="` + lang + `"`
	}
	return []byte(`<?xml version="1.0" encoding="UTF-8"?>
<xliff xmlns="urn:oasis:names:tc:xliff:document:2.0" version="2.0" srcLang="en"` + trg + `>
  <file id="app">
    <unit id="greeting">
      <notes>
        <note>A unit note (translate-toolkit reads the segment's)</note>
      </notes>
      ` + seg("greeting") + `
        <notes>
          <note>Shown on the start page</note>
        </notes>
        <source>Hello, world!</source>` + t("greeting") + `
      </segment>
    </unit>
    <unit id="escapes">
      <segment` + strings.TrimPrefix(seg("escapes"), "<segment") + `
        <source>Tom &amp; Jerry &lt;3</source>` + t("escapes") + `
      </segment>
    </unit>
    <!-- inline markup -->
    <group id="screens">
      <unit id="markup">
        ` + seg("markup") + `
          <source>Click <pc id="1">here</pc> to <ph id="2"/>continue</source>` + strings.ReplaceAll(t("markup"), "\n", "\n  ") + `
        </segment>
      </unit>
    </group>
    <unit id="review">
      ` + strings.Replace(seg("review"), ">", ` weblate-flags="c-format">`, 1) + `
        <source>Delete %s?</source>` + t("review") + `
      </segment>
    </unit>
    <unit id="quit">
      ` + seg("quit") + `
        <source>Quit</source>` + t("quit") + `
      </segment>
    </unit>
  </file>
</xliff>
`)
}

// xliff2Fixture is a bilingual XLIFF 2.0 component: English sources (the
// new_base), a German file with every segment state (final, translated,
// initial, reviewed, no target), escapes and inline <pc>/<ph/> in a
// group, and a Czech file with one translation.
var xliff2Fixture = map[string][]byte{
	"locales/en.xlf": xliff2File("", nil, nil),
	"locales/de.xlf": xliff2File("de",
		map[string]string{"greeting": "final", "escapes": "translated", "markup": "initial", "review": "reviewed"},
		map[string]string{"greeting": "Hallo, Welt!", "escapes": "Tom &amp; Jerry &lt;3 &gt; alle",
			"markup": `Klicke <pc id="1">hier</pc> um <ph id="2"/>fortzufahren`, "review": "%s löschen?"}),
	"locales/cs.xlf": xliff2File("cs", map[string]string{"greeting": "translated"},
		map[string]string{"greeting": "Ahoj, světe!"}),
}

// TestXLIFF2Component imports a bilingual XLIFF 2.0 component (file
// format xliff2, plain strings) through the REST API and checks
// statistics, units, a no-op commit, edits, a new language, an upload
// and the conversions of a download.
func TestXLIFF2Component(t *testing.T) {
	base, repo := startFormatComponent(t, xliff2Fixture, map[string]any{"filemask": "locales/*.xlf",
		"new_base": "locales/en.xlf", "file_format": "xliff2"}, "cs", 5)

	expectStats(t, base, map[string][3]float64{"de": {5, 13, 3}, "cs": {5, 13, 1}})
	de := unitsByKey(t, base, "de")
	for key, want := range map[string][5]string{
		"greeting": {"Hello, world!", "Hallo, Welt!", "Shown on the start page", "", "20"},
		"escapes":  {"Tom & Jerry <3", "Tom & Jerry <3 > alle", "", "", "20"},
		"markup":   {"Click here to continue", "Klicke hier um fortzufahren", "", "", "10"},
		"review":   {"Delete %s?", "%s löschen?", "", "c-format", "20"},
		"quit":     {"Quit", "", "", "", "0"},
	} {
		u := de[key]
		if u == nil {
			t.Errorf("de %q: no unit", key)
			continue
		}
		got := [5]string{join(u["source"]), join(u["target"]), u["note"].(string), u["flags"].(string),
			strconv.Itoa(int(u["state"].(float64)))}
		if got != want || u["location"] != "" {
			t.Errorf("de %q:\n got %q (location %q)\nwant %q", key, got, u["location"], want)
		}
	}

	expectNoChange(t, base, repo, xliff2Fixture)

	// An edit rewrites its <target> only, escaped, and the segment's
	// state; a segment without a target gets one after its source.
	editUnit(t, base, de["escapes"], `Tom & Jerry "für" <alle>`)
	editUnit(t, base, de["quit"], "Beenden")
	want := strings.Replace(string(xliff2Fixture["locales/de.xlf"]),
		`<target>Tom &amp; Jerry &lt;3 &gt; alle</target>`, `<target>Tom &amp; Jerry "für" &lt;alle&gt;</target>`, 1)
	want = strings.Replace(want, `<segment>
        <source>Quit</source>`, `<segment state="translated">
        <source>Quit</source>
        <target>Beenden</target>`, 1)
	expectFile(t, base, repo, "locales/de.xlf", want)

	// A new language starts from the new_base, its trgLang added; its
	// file is named in XLIFF's language code style, bcp (pt-BR), as in Weblate.
	call(t, "POST", base+"components/demo/app/translations/", map[string]any{"language_code": "pt_BR"}, 201)
	expectFile(t, base, repo, "locales/pt-BR.xlf", strings.Replace(string(xliff2Fixture["locales/en.xlf"]),
		`srcLang="en">`, `srcLang="en" trgLang="pt-BR">`, 1))
	if tr := call(t, "GET", base+"translations/demo/app/pt_BR/", nil, 200); tr["total"] != float64(5) || tr["translated"] != float64(0) {
		t.Errorf("pt_BR: %v strings, %v translated", tr["total"], tr["translated"])
	}

	// An uploaded file is applied by context and source.
	up := xliff2File("cs", map[string]string{"review": "translated"}, map[string]string{"review": "Smazat %s?"})
	if out := uploadFile(t, base+"translations/demo/app/cs/file/", "cs.xlf", string(up)); out["accepted"] != float64(1) {
		t.Errorf("upload: %v", out)
	}
	if got := join(unitsByKey(t, base, "cs")["review"]["target"]); got != "Smazat %s?" {
		t.Errorf("uploaded target = %q", got)
	}
	expectFile(t, base, repo, "locales/cs.xlf", strings.Replace(string(xliff2Fixture["locales/cs.xlf"]),
		`<segment weblate-flags="c-format">
        <source>Delete %s?</source>`, `<segment weblate-flags="c-format" state="translated">
        <source>Delete %s?</source>
        <target>Smazat %s?</target>`, 1))

	// Downloads: the file as is, or converted by the exporters a
	// bilingual component has (JSON is for monolingual ones).
	file := base + "translations/demo/app/de/file/"
	if status, _, body := download(t, file+"?format=xliff2"); status != 200 || body != want {
		t.Errorf("format=xliff2: %d\n%s", status, body)
	}
	if status, _, body := download(t, file+"?format=po"); status != 200 || !strings.Contains(body, "msgctxt \"escapes\"\nmsgid \"Tom & Jerry <3\"\nmsgstr \"Tom & Jerry \\\"für\\\" <alle>\"") {
		t.Errorf("format=po: %d\n%s", status, body)
	}
	if status, _, body := download(t, file+"?format=xliff"); status != 200 || !strings.Contains(body, `<source>Delete %s?</source>`) {
		t.Errorf("format=xliff: %d\n%s", status, body)
	}
	if status, _, body := download(t, file+"?format=json"); status != 400 || !strings.Contains(body, "not compatible") {
		t.Errorf("format=json: %d %s", status, body)
	}
}
