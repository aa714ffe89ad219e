package applestrings

import (
	"os"
	"strings"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
)

func parse(t *testing.T, f Format, name string) *File {
	t.Helper()
	return formattest.Parse(t, f, name, "de").(*File)
}

const enUnits = "window.title=Notes\nCancel=Cancel\nempty.message=No notes yet.\nTap \"+\" to add one.\n" +
	"delete=Delete é\t%@\nNSCameraUsageDescription=Scan documents with the camera\npath=C:\\Users\\%@\n" +
	"unicode=Café ✓ 😀\nempty="

func TestUnits(t *testing.T) {
	for _, tt := range []struct {
		name string
		f    Format
		file string
		want string
	}{
		{"utf-16le with bom", UTF16, "en.strings", enUnits},
		{"utf-8", UTF8, "en-utf8.strings", enUnits},
		{"utf-8 read by the utf-16 format", UTF16, "en-utf8.strings", enUnits},
		{"utf-16be", UTF16, "de.strings", "window.title=Notizen\nCancel=Abbrechen\nempty.message=Noch keine Notizen.\nTippe auf \"+\".\n" +
			"delete=Löschen %@\nNSCameraUsageDescription=Dokumente mit der Kamera scannen"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if got := formattest.Units(parse(t, tt.f, tt.file), "\n"); got != tt.want {
				t.Errorf("units\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
	f := parse(t, UTF16, "en.strings")
	for key, want := range map[string]string{
		"window.title":  "Title of the main window",
		"Cancel":        "",
		"empty.message": "Shown when the list is empty",
		"delete":        "Button: delete\nthe selected note\ninline",
		"path":          "",
	} {
		t.Run("note "+key, func(t *testing.T) {
			if got := formattest.Find(t, f, key).Note; got != want {
				t.Errorf("note %q, want %q", got, want)
			}
		})
	}
}

func TestDecode(t *testing.T) {
	for in, want := range map[string]string{
		`a\"b\\c\nd\te\rf`: "a\"b\\c\nd\te\rf",
		`\U00e9\u00E9`:     "éé",
		`\UD83D\UDE00`:     "😀",
		`\UD83D`:           "\ufffd",
		`\q\'`:             "q'",
		`x\\ y`:            `x\ y`,
		`end\`:             `end\`,
		`\U12`:             "\u0012",
	} {
		if got := decodeValue(in); got != want {
			t.Errorf("decodeValue(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestEdit(t *testing.T) {
	for _, tt := range []struct {
		name, file, golden string
		f                  Format
	}{
		{"utf-16le", "en.strings", "en.edit.golden", UTF16},
		{"utf-8", "en-utf8.strings", "en-utf8.edit.golden", UTF8},
	} {
		t.Run(tt.name, func(t *testing.T) {
			f := parse(t, tt.f, tt.file)
			for key, v := range map[string]string{
				"empty.message": "Noch \"nichts\"\n\tC:\\ é\r",
				"delete":        "Löschen",
				"Cancel":        "Cancel", // unchanged: keeps its bytes
			} {
				if err := f.SetTarget(formattest.Find(t, f, key), []string{v}, false); err != nil {
					t.Fatal(err)
				}
			}
			if !f.Remove(formattest.Find(t, f, "window.title")) || !f.Remove(formattest.Find(t, f, "path")) {
				t.Fatal("remove failed")
			}
			for _, u := range []*base.Unit{{Context: "new \"key\"", Target: []string{"Neu"}}, {Context: "NSMicrophoneUsageDescription", Target: []string{"Mikro"}}} {
				if err := f.Add(u); err != nil {
					t.Fatal(err)
				}
			}
			out := f.Bytes()
			if tt.f.utf16 {
				text, enc, err := decodeText(out, true)
				if err != nil || enc != utf16LEBOM {
					t.Fatalf("edited file: %v, encoding %d", err, enc)
				}
				out = []byte(text)
			}
			formattest.Golden(t, tt.golden, out)
			again, err := tt.f.Parse(f.Bytes(), base.Language{Code: "de"})
			if err != nil {
				t.Fatal(err)
			}
			if got := formattest.Find(t, again, "empty.message").Target[0]; got != "Noch \"nichts\"\n\tC:\\ é\r" {
				t.Errorf("edited value reads back as %q", got)
			}
		})
	}
	f := parse(t, UTF8, "en-utf8.strings")
	for _, key := range []string{"Cancel", "", `a\"b`, "NSBad Description"} {
		if err := f.Add(&base.Unit{Context: key, Target: []string{"x"}}); err == nil {
			t.Errorf("Add(%q) succeeded", key)
		}
	}
}

func TestNewTranslation(t *testing.T) {
	data, err := os.ReadFile("testdata/en.strings")
	if err != nil {
		t.Fatal(err)
	}
	out, err := UTF16.NewTranslation(data, base.Language{Code: "fr"})
	if err != nil {
		t.Fatal(err)
	}
	text, enc, err := decodeText(out, true)
	if err != nil || enc != utf16LEBOM {
		t.Fatalf("new file: %v, encoding %d", err, enc)
	}
	formattest.Golden(t, "en.new-fr.golden", []byte(text))
	for _, tt := range []struct {
		f    Format
		want string
	}{{UTF16, "\xff\xfe\n\x00"}, {UTF8, "\n"}} {
		if out, err := tt.f.NewTranslation(nil, base.Language{Code: "fr"}); err != nil || string(out) != tt.want {
			t.Errorf("%s: empty new file = %q, %v", tt.f.ID(), out, err)
		}
	}
}

func TestMalformed(t *testing.T) {
	for name, in := range map[string]string{
		"no semicolon":         `"a" = "b"`,
		"no equals":            `"a" "b";`,
		"key only":             `"a";`,
		"unterminated string":  `"a" = "b;`,
		"unterminated comment": `/* x`,
		"missing value":        `"a" = ;`,
		"invalid utf-8":        "\"a\" = \"\xff\";",
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := UTF8.Parse([]byte(in), base.Language{Code: "en"}); err == nil {
				t.Errorf("Parse(%q) succeeded", in)
			}
		})
	}
	for name, in := range map[string]string{
		"odd length":     "\xff\xfe\"\x00a",
		"lone surrogate": "\xff\xfe\x00\xd8",
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := UTF16.Parse([]byte(in), base.Language{Code: "en"}); err == nil || !strings.Contains(err.Error(), "UTF-16") {
				t.Errorf("Parse(%q) = %v", in, err)
			}
		})
	}
}
