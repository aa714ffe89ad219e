package e2e

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// utf16BE is s in UTF-16, big-endian with a byte order mark.
func utf16BE(s string) string {
	out := []byte{0xfe, 0xff}
	for _, u := range utf16.Encode([]rune(s)) {
		out = append(out, byte(u>>8), byte(u&0xff)) //nolint:gosec // G115: the two bytes of a UTF-16 code unit
	}
	return string(out)
}

const (
	propertiesUTF16EN = "# Messages\n\n# Window title\napp.title=Hello, World!\napp.welcome=Welcome, {0}!\\nEnjoy.\n"
	propertiesUTF16DE = "app.title=Hallo, Welt! 👋\napp.welcome=\n"
)

// propertiesUTF16Fixture is a UTF-16 resource bundle: the template
// little-endian with a byte order mark, the German file big-endian.
var propertiesUTF16Fixture = map[string][]byte{
	"res/messages.properties":    []byte(utf16LE(propertiesUTF16EN)),
	"res/messages_de.properties": []byte(utf16BE(propertiesUTF16DE)),
}

// TestPropertiesUTF16Component imports a properties-utf16 component and
// checks units, a no-op commit, an edit written in the file's own
// encoding, a new language and an upload.
func TestPropertiesUTF16Component(t *testing.T) {
	const dir = "res/"
	base, repo := startFormatComponent(t, propertiesUTF16Fixture, map[string]any{"filemask": dir + "messages_*.properties",
		"template": dir + "messages.properties", "new_base": dir + "messages.properties", "file_format": "properties-utf16"}, "de", 2)

	expectStats(t, base, map[string][3]float64{"en": {2, 5, 2}, "de": {2, 5, 1}})
	de := unitsByKey(t, base, "de")
	if u := de["app.title"]; u == nil || join(u["source"]) != "Hello, World!" || join(u["target"]) != "Hallo, Welt! 👋" || u["note"] != "# Window title\n" {
		t.Errorf("de app.title: %v", u)
	}
	if u := de["app.welcome"]; u == nil || join(u["source"]) != "Welcome, {0}!\nEnjoy." {
		t.Errorf("de app.welcome: %v", u)
	}

	expectNoChange(t, base, repo, propertiesUTF16Fixture)

	// The edit is escaped as java-utf16 writes it (only control characters)
	// and the file stays big-endian.
	editUnit(t, base, de["app.welcome"], "Willkommen, {0}!\nViel Spaß.")
	expectFile(t, base, repo, dir+"messages_de.properties", utf16BE(strings.Replace(propertiesUTF16DE,
		"app.welcome=\n", "app.welcome=Willkommen, {0}!\\nViel Spaß.\n", 1)))

	call(t, "POST", base+"components/demo/app/translations/", map[string]any{"language_code": "fr"}, 201)
	expectFile(t, base, repo, dir+"messages_fr.properties", utf16LE("# Messages\n\n# Window title\napp.title=\napp.welcome=\n"))

	if out := uploadFile(t, base+"translations/demo/app/fr/file/", "messages_fr.properties",
		utf16LE("app.title=Bonjour, le monde !\n")); out["accepted"] != float64(1) {
		t.Errorf("upload: %v", out)
	}
	expectFile(t, base, repo, dir+"messages_fr.properties", utf16LE("# Messages\n\n# Window title\napp.title=Bonjour, le monde !\napp.welcome=\n"))
}
