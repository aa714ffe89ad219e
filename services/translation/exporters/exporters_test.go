package exporters

import (
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/pkg/weblate"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/name (rewritten with -update).
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o600); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs:\n--- got\n%s\n--- want\n%s", name, got, want)
	}
}

func czech() Meta {
	return Meta{ProjectSlug: "demo", ProjectName: "Demo", ComponentSlug: "app", LanguageCode: "cs",
		LanguageName: "Czech", SourceLanguage: "en", PluralNumber: 3,
		PluralFormula: "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2", URL: "https://tms.example/projects/demo/app/cs/",
		Generator: "TMS 1.0", Now: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)}
}

// bilingual covers what the exporters write: plurals (complete and
// untranslated), fuzziness, approval, contexts, notes, several locations
// (one with a space), flags, comments and suggestions, and text needing
// escapes or quotes.
func bilingual() []Unit {
	return []Unit{
		{Source: []string{"Hello"}, Target: []string{"Ahoj"}, Location: "src/main.c:10, src/other file.c:3",
			Flags: "c-format", State: weblate.StateApproved, IDHash: -4005592185683914342},
		{Source: []string{"%d file", "%d files"}, Target: []string{"%d soubor", "%d soubory", "%d souborů"},
			Location: "src/files.c:20", Flags: "c-format", State: weblate.StateTranslated, IDHash: 5},
		{Source: []string{"%d day", "%d days"}, Target: []string{""}, State: weblate.StateEmpty, IDHash: 6},
		{Context: "menu", Source: []string{"Open"}, Target: []string{"Otevřít"}, State: weblate.StateFuzzy,
			Note: "Menu item\nkeep it short", Comments: []string{"Is this the verb?"},
			Suggestions: [][]string{{"Otevři"}}},
		{Source: []string{"Say \"hi\", then\nleave\tnow \\ ok"}, Target: []string{"Řekni \"ahoj\", pak\nodejdi\tteď \\ ok"},
			State: weblate.StateTranslated, Flags: "max-length:80, python-format", Explanation: "Shown on exit.", IDHash: 7},
		{Source: []string{"=SUM(A1)"}, Target: []string{"-1 | 2"}, Context: "@calc", State: weblate.StateTranslated},
		{Source: []string{"Untranslated"}, Target: []string{""}, State: weblate.StateEmpty, IDHash: 8},
	}
}

// monolingual has keys as contexts (nested with "." and "[n]").
func monolingual() []Unit {
	return []Unit{
		{Context: "title", Source: []string{"Title"}, Target: []string{"Název"}, State: weblate.StateTranslated},
		{Context: "menu.open", Source: []string{"Open"}, Target: []string{"Otevřít"}, State: weblate.StateFuzzy, Note: "verb"},
		{Context: "menu.close", Source: []string{"Close"}, Target: []string{""}, State: weblate.StateEmpty},
		{Context: "files", Source: []string{"{count} file", "{count} files"},
			Target: []string{"{count} soubor", "{count} soubory", "{count} souborů"}, State: weblate.StateTranslated},
		{Context: "list[0]", Source: []string{"First"}, Target: []string{"První"}, State: weblate.StateTranslated},
		{Context: "list[2]", Source: []string{"Third"}, Target: []string{"Třetí \"3\"\n\u0001"}, State: weblate.StateTranslated},
		{Context: "title", Source: []string{"Title again"}, Target: []string{"Název znovu"}, State: weblate.StateTranslated},
	}
}

func TestExportGolden(t *testing.T) {
	mono := czech()
	mono.Monolingual = true
	for _, tc := range []struct {
		format, golden string
		meta           Meta
		units          []Unit
	}{
		{"po", "bilingual.po", czech(), bilingual()},
		{"po", "monolingual.po", mono, monolingual()},
		{"po", "empty.po", czech(), nil},
		{"csv", "bilingual.csv", czech(), bilingual()},
		{"json", "monolingual.json", mono, monolingual()},
		{"json-nested", "monolingual-nested.json", mono, monolingual()},
		{"json", "empty.json", mono, nil},
	} {
		t.Run(tc.golden, func(t *testing.T) {
			e, ok := Lookup(tc.format)
			if !ok {
				t.Fatalf("no exporter %q", tc.format)
			}
			if !e.Supports(tc.meta) {
				t.Fatalf("%s does not support the translation", tc.format)
			}
			golden(t, tc.golden, e.Export(tc.meta, tc.units))
		})
	}
}

func TestExporters(t *testing.T) {
	for _, tc := range []struct {
		format, contentType, filename string
		bilingual                     bool
	}{
		{"po", "text/x-po; charset=utf-8", "demo-app-cs.po", true},
		{"csv", "text/csv; charset=utf-8", "demo-app-cs.csv", true},
		{"json", "application/json; charset=utf-8", "demo-app-cs.json", false},
		{"json-nested", "application/json; charset=utf-8", "demo-app-cs.json", false},
		{"xliff", "application/x-xliff+xml; charset=utf-8", "demo-app-cs.xlf", true},
		{"xliff11", "application/x-xliff+xml; charset=utf-8", "demo-app-cs.xlf", true},
	} {
		t.Run(tc.format, func(t *testing.T) {
			e, ok := Lookup(tc.format)
			if !ok {
				t.Fatal("not registered")
			}
			if e.ContentType() != tc.contentType || Filename(e, czech()) != tc.filename {
				t.Errorf("%s %s, want %s %s", e.ContentType(), Filename(e, czech()), tc.contentType, tc.filename)
			}
			if got := e.Supports(czech()); got != tc.bilingual {
				t.Errorf("supports a bilingual translation: %v", got)
			}
		})
	}
	if _, ok := Lookup("docx"); ok {
		t.Error("docx is not a format")
	}
	if got := strings.Join(Names(), " "); got != "csv json json-nested po xliff xliff11" {
		t.Errorf("Names() = %s", got)
	}
}

func TestParseID(t *testing.T) {
	for _, tc := range []struct {
		id     string
		nested bool
		want   string
	}{
		{"a.b", false, "k:a.b"},
		{".a", false, "k:a"},
		{"a.b", true, "k:a k:b"},
		{"a[1].b", true, "k:a i:1 k:b"},
		{"[0][2]", true, "i:0 i:2"},
		{"a[x]", true, "k:a[x]"},
		{".", true, "k:"},
	} {
		t.Run(tc.id, func(t *testing.T) {
			var parts []string
			for _, p := range parseID(tc.id, tc.nested) {
				if p.index >= 0 {
					parts = append(parts, "i:"+strconv.Itoa(p.index))
				} else {
					parts = append(parts, "k:"+p.key)
				}
			}
			if got := strings.Join(parts, " "); got != tc.want {
				t.Errorf("parseID(%q) = %s, want %s", tc.id, got, tc.want)
			}
		})
	}
}

func TestQuotePlus(t *testing.T) {
	for in, want := range map[string]string{
		"src/main.c:10":    "src/main.c:10",
		"src/other file.c": "src/other+file.c",
		"ü[1](x)@a,b~_.-":  "%C3%BC[1](x)@a,b~_.-",
		"100%+#":           "100%25%2B%23",
	} {
		if got := quotePlus(in); got != want {
			t.Errorf("quotePlus(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestRootList(t *testing.T) {
	e, _ := Lookup("json-nested")
	m := czech()
	m.Monolingual = true
	got := string(e.Export(m, []Unit{
		{Context: "[1]", Source: []string{"b"}, Target: []string{"B"}},
		{Context: "[0].x", Source: []string{"a"}, Target: []string{"A"}},
	}))
	want := "[\n    {\n        \"x\": \"A\"\n    },\n    \"B\"\n]\n"
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// markup covers how the XLIFF exporters read markup in strings: XLIFF
// placeables in any namespace, other elements, comments, entities and
// CDATA, xml:space, and what makes a string plain text (a g without id,
// an undeclared prefix, a processing instruction, a duplicate attribute,
// "]]>", bad entities, control characters).
func markup() []Unit {
	forms := [][2]string{
		{`Click <b>here</b> &amp; <i class="x">now</i>`, `Klikni <b>sem</b> &amp; <i class="x">teď</i>`},
		{`x <xliff:g xmlns:xliff="urn:oasis:names:tc:xliff:document:1.2" example="Launcher" id="app">%1$s</xliff:g>`,
			`<x ctype="a"/> <bx id="1" ctype="b" rid="2" xid="3"/> <ex id="2">lost</ex> <g id="3"></g>`},
		{"a <!-- note --> b &quot;c&quot; &#65; <![CDATA[<raw>]]> \r\n d", "<p xmlns=\"urn:x\"><q/></p><e></e>"},
		{`<b xml:space="default">  a   <i> x  </i>  b  </b> t  `, `<span title="a&#10;b">t</span>`},
		{`<g>no id</g>`, `ok`},
		{`u <xliff:g id="n">%s</xliff:g>`, `ok`},
		{`p <?pi x?> q`, `ok`},
		{`<p b="1" b="2">x</p>`, `ok`},
		{`a ]]> b`, `ok`},
		{`&#1; &nbsp; a & b <`, "ctrl\u0001 \uffff"},
		{"ok", "tab\there\u0002"},
		{"  spaced  ", "  "},
	}
	out := make([]Unit, len(forms))
	for i, f := range forms {
		out[i] = Unit{Source: []string{f[0]}, Target: []string{f[1]}, State: weblate.StateTranslated, IDHash: int64(100 + i),
			Comments: []string{"  padded comment  "}}
	}
	out[len(out)-1].Note = "  "
	out = append(out, Unit{Source: []string{"<b>%d</b> file", "<b>%d</b> files"}, IDHash: 200,
		Target: []string{"<b>%d</b> soubor", "<b>%d</b> soubory", "<b>%d</b> souborů"}, State: weblate.StateFuzzy,
		Location: "a.c:1, b.c, c.c:2", Note: "plural note", Comments: []string{"c1"}},
		Unit{Source: []string{"%d & file", "%d files"}, Target: []string{"a", "b", "c"}, State: weblate.StateApproved,
			IDHash: 201, Flags: "max-length: 12, c-format"})
	return out
}

// plurals are plural units in every state, for languages with fewer,
// as many and more forms than the source.
func plurals() []Unit {
	return []Unit{
		{Source: []string{"%d day", "%d days"}, Target: []string{""}, State: weblate.StateEmpty, IDHash: 1},
		{Source: []string{"%d hour", "%d hours"}, Target: []string{"h1", "h2", "h3"}, State: weblate.StateTranslated, IDHash: 2},
		{Source: []string{"%d min", "%d mins"}, Target: []string{"m1", "", ""}, State: weblate.StateFuzzy, IDHash: 3,
			Note: "minutes"},
		{Source: []string{"%d sec", "%d secs"}, Target: []string{"", "s2", "s3"}, State: weblate.StateFuzzy, IDHash: 4},
		{Context: "ctx", Source: []string{"%d item", "%d items"}, Target: []string{"i1", "i2", "i3"},
			State: weblate.StateApproved, Location: "items.c:7"},
		{Source: []string{"Single"}, Target: []string{"Jeden"}, State: weblate.StateReadOnly, IDHash: 5},
	}
}

type xliffCase struct {
	format, golden string
	meta           Meta
	units          []Unit
}

func xliffCases() []xliffCase {
	mono := czech()
	mono.Monolingual = true
	german, japanese := czech(), czech()
	german.LanguageCode, german.PluralNumber = "de", 2
	japanese.LanguageCode, japanese.PluralNumber = "ja", 1
	var cases []xliffCase
	for _, f := range []struct{ format, suffix string }{{"xliff", ""}, {"xliff11", "11"}} {
		cases = append(cases,
			xliffCase{f.format, "bilingual" + f.suffix + ".xlf", czech(), bilingual()},
			xliffCase{f.format, "monolingual" + f.suffix + ".xlf", mono, monolingual()},
			xliffCase{f.format, "markup" + f.suffix + ".xlf", czech(), markup()},
			xliffCase{f.format, "plurals-cs" + f.suffix + ".xlf", czech(), plurals()},
			xliffCase{f.format, "plurals-de" + f.suffix + ".xlf", german, plurals()},
			xliffCase{f.format, "plurals-ja" + f.suffix + ".xlf", japanese, plurals()},
			xliffCase{f.format, "empty" + f.suffix + ".xlf", czech(), nil})
	}
	return cases
}

// TestXliffGolden compares both XLIFF exports with files written by
// translate-toolkit's PoXliffFile and xlifffile driven as the reference's
// exporters drive them.
func TestXliffGolden(t *testing.T) {
	for _, tc := range xliffCases() {
		t.Run(tc.golden, func(t *testing.T) {
			e, ok := Lookup(tc.format)
			if !ok {
				t.Fatalf("no exporter %q", tc.format)
			}
			golden(t, tc.golden, e.Export(tc.meta, tc.units))
		})
	}
}

func TestChecksum(t *testing.T) {
	for id, want := range map[int64]string{-5: "7ffffffffffffffb", 12345: "8000000000003039", 0: "8000000000000000",
		-1 << 63: "0000000000000000", 1<<63 - 1: "ffffffffffffffff"} {
		if got := checksum(id); got != want {
			t.Errorf("checksum(%d) = %s, want %s", id, got, want)
		}
	}
}
