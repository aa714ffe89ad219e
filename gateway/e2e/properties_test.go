package e2e

import (
	"strings"
	"testing"
)

// propertiesFixture is a Java resource bundle: an English template with a
// header, notes, separators "=", ":" and " = ", a continued line and
// \u escapes; a German translation with a raw ISO-8859-1 character; a
// partial Russian one.
var propertiesFixture = map[string][]byte{
	"src/main/resources/messages.properties": []byte(`# Demo application messages
# Copyright the authors

# Window title
app.title = Hello, World!
app.welcome=Welcome, {0}!\nEnjoy.
! {0} is a player
greeting : It's {0}'s turn
long.text = This is a long \
    text
unicode=Caf\u00e9 \u2615
`),
	"src/main/resources/messages_de.properties": []byte("# Demo-Anwendung\n\n# Fenstertitel\napp.title = Hallo, Welt! Gr\xfc\xdfe\n" +
		"app.welcome=Willkommen, {0}!\\nViel Spa\\u00DF.\ngreeting : {0} ist dran\n" +
		"long.text = Dies ist ein langer \\\n    Text\nunicode=Caf\\u00e9 \\u2615\n"),
	"src/main/resources/messages_ru.properties": []byte(`app.title=\u041f\u0440\u0438\u0432\u0435\u0442, \u043c\u0438\u0440!
unicode=
`),
}

// TestPropertiesComponent imports a Java properties component through the
// REST API and checks statistics, units, a no-op commit, edits, a new
// language and an upload.
func TestPropertiesComponent(t *testing.T) {
	const dir = "src/main/resources/"
	base, repo := startFormatComponent(t, propertiesFixture, map[string]any{"filemask": dir + "messages_*.properties",
		"template": dir + "messages.properties", "new_base": dir + "messages.properties", "file_format": "properties"}, "ru", 5)

	// Statistics: 5 strings of 15 words.
	expectStats(t, base, map[string][3]float64{"en": {5, 15, 5}, "de": {5, 15, 5}, "ru": {5, 15, 1}})
	de := unitsByKey(t, base, "de")
	expectUnitTexts(t, de, map[string][3]string{
		"app.title":   {"Hello, World!", "Hallo, Welt! Grüße", "# Window title\n# Fenstertitel"},
		"app.welcome": {"Welcome, {0}!\nEnjoy.", "Willkommen, {0}!\nViel Spaß.", ""},
		"greeting":    {"It's {0}'s turn", "{0} ist dran", "! {0} is a player\n"},
		"long.text":   {"This is a long text", "Dies ist ein langer Text", ""},
		"unicode":     {"Café ☕", "Café ☕", ""},
	})
	ru := unitsByKey(t, base, "ru")
	if got := join(ru["app.title"]["target"]); got != "Привет, мир!" {
		t.Errorf("ru title = %q", got)
	}

	expectNoChange(t, base, repo, propertiesFixture)

	// An edit rewrites its value only, escaped as translate-toolkit does,
	// after the line's own key and separator.
	editUnit(t, base, de["greeting"], "{0} ist dran ✓")
	editUnit(t, base, de["long.text"], "Ein kurzer Text")
	want := strings.Replace(string(propertiesFixture[dir+"messages_de.properties"]), "greeting : {0} ist dran\n", "greeting : {0} ist dran \\u2713\n", 1)
	want = strings.Replace(want, "long.text = Dies ist ein langer \\\n    Text\n", "long.text = Ein kurzer Text\n", 1)
	expectFile(t, base, repo, dir+"messages_de.properties", want)

	// A new language starts from the template, every value empty.
	call(t, "POST", base+"components/demo/app/translations/", map[string]any{"language_code": "fr"}, 201)
	expectFile(t, base, repo, dir+"messages_fr.properties", `# Demo application messages
# Copyright the authors

# Window title
app.title =
app.welcome=
! {0} is a player
greeting :
long.text =
unicode=
`)
	if tr := call(t, "GET", base+"translations/demo/app/fr/", nil, 200); tr["total"] != float64(5) || tr["translated"] != float64(0) {
		t.Errorf("fr: %v strings, %v translated", tr["total"], tr["translated"])
	}

	// An uploaded file is applied by key; the key the file lacked is
	// appended to it.
	if out := uploadFile(t, base+"translations/demo/app/ru/file/", "messages_ru.properties",
		"app.welcome=\\u0414\\u043e\\u0431\\u0440\\u043e \\u043f\\u043e\\u0436\\u0430\\u043b\\u043e\\u0432\\u0430\\u0442\\u044c, {0}!\nunknown=x\n"); out["accepted"] != float64(1) || out["not_found"] != float64(1) {
		t.Errorf("upload: %v", out)
	}
	if got := join(unitsByKey(t, base, "ru")["app.welcome"]["target"]); got != "Добро пожаловать, {0}!" {
		t.Errorf("uploaded target = %q", got)
	}
	expectFile(t, base, repo, dir+"messages_ru.properties", string(propertiesFixture[dir+"messages_ru.properties"])+
		`app.welcome=\u0414\u043E\u0431\u0440\u043E \u043F\u043E\u0436\u0430\u043B\u043E\u0432\u0430\u0442\u044C, {0}!`+"\n")
}
