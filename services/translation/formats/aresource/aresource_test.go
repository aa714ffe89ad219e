package aresource

import (
	"os"
	"strings"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
)

func parse(t *testing.T, name, code string) *File {
	t.Helper()
	return formattest.Parse(t, Format{}, name, code).(*File)
}

func TestUnits(t *testing.T) {
	f := parse(t, "strings.xml", "en")
	want := `title=Hello, World!
apostrophe=Don't "quote" me
question=?Really? @home
multiline=First line
Second	line
spaces=  padded  
collapsed=a b c
cdata=<b>bold</b> & more
html=Tap <b>here</b> to <xliff:g id="action">%1$s</xliff:g>'s page
empty=
entity=Tom & Jerry <3
files=%d file|%d files
unicode=café ✓`
	if got := formattest.Units(f, "\n"); got != want {
		t.Errorf("units\n%s\nwant\n%s", got, want)
	}
	if n := formattest.Find(t, f, "title").Note; n != " Title of the main screen " {
		t.Errorf("note = %q", n)
	}
	if n := formattest.Find(t, f, "files").Note; n != " Plural of files \n second note line " {
		t.Errorf("note = %q", n)
	}
	ru := parse(t, "values-de.xml", "ru")
	if got := strings.Join(formattest.Find(t, ru, "files").Target, "|"); got != "%d Datei||" {
		t.Errorf("ru plural forms by category = %q", got)
	}
}

func TestUnescape(t *testing.T) {
	for in, want := range map[string]string{
		`a\nb`:              "a\nb",
		"a \\nb":            "a\nb",
		`\u0041\u00`:        "A\x00",
		`"a  b"  c`:         "a  b c",
		`  x  `:             "x ", // the reference's index shift keeps one space
		`x\\y\z`:            `x\y`,
		`50%`:               "50%",
		`\'\"\@\?\ \t`:      "'\"@? \t",
		"\"\n  multi \n \"": "\n  multi \n ",
	} {
		got, err := unescape(in, true)
		if err != nil || got != want {
			t.Errorf("unescape(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := unescape(`\uzz12`, true); err == nil {
		t.Error("a bad unicode escape was accepted")
	}
}

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"Don't":       `Don\'t`,
		"@home?":      `\@home\?`,
		"a\nb\tc":     "a\n\\nb\\tc",
		" lead":       `" lead"`,
		"two  spaces": `"two  spaces"`,
		`back\slash"`: `back\\slash\"`,
		"":            "",
	} {
		if got := escape(in, true); got != want {
			t.Errorf("escape(%q) = %q; want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"a & b":                "a &amp; b",
		"<b>x's</b>  y":        `<b>x\'s</b> \u0020y`,
		"<unclosed & '":        `&lt;unclosed &amp; \'`,
		`<a href="u">l</a>`:    `<a href="u">l</a>`,
		"1 > 0":                "1 &gt; 0",
		"<br/> @x <i></i>":     `<br/> @x <i/>`,
		"&amp; & <g a='1'/>\r": "&amp;amp; &amp; &lt;g a=\\'1\\'/&gt;&#13;",
	} {
		got, err := writeValue(in)
		if err != nil || got != want {
			t.Errorf("writeValue(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := writeValue("a\x01"); err == nil {
		t.Error("a control character was written")
	}
}

func TestEditGolden(t *testing.T) {
	f := parse(t, "strings.xml", "en")
	for ctx, v := range map[string]string{
		"title":     "Hello, \"Android\"?\nIt's @me",
		"html":      "Tap <b>there</b>  now &amp; <xliff:g id=\"action\">%1$s</xliff:g>",
		"empty":     " now set ",
		"question":  "?Really? @home", // unchanged: keeps its bytes
		"cdata":     "<b>bold</b> & less",
		"collapsed": "a b c",
	} {
		if err := f.SetTarget(formattest.Find(t, f, ctx), []string{v}, false); err != nil {
			t.Fatal(err)
		}
	}
	formattest.Golden(t, "strings.edit.golden", f.Bytes())
	again, err := Format{}.Parse(f.Bytes(), base.Language{Code: "en"})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range again.Units() {
		if want := formattest.Find(t, f, u.Context).Target; strings.Join(want, "|") != strings.Join(u.Target, "|") {
			t.Errorf("%s reads back as %q, want %q", u.Context, u.Target, want)
		}
	}

	ru := parse(t, "values-de.xml", "ru")
	if err := ru.SetTarget(formattest.Find(t, ru, "files"), []string{"%d файл", "%d файла", "%d файлов"}, false); err != nil {
		t.Fatal(err)
	}
	formattest.Golden(t, "values-ru.golden", ru.Bytes())

	de := parse(t, "values-de.xml", "de")
	if err := de.SetTarget(formattest.Find(t, de, "files"), []string{"%d Datei", "%d Dateien!"}, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(de.Bytes()), "    <item quantity=\"one\">%d Datei</item>\n    <item quantity=\"other\">%d Dateien!</item>\n") {
		t.Errorf("a plural edit rewrote more than its item:\n%s", de.Bytes())
	}
}

func TestAddRemove(t *testing.T) {
	f := parse(t, "values-de.xml", "de")
	if err := f.Add(&base.Unit{Context: "new", Target: []string{"Neu's"}}); err != nil {
		t.Fatal(err)
	}
	if err := f.Add(&base.Unit{Context: "cats", Target: []string{"%d Katze", "%d Katzen"}}); err != nil {
		t.Fatal(err)
	}
	if !f.Remove(formattest.Find(t, f, "title")) {
		t.Fatal("remove failed")
	}
	formattest.Golden(t, "values-de.add.golden", f.Bytes())
	if err := f.Add(&base.Unit{Context: "new", Target: []string{"x"}}); err == nil {
		t.Error("an existing name was added again")
	}
	empty, err := Format{}.Parse([]byte(skeleton), base.Language{Code: "de"})
	if err != nil {
		t.Fatal(err)
	}
	if err := empty.Add(&base.Unit{Context: "a", Target: []string{"b"}}); err != nil {
		t.Fatal(err)
	}
	want := "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources>\n    <string name=\"a\">b</string>\n</resources>"
	if got := string(empty.Bytes()); got != want {
		t.Errorf("added to the empty file:\n%s", got)
	}
	closed, _ := Format{}.Parse([]byte("<resources/>\n"), base.Language{Code: "de"})
	if err := closed.Add(&base.Unit{Context: "a", Target: []string{"b"}}); err != nil {
		t.Fatal(err)
	}
	if got := string(closed.Bytes()); got != "<resources>\n    <string name=\"a\">b</string>\n</resources>\n" {
		t.Errorf("added to <resources/>:\n%s", got)
	}
}

func TestNewTranslation(t *testing.T) {
	data, _ := os.ReadFile("testdata/strings.xml")
	out, err := Format{}.NewTranslation(data, base.Language{Code: "ru"})
	if err != nil {
		t.Fatal(err)
	}
	formattest.Golden(t, "strings.new-ru.golden", out)
	f, err := Format{}.Parse(out, base.Language{Code: "ru"})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range f.Units() {
		if strings.Join(u.Target, "") != "" {
			t.Errorf("%s is not empty: %q", u.Context, u.Target)
		}
	}
	if out, _ := (Format{}).NewTranslation(nil, base.Language{Code: "de"}); string(out) != skeleton {
		t.Errorf("empty new file = %q", out)
	}
}

func TestMalformed(t *testing.T) {
	for _, in := range []string{``, `<resources>`, `<other/>`, `<resources></other>`, `<resources/><resources/>`,
		`<resources>&nbsp;</resources>`, `x<resources/>`, `<resources><string name="a">\u12g</string></resources>`,
		`<resources><string name="a">\uqqqq</string></resources>`, "<resources>\xff</resources>"} {
		if _, err := (Format{}).Parse([]byte(in), base.Language{Code: "en"}); err == nil {
			t.Errorf("Parse(%q) succeeded", in)
		}
	}
}
