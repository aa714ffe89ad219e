package e2e

import (
	"fmt"
	"strings"
	"testing"
)

// propertiesFixture is a Java resource bundle, its files encoded by enc
// and its non-ASCII values written by esc: an English template with a
// header, notes, separators "=", ":" and " = ", a continued line and
// escapes; a German translation with a raw non-ASCII character and a \u
// escape; a partial Russian one.
func propertiesFixture(enc, esc func(string) string) map[string][]byte {
	return map[string][]byte{
		"src/main/resources/messages.properties": []byte(enc(`# Demo application messages
# Copyright the authors

# Window title
app.title = Hello, World!
app.welcome=Welcome, {0}!\nEnjoy.
! {0} is a player
greeting : It's {0}'s turn
long.text = This is a long \
    text
unicode=` + esc("Café ☕") + "\n")),
		"src/main/resources/messages_de.properties": []byte(enc("# Demo-Anwendung\n\n# Fenstertitel\napp.title = Hallo, Welt! Grüße\n" +
			"app.welcome=Willkommen, {0}!\\nViel Spa\\u00DF.\ngreeting : {0} ist dran\n" +
			"long.text = Dies ist ein langer \\\n    Text\nunicode=Caf\\u00e9 \\u2615\n")),
		"src/main/resources/messages_ru.properties": []byte(enc("app.title=" + esc("Привет, мир!") + "\nunicode=\n")),
	}
}

// latin1 is s in ISO-8859-1 (s has no character beyond U+00FF).
func latin1(s string) string {
	out := make([]byte, 0, len(s))
	for _, r := range s {
		out = append(out, byte(r)) //nolint:gosec // G115: ISO-8859-1 characters are U+0000..U+00FF
	}
	return string(out)
}

// escapeNonASCII is s as the java dialect writes it into an ISO-8859-1
// file: every non-ASCII character as an upper-case \uXXXX escape.
func escapeNonASCII(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 {
			b.WriteRune(r)
		} else {
			fmt.Fprintf(&b, `\u%04X`, r)
		}
	}
	return b.String()
}

// TestPropertiesComponent imports an ISO-8859-1 properties component
// (format properties) through the REST API.
func TestPropertiesComponent(t *testing.T) {
	testPropertiesComponent(t, "properties", latin1, escapeNonASCII)
}

// TestPropertiesUTF8Component imports a UTF-8 properties component
// (format properties-utf8, written with only control characters
// escaped) through the REST API.
func TestPropertiesUTF8Component(t *testing.T) {
	same := func(s string) string { return s }
	testPropertiesComponent(t, "properties-utf8", same, same)
}

// testPropertiesComponent checks statistics, units, a no-op commit,
// edits, a new language and an upload of a properties component of
// format, its files encoded by enc, non-ASCII values written by esc.
func testPropertiesComponent(t *testing.T, format string, enc, esc func(string) string) {
	const dir = "src/main/resources/"
	fixture := propertiesFixture(enc, esc)
	base, repo := startFormatComponent(t, fixture, map[string]any{"filemask": dir + "messages_*.properties",
		"template": dir + "messages.properties", "new_base": dir + "messages.properties", "file_format": format}, "ru", 5)

	// Statistics: 5 strings of 15 words.
	expectStats(t, base, map[string][3]float64{"en": {5, 15, 5}, "de": {5, 15, 5}, "ru": {5, 15, 1}})
	de := expectUnits(t, base, "de", map[string][4]string{
		"app.title":   {"Hello, World!", "Hallo, Welt! Grüße", "# Window title\n# Fenstertitel", ""},
		"app.welcome": {"Welcome, {0}!\nEnjoy.", "Willkommen, {0}!\nViel Spaß.", "", ""},
		"greeting":    {"It's {0}'s turn", "{0} ist dran", "! {0} is a player\n", ""},
		"long.text":   {"This is a long text", "Dies ist ein langer Text", "", ""},
		"unicode":     {"Café ☕", "Café ☕", "", ""},
	})
	ru := unitsByKey(t, base, "ru")
	if got := join(ru["app.title"]["target"]); got != "Привет, мир!" {
		t.Errorf("ru title = %q", got)
	}

	expectNoChange(t, base, repo, fixture)

	// An edit rewrites its value only, escaped as translate-toolkit's
	// dialect of the format does, after the line's own key and separator.
	editUnit(t, base, de["greeting"], "{0} ist dran ✓")
	editUnit(t, base, de["long.text"], "Ein kurzer Text")
	want := strings.Replace(string(fixture[dir+"messages_de.properties"]), "greeting : {0} ist dran\n", "greeting : {0} ist dran "+esc("✓")+"\n", 1)
	want = strings.Replace(want, "long.text = Dies ist ein langer \\\n    Text\n", "long.text = Ein kurzer Text\n", 1)
	expectFile(t, base, repo, dir+"messages_de.properties", want)

	// A new language starts from the template, every value empty.
	expectNewLanguage(t, base, repo, "fr", dir+"messages_fr.properties", `# Demo application messages
# Copyright the authors

# Window title
app.title =
app.welcome=
! {0} is a player
greeting :
long.text =
unicode=
`, 5)

	// An uploaded file is applied by key; the key the file lacked is
	// appended to it.
	expectUpload(t, base, "ru", "messages_ru.properties", enc("app.welcome="+esc("Добро пожаловать, {0}!")+"\nunknown=x\n"), 1, 1)
	if got := join(unitsByKey(t, base, "ru")["app.welcome"]["target"]); got != "Добро пожаловать, {0}!" {
		t.Errorf("uploaded target = %q", got)
	}
	expectFile(t, base, repo, dir+"messages_ru.properties", string(fixture[dir+"messages_ru.properties"])+
		enc("app.welcome="+esc("Добро пожаловать, {0}!")+"\n"))
}
