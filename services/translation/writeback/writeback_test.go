package writeback

import (
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/pkg/po"
	"github.com/tmsproject/tms/pkg/weblate"
	"github.com/tmsproject/tms/services/translation/formats"
	pofmt "github.com/tmsproject/tms/services/translation/formats/po"
	"github.com/tmsproject/tms/services/translation/formats/xliff"
)

const file = `# Test.
msgid ""
msgstr ""
"Project-Id-Version: x 1.0\n"
"Content-Type: text/plain; charset=CHARSET\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"

#: a.c:1
msgid "One"
msgstr "Eins"

#: a.c:2
#, fuzzy
#| msgid "Tw"
msgid "Two"
msgstr "Zwi"

msgctxt "menu"
msgid "Three"
msgstr ""

msgid "%d file"
msgid_plural "%d files"
msgstr[0] ""
msgstr[1] ""

msgid "Gone"
msgstr "Weg"
`

func TestApply(t *testing.T) {
	f, err := po.Parse([]byte(file))
	if err != nil {
		t.Fatal(err)
	}
	units := []Unit{
		{Source: []string{"One"}, Target: []string{"Eins"}, State: 20}, // unchanged
		{Source: []string{"Two"}, Target: []string{"Zwei"}, State: 20}, // translated, fuzzy off
		{Context: "menu", Source: []string{"Three"}, Target: []string{"Drei"}, State: 10},
		{Source: []string{"%d file", "%d files"}, Target: []string{"%d Datei", "%d Dateien"}, State: 20},
		{Source: []string{"New"}, Target: []string{"Neu"}, State: 20},  // added
		{Context: "x", Source: []string{"Empty", "Empties"}, State: 0}, // added, plural
	}
	res, err := Apply(pofmt.Wrap(f), units, []Key{{Source: []string{"Gone"}}, {Source: []string{"Missing"}}}, Mode{Plurals: 2})
	if err != nil {
		t.Fatal(err)
	}
	if res != (Result{Updated: 3, Added: 2, Removed: 1}) {
		t.Errorf("result = %+v", res)
	}
	out := string(f.Bytes())
	for _, want := range []string{
		"#: a.c:1\nmsgid \"One\"\nmsgstr \"Eins\"\n",
		"#: a.c:2\nmsgid \"Two\"\nmsgstr \"Zwei\"\n",
		"#, fuzzy\nmsgctxt \"menu\"\nmsgid \"Three\"\nmsgstr \"Drei\"\n",
		"msgstr[0] \"%d Datei\"\nmsgstr[1] \"%d Dateien\"\n",
		"msgid \"New\"\nmsgstr \"Neu\"\n",
		"msgctxt \"x\"\nmsgid \"Empty\"\nmsgid_plural \"Empties\"\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "Gone") || strings.Contains(out, "#| msgid") {
		t.Errorf("removed entry or previous msgid kept:\n%s", out)
	}
	// Emptying a string drops its text and fuzziness.
	res, _ = Apply(pofmt.Wrap(f), []Unit{{Context: "menu", Source: []string{"Three"}, Target: []string{"Drei"}, State: 0}}, nil, Mode{Plurals: 2})
	if out := string(f.Bytes()); res.Updated != 1 || !strings.Contains(out, "msgctxt \"menu\"\nmsgid \"Three\"\nmsgstr \"\"\n") {
		t.Errorf("emptied entry:\n%s", out)
	}
}

func TestApplyUnchangedKeepsBytes(t *testing.T) {
	f, _ := po.Parse([]byte(file))
	res, err := Apply(pofmt.Wrap(f), []Unit{{Source: []string{"One"}, Target: []string{"Eins"}, State: 20}}, nil, Mode{Plurals: 2})
	if err != nil || res.Changed() || string(f.Bytes()) != file {
		t.Errorf("no-op apply changed the file: %+v %v", res, err)
	}
}

func TestUpdateHeader(t *testing.T) {
	f, _ := po.Parse([]byte(file))
	UpdateHeader(pofmt.Wrap(f), Header{LastTranslator: "Ana <ana@example.com>", PluralForms: "nplurals=2; plural=(n != 1);",
		Language: "de", Revised: time.Date(2026, 3, 29, 18, 42, 0, 0, time.UTC), Generator: "Weblate 2026.8",
		LanguageTeam: "German <http://x/projects/p/c/de/>"})
	want := `msgid ""
msgstr ""
"Project-Id-Version: x 1.0\n"
"PO-Revision-Date: 2026-03-29 18:42+0000\n"
"Last-Translator: Ana <ana@example.com>\n"
"Language-Team: German <http://x/projects/p/c/de/>\n"
"Language: de\n"
"Content-Type: text/plain; charset=UTF-8\n"
"Content-Transfer-Encoding: 8bit\n"
"Plural-Forms: nplurals=2; plural=(n != 1);\n"
"X-Generator: Weblate 2026.8\n"
`
	got := string(f.Bytes())
	if !strings.Contains(got, want) {
		t.Errorf("header:\n%s", got[:400])
	}
}

// TestApplyDropsStrayForms edits plural entries of a one-form language
// whose file carries a stray msgstr[1]: the edited entry is written with
// the translation's one form, as the reference writes it; untouched
// entries keep theirs.
func TestApplyDropsStrayForms(t *testing.T) {
	const ja = "msgid \"\"\nmsgstr \"\"\n\"Plural-Forms: nplurals=1; plural=0;\\n\"\n\n" +
		"msgid \"%d file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n\n" +
		"msgid \"%d dir\"\nmsgid_plural \"%d dirs\"\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n"
	f, err := po.Parse([]byte(ja))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Apply(pofmt.Wrap(f), []Unit{{Source: []string{"%d file", "%d files"}, Target: []string{"%d ファイル"}, State: 20}}, nil, Mode{Plurals: 1})
	if err != nil || res.Updated != 1 {
		t.Fatalf("apply: %+v %v", res, err)
	}
	want := "msgid \"%d file\"\nmsgid_plural \"%d files\"\nmsgstr[0] \"%d ファイル\"\n\n" +
		"msgid \"%d dir\"\nmsgid_plural \"%d dirs\"\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n"
	if out := string(f.Bytes()); !strings.HasSuffix(out, want) {
		t.Errorf("got\n%s\nwant it to end with\n%s", out, want)
	}
}

// TestApplyApprovals: in a file that records approval (XLIFF) a unit's
// approval is written and compared like its text; an approved unit
// stored as approved is left as it is.
func TestApplyApprovals(t *testing.T) {
	const in = `<xliff version="1.2"><file original="f"><body>
<trans-unit id="a" approved="yes"><source>A</source><target state="final">Ah</target></trans-unit>
<trans-unit id="b"><source>B</source><target state="translated">Beh</target></trans-unit>
<trans-unit id="c" approved="yes"><source>C</source><target state="final">Ceh</target></trans-unit>
</body></file></xliff>`
	f, err := xliff.Format{}.Parse([]byte(in), formats.Language{Code: "de"})
	if err != nil {
		t.Fatal(err)
	}
	units := []Unit{
		{Context: "f///a", Source: []string{"A"}, Target: []string{"Ah"}, State: weblate.StateApproved},
		{Context: "f///b", Source: []string{"B"}, Target: []string{"Beh"}, State: weblate.StateApproved},
		{Context: "f///c", Source: []string{"C"}, Target: []string{"Ceh"}, State: 20},
	}
	res, err := Apply(f, units, nil, Mode{Plurals: 2})
	if err != nil {
		t.Fatal(err)
	}
	want := `<xliff version="1.2"><file original="f"><body>
<trans-unit id="a" approved="yes"><source>A</source><target state="final">Ah</target></trans-unit>
<trans-unit id="b" approved="yes"><source>B</source><target state="final">Beh</target></trans-unit>
<trans-unit id="c" approved="no"><source>C</source><target state="translated">Ceh</target></trans-unit>
</body></file></xliff>`
	if got := string(f.Bytes()); res.Updated != 2 || got != want {
		t.Errorf("updated %d:\n%s", res.Updated, got)
	}
}
