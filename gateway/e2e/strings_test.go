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

// stringsFixture is an iOS app's Localizable.strings in UTF-16: an English
// template with a header, notes, Xcode's empty note, escapes and an
// unquoted key; a German translation and a partial Russian one.
var stringsFixture = map[string][]byte{
	"Notes/en.lproj/Localizable.strings": []byte(utf16LE(stringsEN)),
	"Notes/de.lproj/Localizable.strings": []byte(utf16LE(stringsDE)),
	"Notes/ru.lproj/Localizable.strings": []byte(utf16LE(stringsRU)),
}

// TestStringsComponent imports a UTF-16 .strings component through the
// REST API and checks statistics, units, a no-op commit, an edit's diff,
// a new language and an upload.
func TestStringsComponent(t *testing.T) {
	const dir = "Notes/"
	base, repo := startFormatComponent(t, stringsFixture, map[string]any{"filemask": dir + "*.lproj/Localizable.strings",
		"template": dir + "en.lproj/Localizable.strings", "new_base": dir + "en.lproj/Localizable.strings", "file_format": "strings"}, "ru", 5)

	// Statistics: 5 strings of 17 words.
	expectStats(t, base, map[string][3]float64{"en": {5, 17, 5}, "de": {5, 17, 4}, "ru": {5, 17, 2}})
	de := unitsByKey(t, base, "de")
	expectUnitTexts(t, de, map[string][3]string{
		"window.title":             {"Notes", "Notizen", "Main window title"},
		"Cancel":                   {"Cancel", "Abbrechen", ""},
		"empty.message":            {"No notes yet.\nTap \"+\" to add one.", "Noch keine Notizen.\nTippe auf \"+\".", "Shown when the list is empty\n"},
		"delete.confirm":           {`Delete "%@"?`, `"%@" löschen?`, ""},
		"NSCameraUsageDescription": {"Scan documents with the camera", "", ""},
	})

	expectNoChange(t, base, repo, stringsFixture)

	// An edit rewrites its value only, escaped as translate-toolkit does,
	// and the file stays UTF-16.
	editUnit(t, base, de["delete.confirm"], "„%@“ wirklich\tlöschen?")
	expectFile(t, base, repo, dir+"de.lproj/Localizable.strings", utf16LE(strings.Replace(stringsDE,
		`"\"%@\" löschen?"`, `"„%@“ wirklich\tlöschen?"`, 1)))

	// A new language is the template with every value empty.
	call(t, "POST", base+"components/demo/app/translations/", map[string]any{"language_code": "fr"}, 201)
	expectFile(t, base, repo, dir+"fr.lproj/Localizable.strings", utf16LE(`/*
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
`))
	if tr := call(t, "GET", base+"translations/demo/app/fr/", nil, 200); tr["total"] != float64(5) || tr["translated"] != float64(0) {
		t.Errorf("fr: %v strings, %v translated", tr["total"], tr["translated"])
	}

	// An uploaded .strings is applied by key; a key the file lacks is added.
	if out := uploadFile(t, base+"translations/demo/app/ru/file/", "Localizable.strings",
		utf16LE("\"empty.message\" = \"Заметок нет\";\n\"unknown\" = \"x\";\n")); out["accepted"] != float64(1) || out["not_found"] != float64(1) {
		t.Errorf("upload: %v", out)
	}
	expectFile(t, base, repo, dir+"ru.lproj/Localizable.strings", utf16LE(stringsRU+"\"empty.message\" = \"Заметок нет\";\n"))
}
