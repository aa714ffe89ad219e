package properties

import (
	"os"
	"strings"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
	"github.com/tmsproject/tms/services/translation/formats/internal/textenc"
)

func parse(t *testing.T, f Format, name string) *File {
	t.Helper()
	return formattest.Parse(t, f, name, "de").(*File)
}

func TestUnits(t *testing.T) {
	f := parse(t, ISO, "messages.properties")
	want := `app.title=Hello, World!
app.welcome=Welcome, {0}!
Enjoy.
colon.key=value with a colon
space.key=value after a space
escaped\ key\:x=escaped key
long.text=This is a long text on three lines
unicode=Café ☕
leading=  padded
trailing=trailing  
empty=
only.key=
backslash=C:\temp\new
quotes=It's "quoted" 'here'
tab=a	b
last=end`
	if got := formattest.Units(f, "\n"); got != want {
		t.Errorf("units\n%s\nwant\n%s", got, want)
	}
	for key, want := range map[string]string{
		"app.title":   "# Title of the main window",
		"app.welcome": "",
		"colon.key":   "! A bang comment",
		"space.key":   "",
		"last":        "// a slash comment\n; a semicolon comment\n/* a block\n   comment */",
	} {
		if got := formattest.Find(t, f, key).Note; got != want {
			t.Errorf("%s: note %q, want %q", key, got, want)
		}
	}
	de := parse(t, ISO, "messages_de.properties")
	if got := formattest.Units(de, "|"); got != "app.title=Hallo, Welt!|app.welcome=Willkommen, {0}!\nViel Spaß.|unicode=Café" {
		t.Errorf("ISO-8859-1 file: %q", got)
	}
	cs := parse(t, UTF8, "messages_cs.properties")
	if got := formattest.Units(cs, "|"); got != "app.title=Ahoj, světe!|unicode=Kavárna ☕" {
		t.Errorf("UTF-8 file: %q", got)
	}
	if n := formattest.Find(t, cs, "app.title").Note; n != "" {
		t.Errorf("the header became a note: %q", n)
	}
	blankNote, _ := ISO.Parse([]byte("a=1\n\n# about b\nb=2\n"), base.Language{})
	if n := formattest.Find(t, blankNote, "b").Note; n != "\n# about b" {
		t.Errorf("a note after a blank line = %q", n)
	}
}

func TestDecode(t *testing.T) {
	for in, want := range map[string]string{
		`a\nb\tc\rd\fe`:    "a\nb\tc\rd\fe",
		`\\\'\"\:\=\ \#`:   `\'":= #`,
		`\u00e9\U00E9\u41`: "ééA",
		`\uzz`:             "\x00zz",
		`\ud83d\ude00`:     "😀",
		`\ud83d!`:          "\ufffd!",
		`end\`:             `end\`,
		`\Nx`:              `\Nx`,
		`\N{x`:             `\Nx`,
	} {
		got, err := decode([]rune(in))
		if err != nil || got != want {
			t.Errorf("decode(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	if _, err := decode([]rune(`\N{BULLET}`)); err == nil {
		t.Error("a named escape was decoded")
	}
}

func TestEncode(t *testing.T) {
	for in, want := range map[string][2]string{
		" lead é":   {`\ lead \u00E9`, " lead é"},
		"a\\b\n\t":  {`a\\b\n\t`, `a\\b\n\t`},
		"\x01\x0b":  {`\u0001\u000b`, `\u0001\u000b`},
		"☕ 😀":       {`\u2615 \uD83D\uDE00`, "☕ 😀"},
		"=:#!'\"":   {"=:#!'\"", "=:#!'\""},
		"trailing ": {"trailing ", "trailing "},
	} {
		if got := encodeISO(in); got != want[0] {
			t.Errorf("encodeISO(%q) = %q; want %q", in, got, want[0])
		}
		if got := encodeUTF8(in); got != want[1] {
			t.Errorf("encodeUTF8(%q) = %q; want %q", in, got, want[1])
		}
	}
}

func set(t *testing.T, f base.File, key, value string) {
	t.Helper()
	if err := f.SetTarget(formattest.Find(t, f, key), []string{value}, false); err != nil {
		t.Fatal(err)
	}
}

func TestEditGolden(t *testing.T) {
	f := parse(t, ISO, "messages.properties")
	for key, v := range map[string]string{
		"app.title":         "Hello, \"Java\" ✓",
		"long.text":         "Now one line",
		"leading":           " still padded",
		"only.key":          "a value",
		"escaped\\ key\\:x": "x\\y",
		"space.key":         "",
		"tab":               "a\tb", // unchanged: keeps its bytes
		"last":              "end\n",
	} {
		set(t, f, key, v)
	}
	formattest.Golden(t, "messages.edit.golden", f.Bytes())
	again, err := ISO.Parse(f.Bytes(), base.Language{})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range again.Units() {
		if want := formattest.Find(t, f, u.Context).Target; strings.Join(want, "|") != strings.Join(u.Target, "|") {
			t.Errorf("%s reads back as %q, want %q", u.Context, u.Target, want)
		}
	}

	de := parse(t, ISO, "messages_de.properties")
	set(t, de, "app.welcome", "Grüß dich, {0}!")
	want := strings.Replace(readFile(t, "messages_de.properties"), `Willkommen, {0}!\nViel Spa\u00DF.`, `Gr\u00FC\u00DF dich, {0}!`, 1)
	if got := string(de.Bytes()); got != want {
		t.Errorf("an edit of a CRLF ISO-8859-1 file:\n%q\nwant\n%q", got, want)
	}
	cs := parse(t, UTF8, "messages_cs.properties")
	set(t, cs, "unicode", "Kavárna\t☕")
	if got := string(cs.Bytes()); got != "\ufeff# Czech\n\napp.title=Ahoj, světe!\nunicode : Kavárna\\t☕\n" {
		t.Errorf("an edit of a UTF-8 file:\n%q", got)
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func TestAddRemove(t *testing.T) {
	f := parse(t, ISO, "messages.properties")
	if err := f.Add(&base.Unit{Context: "new.key", Target: []string{"Neü"}}); err != nil {
		t.Fatal(err)
	}
	if err := f.Add(&base.Unit{Context: "gone", Target: []string{"x"}}); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{"app.title", "long.text", "last", "gone"} {
		if !f.Remove(formattest.Find(t, f, key)) {
			t.Fatalf("remove %s failed", key)
		}
	}
	formattest.Golden(t, "messages.add.golden", f.Bytes())
	for _, bad := range []string{"new.key", "", "a b", "a=b", "#x", "ü", "a\nb"} {
		if err := f.Add(&base.Unit{Context: bad, Target: []string{"x"}}); err == nil {
			t.Errorf("key %q was added", bad)
		}
	}
	if err := f.Add(&base.Unit{Context: "x", Target: []string{"1", "2"}}); err == nil {
		t.Error("a plural was added")
	}
	utf, _ := UTF8.Parse(nil, base.Language{})
	if err := utf.Add(&base.Unit{Context: "ключ", Target: []string{"значение"}}); err != nil {
		t.Fatal(err)
	}
	if got := string(utf.Bytes()); got != "ключ=значение\n" {
		t.Errorf("added to an empty file: %q", got)
	}
	de := parse(t, ISO, "messages_de.properties")
	if !de.Remove(formattest.Find(t, de, "app.title")) || de.Remove(formattest.Find(t, f, "empty")) {
		t.Error("remove")
	}
	if got := string(de.Bytes()); got != strings.Replace(readFile(t, "messages_de.properties"), "app.title=Hallo, Welt!\r\n", "", 1) {
		t.Errorf("removed from de: %q", got)
	}
}

func TestNewTranslation(t *testing.T) {
	out, err := ISO.NewTranslation([]byte(readFile(t, "messages.properties")), base.Language{Code: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	formattest.Golden(t, "messages.new.golden", out)
	f, err := ISO.Parse(out, base.Language{Code: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Units()) != 15 {
		t.Errorf("%d units", len(f.Units()))
	}
	for _, u := range f.Units() {
		if u.Target[0] != "" {
			t.Errorf("%s is not empty: %q", u.Context, u.Target)
		}
	}
	if out, _ := UTF8.NewTranslation(nil, base.Language{Code: "fr"}); string(out) != "\n" {
		t.Errorf("empty new file = %q", out)
	}
}

func TestMalformed(t *testing.T) {
	if _, err := UTF8.Parse([]byte("a=\xff\n"), base.Language{}); err == nil {
		t.Error("invalid UTF-8 was read as UTF-8")
	}
	if _, err := ISO.Parse([]byte("a=\\N{BULLET}\n"), base.Language{}); err == nil {
		t.Error("a named escape was read")
	}
	f, err := ISO.Parse([]byte("a=caf\xe9\n"), base.Language{})
	if err != nil || f.Units()[0].Target[0] != "café" {
		t.Errorf("ISO-8859-1: %v %v", err, f)
	}
}

func TestEncodings(t *testing.T) {
	for _, c := range []struct {
		f    Format
		in   string
		want string
	}{
		{ISO, "k=caf\xc3\xa9", "cafÃ©"},
		{ISO, "\ufeffk=café", "café"},
		{UTF8, "\ufeffk=café", "café"},
		{UTF8, "k=café", "café"},
	} {
		file, err := c.f.Parse([]byte(c.in), base.Language{})
		if err != nil || file.Units()[0].Target[0] != c.want {
			t.Errorf("%s %q: %v %v, want %q", c.f.ID(), c.in, err, file, c.want)
		}
	}
	if _, err := ISO.Parse([]byte("\ufeffk=caf\xe9"), base.Language{}); err == nil {
		t.Error("invalid UTF-8 after a byte order mark was read")
	}
}

func TestUTF16(t *testing.T) {
	f := parse(t, UTF16, "messages_utf16.properties")
	want := "app.title=Ahoj, světe!|app.welcome=Vítej, {0}!Užij si to.|emoji=☕ 😀|escaped=tab\there\nline"
	if got := formattest.Units(f, "|"); got != want {
		t.Errorf("units %q, want %q", got, want)
	}
	if n := formattest.Find(t, f, "app.title").Note; n != "# Window title" {
		t.Errorf("note %q", n)
	}
	for key, value := range map[string]string{"app.title": "Hallo, Welt! ☕", "emoji": "tab\t😀\nnew"} {
		if err := f.SetTarget(formattest.Find(t, f, key), []string{value}, false); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Add(&base.Unit{Context: "added", Target: []string{"Grüße"}}); err != nil {
		t.Fatal(err)
	}
	out := f.Bytes()
	formattest.Golden(t, "messages_utf16.edit.golden", out)
	again, err := UTF16.Parse(out, base.Language{})
	if err != nil {
		t.Fatal(err)
	}
	if got := formattest.Find(t, again, "emoji").Target[0]; got != "tab\t😀\nnew" {
		t.Errorf("edited value reads back as %q", got)
	}
}

func TestUTF16Encodings(t *testing.T) {
	le := func(s string) string { return string(textenc.Encode(s, textenc.UTF16LE)) }
	for _, c := range []struct {
		name string
		enc  textenc.Encoding
	}{
		{"little-endian with BOM", textenc.UTF16LEBOM},
		{"big-endian with BOM", textenc.UTF16BEBOM},
		{"little-endian without BOM", textenc.UTF16LE},
		{"UTF-8 with BOM", textenc.UTF8BOM},
	} {
		t.Run(c.name, func(t *testing.T) {
			file, err := UTF16.Parse(textenc.Encode("# c\nk=café\n", c.enc), base.Language{})
			if err != nil {
				t.Fatal(err)
			}
			u := file.Units()[0]
			if u.Target[0] != "café" {
				t.Errorf("value %q", u.Target[0])
			}
			if err := file.SetTarget(u, []string{"čaj\n"}, false); err != nil {
				t.Fatal(err)
			}
			if got, want := file.Bytes(), textenc.Encode("# c\nk=čaj\\n\n", c.enc); string(got) != string(want) {
				t.Errorf("edited file % x, want % x", got, want)
			}
		})
	}
	for name, in := range map[string]string{
		"odd length":     "\xff\xfek\x00=",
		"lone surrogate": "\xff\xfek\x00=\x00\x00\xd8",
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := UTF16.Parse([]byte(in), base.Language{}); err == nil {
				t.Error("malformed UTF-16 was read")
			}
		})
	}
	out, err := UTF16.NewTranslation(nil, base.Language{Code: "fr"})
	if err != nil || string(out) != string(textenc.Encode("\n", textenc.UTF16LEBOM)) {
		t.Errorf("empty new file = %q %v", out, err)
	}
	out, err = UTF16.NewTranslation([]byte(le("a=b\n")), base.Language{Code: "fr"})
	if err != nil || string(out) != le("a=\n") {
		t.Errorf("new file = %q %v", out, err)
	}
}
