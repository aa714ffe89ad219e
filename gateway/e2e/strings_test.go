package e2e

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// utf16LE is s in UTF-16, little-endian with a byte order mark, as Xcode
// writes .strings files.
func utf16LE(s string) string {
	units := utf16.Encode([]rune(s))
	out := []byte{0xff, 0xfe}
	for _, u := range units {
		out = append(out, byte(u&0xff), byte(u>>8)) //nolint:gosec // G115: the two bytes of a UTF-16 code unit
	}
	return string(out)
}

const stringsEN = `/*
  Localizable.strings
  Notes
*/

/* Main window title */
"window.title" = "Notes";

/* No comment provided by engineer. */
"Cancel" = "Cancel";

// Shown when the list is empty
"empty.message" = "No notes yet.\nTap \"+\" to add one.";
"delete.confirm" = "Delete \"%@\"?";
NSCameraUsageDescription = "Scan documents with the camera";
`

const stringsDE = `/* Main window title */
"window.title" = "Notizen";
"Cancel" = "Abbrechen";
"empty.message" = "Noch keine Notizen.\nTippe auf \"+\".";
"delete.confirm" = "\"%@\" löschen?";
`

const stringsRU = "\"window.title\"=\"Заметки\";\n\"Cancel\" = \"Отмена\";\n"

// stringsFixture is an iOS app's Localizable.strings, each file encoded
// by enc: an English template with a header, notes, Xcode's empty note,
// escapes and an unquoted key; a German translation and a partial Russian
// one.
func stringsFixture(enc func(string) string) map[string][]byte {
	return map[string][]byte{
		"Notes/en.lproj/Localizable.strings": []byte(enc(stringsEN)),
		"Notes/de.lproj/Localizable.strings": []byte(enc(stringsDE)),
		"Notes/ru.lproj/Localizable.strings": []byte(enc(stringsRU)),
	}
}

// TestStringsComponent imports a UTF-16 .strings component (format
// strings, as Xcode writes them) through the REST API.
func TestStringsComponent(t *testing.T) { testStringsComponent(t, "strings", utf16LE) }

// TestStringsUTF8Component imports a UTF-8 .strings component (format
// strings-utf8) through the REST API.
func TestStringsUTF8Component(t *testing.T) {
	testStringsComponent(t, "strings-utf8", func(s string) string { return s })
}

// testStringsComponent checks statistics, units, a no-op commit, an edit's
// diff, a new language and an upload of a .strings component of format,
// its files encoded by enc.
func testStringsComponent(t *testing.T, format string, enc func(string) string) {
	const dir = "Notes/"
	fixture := stringsFixture(enc)
	base, repo := startFormatComponent(t, fixture, map[string]any{"filemask": dir + "*.lproj/Localizable.strings",
		"template": dir + "en.lproj/Localizable.strings", "new_base": dir + "en.lproj/Localizable.strings", "file_format": format}, "ru", 5)

	// Statistics: 5 strings of 17 words.
	expectStats(t, base, map[string][3]float64{"en": {5, 17, 5}, "de": {5, 17, 4}, "ru": {5, 17, 2}})
	expectUnits(t, base, "de", map[string][4]string{
		"window.title":             {"Notes", "Notizen", "Main window title", ""},
		"Cancel":                   {"Cancel", "Abbrechen", "", ""},
		"empty.message":            {"No notes yet.\nTap \"+\" to add one.", "Noch keine Notizen.\nTippe auf \"+\".", "Shown when the list is empty\n", ""},
		"delete.confirm":           {`Delete "%@"?`, `"%@" löschen?`, "", ""},
		"NSCameraUsageDescription": {"Scan documents with the camera", "", "", ""},
	})
	de := unitsByKey(t, base, "de")

	expectNoChange(t, base, repo, fixture)

	// An edit rewrites its value only, escaped as translate-toolkit does,
	// and the file keeps its encoding.
	editUnit(t, base, de["delete.confirm"], "„%@“ wirklich\tlöschen?")
	expectFile(t, base, repo, dir+"de.lproj/Localizable.strings", enc(strings.Replace(stringsDE,
		`"\"%@\" löschen?"`, `"„%@“ wirklich\tlöschen?"`, 1)))

	// A new language is the template with every value empty.
	expectNewLanguage(t, base, repo, "fr", dir+"fr.lproj/Localizable.strings", enc(`/*
  Localizable.strings
  Notes
*/

/* Main window title */
"window.title" = "";

/* No comment provided by engineer. */
"Cancel" = "";

// Shown when the list is empty
"empty.message" = "";
"delete.confirm" = "";
NSCameraUsageDescription = "";
`), 5)

	// An uploaded .strings is applied by key; a key the file lacks is added.
	expectUpload(t, base, "ru", "Localizable.strings", enc("\"empty.message\" = \"Заметок нет\";\n\"unknown\" = \"x\";\n"), 1, 1)
	expectFile(t, base, repo, dir+"ru.lproj/Localizable.strings", enc(stringsRU+"\"empty.message\" = \"Заметок нет\";\n"))
}
