package xliff

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
)

func parse(t *testing.T, name string) *File {
	t.Helper()
	return formattest.Parse(t, Format{}, name, "de").(*File)
}

func describe(u *base.Unit) string {
	return fmt.Sprintf("%s|%s|%s|fuzzy=%v approved=%v|%q|%s|%s", u.Context, u.Source[0], u.Target[0], u.Fuzzy, u.Approved, u.Note, u.Flags, u.Location)
}

func TestUnits(t *testing.T) {
	f := parse(t, "de.xliff")
	want := []string{
		`app.php///greeting|Hello, world!|Hallo, Welt!|fuzzy=false approved=true|"Shown on the start page"|xml-text|src/app.php:12`,
		`app.php///escapes|Tom &amp; Jerry &lt;3 "quoted" &gt; all|Tom &amp; Jerry &lt;3 "zitiert" &gt; alle|fuzzy=false approved=false|""|max-length:40, xml-text|`,
		`app.php///markup|Click <g id="1" ctype="bold">here</g> to <x id="2" equiv-text="name"/>  continue|Klicke <g id="1" ctype="bold">hier</g> um <x id="2" equiv-text="name"/>  fortzufahren|fuzzy=true approved=false|"Inline markup\nSecond note"|xml-text|`,
		`app.php///review|Delete %s?|%s löschen?|fuzzy=false approved=false|""|c-format, placeholders:%s, xml-text|`,
		`app.php///untranslated|Not yet translated||fuzzy=false approved=false|""|xml-text|`,
		`app.php///empty-target|Empty target||fuzzy=false approved=false|""|xml-text|`,
		`menu.file|File|Datei|fuzzy=false approved=false|""|xml-text|`,
		`menu.php///quit|Quit|Beenden &amp; &lt;raus&gt;|fuzzy=false approved=false|""|xml-text|`,
	}
	units := f.Units()
	if len(units) != len(want) {
		t.Fatalf("%d units, want %d", len(units), len(want))
	}
	for i, u := range units {
		t.Run(u.Context, func(t *testing.T) {
			if got := describe(u); got != want[i] {
				t.Errorf("got  %s\nwant %s", got, want[i])
			}
		})
	}
}

func TestEditGolden(t *testing.T) {
	f := parse(t, "de.xliff")
	edits := []struct {
		ctx             string
		value           string
		fuzzy, approved bool
	}{
		{"app.php///escapes", `Tom & Jerry <3 "zitiert"`, false, false},              // not XML: escaped whole
		{"app.php///markup", `Klicke <g id="1" ctype="bold">hier</g>`, false, false}, // fuzzy → translated
		{"app.php///untranslated", "Noch nicht übersetzt", true, false},              // new <target>
		{"app.php///greeting", "", false, false},                                     // emptied: <target> goes, approval too
		{"app.php///review", "%s löschen?", false, true},                             // approved, same text
		{"menu.file", "Datei", false, false},                                         // unchanged: keeps its bytes
	}
	for _, e := range edits {
		if err := f.SetTargetApproved(formattest.Find(t, f, e.ctx), []string{e.value}, e.fuzzy, e.approved); err != nil {
			t.Fatal(err)
		}
	}
	formattest.Golden(t, "de.edit.golden", f.Bytes())
	again, err := Format{}.Parse(f.Bytes(), base.Language{Code: "de"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"app.php///escapes":      `Tom &amp; Jerry &lt;3 "zitiert"|fuzzy=false approved=false`,
		"app.php///markup":       `Klicke <g id="1" ctype="bold">hier</g>|fuzzy=false approved=false`,
		"app.php///untranslated": "Noch nicht übersetzt|fuzzy=true approved=false",
		"app.php///greeting":     "|fuzzy=false approved=false",
		"app.php///review":       "%s löschen?|fuzzy=false approved=true",
	}
	for ctx, w := range want {
		u := formattest.Find(t, again, ctx)
		if got := fmt.Sprintf("%s|fuzzy=%v approved=%v", u.Target[0], u.Fuzzy, u.Approved); got != w {
			t.Errorf("%s reads back as %s, want %s", ctx, got, w)
		}
	}
	if err := f.SetTarget(formattest.Find(t, f, "menu.file"), []string{"a", "b"}, false); err == nil {
		t.Error("two forms were accepted")
	}
}

func TestAddRemove(t *testing.T) {
	f := parse(t, "de.xliff")
	if err := f.Add(&base.Unit{Context: "added", Source: []string{"New & <b>"}, Target: []string{"Neu"}}); err != nil {
		t.Fatal(err)
	}
	if err := f.Add(&base.Unit{Context: "fuzzy", Source: []string{"Fuzzy"}, Target: []string{"Unscharf"}, Fuzzy: true}); err != nil {
		t.Fatal(err)
	}
	if !f.Remove(formattest.Find(t, f, "app.php///review")) || !f.Remove(formattest.Find(t, f, "menu.file")) {
		t.Fatal("remove failed")
	}
	if f.Remove(&base.Unit{}) {
		t.Error("a foreign unit was removed")
	}
	formattest.Golden(t, "de.add.golden", f.Bytes())
	again, err := Format{}.Parse(f.Bytes(), base.Language{Code: "de"})
	if err != nil {
		t.Fatal(err)
	}
	if u := formattest.Find(t, again, "app.php///added"); u.Source[0] != "New &amp; &lt;b&gt;" || u.Target[0] != "Neu" || u.Fuzzy {
		t.Errorf("added unit reads back as %s", describe(u))
	}
	if u := formattest.Find(t, again, "app.php///fuzzy"); !u.Fuzzy {
		t.Errorf("added fuzzy unit reads back as %s", describe(u))
	}
	if len(again.Units()) != len(f.Units()) {
		t.Errorf("%d units read back, want %d", len(again.Units()), len(f.Units()))
	}
	if err := f.Add(&base.Unit{Context: "x"}); err == nil {
		t.Error("a unit without source was added")
	}
}

func TestNewTranslation(t *testing.T) {
	data, err := os.ReadFile("testdata/de.xliff")
	if err != nil {
		t.Fatal(err)
	}
	out, err := Format{}.NewTranslation(data, base.Language{Code: "pt_BR"})
	if err != nil {
		t.Fatal(err)
	}
	formattest.Golden(t, "de.new-pt_BR.golden", out)
	f, err := Format{}.Parse(out, base.Language{Code: "pt_BR"})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range f.Units() {
		if u.Target[0] != "" || u.Approved || u.Fuzzy {
			t.Errorf("%s is not empty: %s", u.Context, describe(u))
		}
	}
	if _, err := (Format{}).NewTranslation(nil, base.Language{Code: "de"}); err == nil {
		t.Error("a new translation without template was created")
	}
}

func TestMalformed(t *testing.T) {
	for _, in := range []string{``, `<xliff>`, `<other/>`, `<xliff version="1.2"></xliff>`,
		`<xliff version="2.0"><file id="f"><unit id="1"/></file></xliff>`,
		`<xliff><file><body><trans-unit id="a"><source>&nbsp;</source></trans-unit></body></file></xliff>`,
		"<xliff><file><body>\xff</body></file></xliff>", `x<xliff/>`} {
		t.Run(in, func(t *testing.T) {
			if _, err := (Format{}).Parse([]byte(in), base.Language{Code: "de"}); err == nil {
				t.Errorf("Parse(%q) succeeded", in)
			}
		})
	}
}

func TestDescribeFormat(t *testing.T) {
	f := Format{}
	if f.ID() != "xliff" || f.Monolingual() || !strings.HasPrefix(f.Name(), "XLIFF 1.2") {
		t.Errorf("format %s %q mono=%v", f.ID(), f.Name(), f.Monolingual())
	}
}

// TestAddContextOfTheFile: a unit added with a context as the file gives
// its units (original, "///", id) is written with that id and reads back
// with that context, not with the original twice.
func TestAddContextOfTheFile(t *testing.T) {
	f := formattest.Parse(t, Format{}, "de.xliff", "de").(*File)
	u := &base.Unit{Context: "app.php///added", Source: []string{"New"}, Target: []string{"Neu"}}
	if err := f.Add(u); err != nil {
		t.Fatal(err)
	}
	if u.Context != "app.php///added" || !strings.Contains(string(f.Bytes()), `<trans-unit xml:space="preserve" id="added" approved="no">`) {
		t.Errorf("added unit %s:\n%s", describe(u), f.Bytes())
	}
	again, err := Format{}.Parse(f.Bytes(), base.Language{Code: "de"})
	if err != nil {
		t.Fatal(err)
	}
	if got := formattest.Find(t, again, "app.php///added"); got.Target[0] != "Neu" {
		t.Errorf("added unit reads back as %s", describe(got))
	}
}

// TestTranslateNo: a trans-unit with translate="no" is ReadOnly, as
// translate-toolkit's istranslatable answers; the attribute elsewhere
// (on a group) does not count, and "yes" is translatable.
func TestTranslateNo(t *testing.T) {
	doc := `<?xml version="1.0" encoding="UTF-8"?>
<xliff version="1.2" xmlns="urn:oasis:names:tc:xliff:document:1.2">
  <file original="a" source-language="en" target-language="de" datatype="plaintext">
    <body>
      <trans-unit id="brand" translate="no"><source>Acme</source><target>Acme</target></trans-unit>
      <trans-unit id="hello" translate="yes"><source>Hello</source></trans-unit>
      <group translate="no">
        <trans-unit id="bye"><source>Bye</source></trans-unit>
      </group>
    </body>
  </file>
</xliff>
`
	f, err := Format{}.Parse([]byte(doc), base.Language{Code: "de"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"a///brand": true, "a///hello": false, "a///bye": false}
	for _, u := range f.Units() {
		if u.ReadOnly != want[u.Context] {
			t.Errorf("%s: ReadOnly %v, want %v", u.Context, u.ReadOnly, want[u.Context])
		}
		delete(want, u.Context)
	}
	if len(want) != 0 {
		t.Errorf("units not read: %v", want)
	}
}
