package xliff2

import (
	"fmt"
	"os"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
)

func parse(t *testing.T, f Format, name, code string) *File {
	t.Helper()
	return formattest.Parse(t, f, name, code).(*File)
}

func describe(u *base.Unit) string {
	return fmt.Sprintf("%s|%s|%s|fuzzy=%v approved=%v|%q|%s|%s", u.Context, u.Source[0], u.Target[0], u.Fuzzy, u.Approved, u.Note, u.Flags, u.Location)
}

func TestUnits(t *testing.T) {
	for _, c := range []struct {
		format Format
		want   []string
	}{
		{Placeables, []string{
			`greeting|Hello, world!|Hallo, Welt!|fuzzy=false approved=true|"Shown on the start page\nKeep it short"|xml-text|`,
			`escapes|Tom &amp; Jerry &lt;3 "quoted" &gt; all é|Tom &amp; Jerry &lt;3 "zitiert" &gt; alle é|fuzzy=false approved=false|""|max-length:40, xml-text|`,
			`markup|Click <pc id="1" dataRefStart="b">here</pc> to <ph id="2" disp="{name}"/>  continue|Klicke <pc id="1" dataRefStart="b">hier</pc> um <ph id="2" disp="{name}"/>  fortzufahren|fuzzy=true approved=false|""|xml-text|`,
			`file|File|Datei|fuzzy=false approved=true|""|xml-text|`,
			`untranslated|Not yet translated||fuzzy=false approved=false|""|xml-text|`,
			`para::first|First sentence.|Erster Satz.|fuzzy=false approved=false|""|xml-text|`,
			`para::segment-2|Second sentence.||fuzzy=false approved=false|""|xml-text|`,
			`empty-target|Empty target||fuzzy=false approved=false|""|xml-text|`,
		}},
		{Plain, []string{
			`greeting|Hello, world!|Hallo, Welt!|fuzzy=false approved=true|"Shown on the start page\nKeep it short"||`,
			`escapes|Tom & Jerry <3 "quoted" > all é|Tom & Jerry <3 "zitiert" > alle é|fuzzy=false approved=false|""|max-length:40|`,
			`markup|Click here to   continue|Klicke hier um   fortzufahren|fuzzy=true approved=false|""||`,
			`file|File|Datei|fuzzy=false approved=true|""||`,
			`untranslated|Not yet translated||fuzzy=false approved=false|""||`,
			`para::first|First sentence.|Erster Satz.|fuzzy=false approved=false|""||`,
			`para::segment-2|Second sentence.||fuzzy=false approved=false|""||`,
			`empty-target|Empty target||fuzzy=false approved=false|""||`,
		}},
	} {
		t.Run(c.format.ID(), func(t *testing.T) {
			units := parse(t, c.format, "de.xlf", "de").Units()
			if len(units) != len(c.want) {
				t.Fatalf("%d units, want %d", len(units), len(c.want))
			}
			for i, u := range units {
				t.Run(u.Context, func(t *testing.T) {
					if got := describe(u); got != c.want[i] {
						t.Errorf("got  %s\nwant %s", got, c.want[i])
					}
				})
			}
		})
	}
}

// edits are the writes of the edit goldens: a value, fuzzy, approved.
type editCase struct {
	ctx, value      string
	fuzzy, approved bool
	back            string // the value read back, when not value
}

// readBack parses the rendering of f again and checks the edited units'
// target and state.
func readBack(t *testing.T, f *File, edits []editCase) {
	t.Helper()
	again, err := f.format.Parse(f.Bytes(), base.Language{Code: "de"})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		u := formattest.Find(t, again, e.ctx)
		value := e.value
		if e.back != "" {
			value = e.back
		}
		want := fmt.Sprintf("%s|fuzzy=%v approved=%v", value, e.fuzzy && e.value != "", e.approved && e.value != "")
		if got := fmt.Sprintf("%s|fuzzy=%v approved=%v", u.Target[0], u.Fuzzy, u.Approved); got != want {
			t.Errorf("%s reads back as %s, want %s", e.ctx, got, want)
		}
	}
}

func TestEditGolden(t *testing.T) {
	for _, c := range []struct {
		format Format
		golden string
		edits  []editCase
	}{
		{Placeables, "de.edit.golden", []editCase{
			{ctx: "untranslated", value: "Noch nicht übersetzt"},                                                           // new <target>, xml:space, state
			{ctx: "escapes", value: `Tom &amp; Jerry &lt;3 "zitiert" &gt; alle é`, approved: true},                         // same text: state only
			{ctx: "markup", value: `Klicke <pc id="1" dataRefStart="b">hier</pc>`},                                         // initial → translated
			{ctx: "greeting", value: ""},                                                                                   // emptied: <target> goes
			{ctx: "para::segment-2", value: "Zweiter <Satz> & mehr", fuzzy: true, back: "Zweiter &lt;Satz&gt; &amp; mehr"}, // not XML: escaped whole
			{ctx: "file", value: "Datei", approved: true},                                                                  // unchanged: keeps its bytes
		}},
		{Plain, "de.plain-edit.golden", []editCase{
			{ctx: "untranslated", value: "Noch nicht übersetzt"},
			{ctx: "escapes", value: `Tom & Jerry <3 "zitiert"`, approved: true},
			{ctx: "markup", value: `Klicke <pc id="1">hier</pc>`},
			{ctx: "para::first", value: "Erster Satz!"}, // a state added to a segment without one
		}},
	} {
		t.Run(c.format.ID(), func(t *testing.T) {
			f := parse(t, c.format, "de.xlf", "de")
			for _, e := range c.edits {
				if err := f.SetTargetApproved(formattest.Find(t, f, e.ctx), []string{e.value}, e.fuzzy, e.approved); err != nil {
					t.Fatal(err)
				}
			}
			formattest.Golden(t, c.golden, f.Bytes())
			readBack(t, f, c.edits)
		})
	}
}

func TestSetTargetErrors(t *testing.T) {
	f := parse(t, Placeables, "de.xlf", "de")
	u := formattest.Find(t, f, "file")
	for name, err := range map[string]error{
		"two forms":    f.SetTarget(u, []string{"a", "b"}, false),
		"control char": f.SetTarget(u, []string{"a\x01"}, false),
		"foreign unit": f.SetTarget(&base.Unit{Context: "x"}, []string{"a"}, false),
		"other file":   parse(t, Placeables, "fr.xlf", "fr").SetTarget(u, []string{"a"}, false),
	} {
		t.Run(name, func(t *testing.T) {
			if err == nil {
				t.Error("accepted")
			}
		})
	}
	if got := string(f.Bytes()); got != string(parse(t, Placeables, "de.xlf", "de").Bytes()) {
		t.Errorf("a refused edit changed the file:\n%s", got)
	}
}

func TestAddRemove(t *testing.T) {
	for _, c := range []struct {
		format       Format
		file, golden string
	}{
		{Placeables, "fr.xlf", "fr.add.golden"},
		{Plain, "de.xlf", "de.add.golden"},
	} {
		t.Run(c.golden, func(t *testing.T) {
			f := parse(t, c.format, c.file, "fr")
			if err := f.Add(&base.Unit{Context: "added", Source: []string{"New & <b>"}, Target: []string{"Neu"}}); err != nil {
				t.Fatal(err)
			}
			if err := f.Add(&base.Unit{Context: "fuzzy::s1", Source: []string{"Fuzzy"}, Target: []string{"Unscharf"}, Fuzzy: true}); err != nil {
				t.Fatal(err)
			}
			if err := f.Add(&base.Unit{Context: "empty", Source: []string{"Empty"}}); err != nil {
				t.Fatal(err)
			}
			if !f.Remove(formattest.Find(t, f, "greeting")) {
				t.Fatal("remove failed")
			}
			if f.Remove(&base.Unit{}) {
				t.Error("a foreign unit was removed")
			}
			formattest.Golden(t, c.golden, f.Bytes())
			again, err := c.format.Parse(f.Bytes(), base.Language{Code: "fr"})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := formattest.Units(again, " "), formattest.Units(f, " "); got != want {
				t.Errorf("read back as %s, want %s", got, want)
			}
			if u := formattest.Find(t, again, "fuzzy::s1"); !u.Fuzzy {
				t.Errorf("added fuzzy unit reads back as %s", describe(u))
			}
			if err := f.Add(&base.Unit{Context: "x"}); err == nil {
				t.Error("a unit without source was added")
			}
		})
	}
	if err := parse(t, Plain, "fr.xlf", "fr").Add(&base.Unit{Context: "x", Source: []string{"a\x02"}}); err == nil {
		t.Error("a source with a control character was added")
	}
	f, err := Plain.Parse([]byte(`<xliff version="2.0"/>`), base.Language{Code: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Add(&base.Unit{Context: "x", Source: []string{"a"}}); err == nil {
		t.Error("a unit was added to a file without <file>")
	}
}

func TestNewTranslation(t *testing.T) {
	data, err := os.ReadFile("testdata/de.xlf")
	if err != nil {
		t.Fatal(err)
	}
	out, err := Placeables.NewTranslation(data, base.Language{Code: "pt_BR"})
	if err != nil {
		t.Fatal(err)
	}
	formattest.Golden(t, "de.new-pt_BR.golden", out)
	f, err := Placeables.Parse(out, base.Language{Code: "pt_BR"})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range f.Units() {
		if u.Target[0] != "" || u.Approved || u.Fuzzy {
			t.Errorf("%s is not empty: %s", u.Context, describe(u))
		}
	}
	if _, err := Plain.NewTranslation(nil, base.Language{Code: "de"}); err == nil {
		t.Error("a new translation without template was created")
	}
}

func TestMalformed(t *testing.T) {
	for _, in := range []string{``, `<xliff>`, `<other/>`, `x<xliff version="2.0"/>`,
		`<xliff version="1.2"><file><body/></file></xliff>`,
		`<xliff xmlns="urn:oasis:names:tc:xliff:document:1.2"><file><body/></file></xliff>`,
		`<xliff version="2.0"><file id="f"><unit id="a"><segment><source>&nbsp;</source></segment></unit></file></xliff>`,
		"<xliff version=\"2.0\"><file id=\"f\">\xff</file></xliff>"} {
		t.Run(in, func(t *testing.T) {
			if _, err := Plain.Parse([]byte(in), base.Language{Code: "de"}); err == nil {
				t.Errorf("Parse(%q) succeeded", in)
			}
		})
	}
}

func TestDescribeFormat(t *testing.T) {
	for _, c := range []struct {
		f        Format
		id, name string
	}{
		{Plain, "xliff2", "XLIFF 2.0 translation file"},
		{Placeables, "xliff2-placeables", "XLIFF 2.0 with placeables support"},
	} {
		t.Run(c.id, func(t *testing.T) {
			if c.f.ID() != c.id || c.f.Name() != c.name || c.f.Monolingual() || c.f.ContentType() != "application/x-xliff+xml" {
				t.Errorf("format %s %q mono=%v %s", c.f.ID(), c.f.Name(), c.f.Monolingual(), c.f.ContentType())
			}
		})
	}
}
