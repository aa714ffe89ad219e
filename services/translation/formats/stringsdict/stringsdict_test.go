package stringsdict

import (
	"strings"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
)

func TestUnits(t *testing.T) {
	for _, c := range []struct {
		name, file, code, want string
	}{
		{"English template", "en.stringsdict", "en", "files_in_folders=%1$#@files@ in %2$#@folders@\n" +
			"files_in_folders:files=|%d file|%d files\nfiles_in_folders:folders=no folder|%d folder|%d folders\n" +
			"selected=%#@items@ & <more>\nselected:items=|One item selected|%ld items selected"},
		// Czech's three forms are CLDR's one, few and other (what 5
		// selects), as translate-toolkit's plural_tags name them: the
		// file's "many" (for fractions) is no form and stays as it is.
		{"Czech, many kept aside", "cs.stringsdict", "cs", "files_in_folders=%1$#@files@ ve %2$#@folders@\n" +
			"files_in_folders:files=|%d soubor|%d soubory|%d souborů\nfiles_in_folders:folders=|%d složce||"},
	} {
		t.Run(c.name, func(t *testing.T) {
			f := formattest.Parse(t, Format{}, c.file, c.code)
			if got := formattest.Units(f, "\n"); got != c.want {
				t.Errorf("units\n%s\nwant\n%s", got, c.want)
			}
			for _, u := range f.Units() {
				if u.Note != "" || u.Flags != "" || len(u.Source) != 0 {
					t.Errorf("%s: note %q, flags %q, source %q", u.Context, u.Note, u.Flags, u.Source)
				}
			}
		})
	}
}

func TestPluralFor(t *testing.T) {
	for _, c := range []struct {
		name string
		in   base.Plural
		want base.Plural
		ok   bool
	}{
		{"English gets zero", base.Plural{Number: 2, Formula: "n != 1", Type: 1}, base.Plural{Number: 3, Formula: "n==0 ? 0 : n==1 ? 1 : 2", Type: 11}, true},
		{"Czech gets zero", base.Plural{Number: 3, Formula: "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2", Type: 2},
			base.Plural{Number: 4, Formula: "n==0 ? 0 : (n==1) ? 1 : (n>=2 && n<=4) ? 2 : 3", Type: 16}, true},
		{"Arabic has zero", base.Plural{Number: 6, Formula: "x", Type: 3}, base.Plural{Number: 6, Formula: "x", Type: 3}, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, ok := Format{}.PluralFor(c.in)
			if got != c.want || ok != c.ok {
				t.Errorf("PluralFor = %+v %v, want %+v %v", got, ok, c.want, c.ok)
			}
			if n := len(Tags("cs")); c.name == "Czech gets zero" && n != got.Number {
				t.Errorf("Czech has %d tags, plural %d forms", n, got.Number)
			}
		})
	}
}

func set(t *testing.T, f base.File, key string, forms ...string) {
	t.Helper()
	if err := f.SetTarget(formattest.Find(t, f, key), forms, false); err != nil {
		t.Fatal(err)
	}
}

func TestEdit(t *testing.T) {
	f := formattest.Parse(t, Format{}, "cs.stringsdict", "cs")
	set(t, f, "files_in_folders", "%2$#@folders@: %1$#@files@ <&>")
	// zero inserted before one, few emptied (dropped), other changed
	set(t, f, "files_in_folders:files", "žádný soubor", "%d soubor", "", "%d souborů!")
	// zero and few inserted, the empty other set
	set(t, f, "files_in_folders:folders", "bez složky", "%d složce", "%d složkách", "%d složkách\na\r\nb")
	formattest.Golden(t, "cs.edit.golden", f.Bytes())
	again, err := Format{}.Parse(f.Bytes(), base.Language{Code: "cs"})
	if err != nil {
		t.Fatal(err)
	}
	if got := formattest.Units(again, "\n"); got != "files_in_folders=%2$#@folders@: %1$#@files@ <&>\n"+
		"files_in_folders:files=žádný soubor|%d soubor||%d souborů!\n"+
		"files_in_folders:folders=bez složky|%d složce|%d složkách|%d složkách\na\nb" {
		t.Errorf("edited file reads\n%s", got)
	}
	if err := f.SetTarget(formattest.Find(t, f, "files_in_folders"), []string{"a\x01"}, false); err == nil {
		t.Error("a control character was accepted")
	}
	if err := f.SetTarget(formattest.Find(t, f, "files_in_folders:files"), []string{"a"}, false); err == nil {
		t.Error("one form was accepted for a plural")
	}
}

func TestAddRemove(t *testing.T) {
	f := formattest.Parse(t, Format{}, "en.stringsdict", "en")
	for _, u := range []*base.Unit{
		{Context: "selected:extra", Target: []string{"", "one extra", "%d extras"}},
		{Context: "photos", Target: []string{"%#@photos@"}},
		{Context: "photos:photos", Target: []string{"no photo", "a photo", "%d photos"}},
	} {
		if err := f.Add(u); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Add(&base.Unit{Context: "photos", Target: []string{"x"}}); err == nil {
		t.Error("a key was added twice")
	}
	if !f.Remove(formattest.Find(t, f, "files_in_folders:folders")) || f.Remove(&base.Unit{Context: "x"}) {
		t.Error("Remove")
	}
	formattest.Golden(t, "en.add.golden", f.Bytes())
	g, _ := Format{}.Parse(f.Bytes(), base.Language{Code: "en"})
	if len(g.Units()) != 7 || strings.Join(formattest.Find(t, g, "photos:photos").Target, "|") != "no photo|a photo|%d photos" {
		t.Errorf("after add and remove: %s", formattest.Units(g, "\n"))
	}
	// every unit of a key removed: the key goes
	h := formattest.Parse(t, Format{}, "en.stringsdict", "en")
	h.Remove(formattest.Find(t, h, "selected"))
	h.Remove(formattest.Find(t, h, "selected:items"))
	if strings.Contains(string(h.Bytes()), "selected") || !strings.HasSuffix(string(h.Bytes()), "\t</dict>\n</dict>\n</plist>\n") {
		t.Errorf("key not removed:\n%s", h.Bytes())
	}
}

func TestNewTranslation(t *testing.T) {
	data := formattest.Parse(t, Format{}, "en.stringsdict", "en").Bytes()
	out, err := Format{}.NewTranslation(data, base.Language{Code: "de"})
	if err != nil {
		t.Fatal(err)
	}
	formattest.Golden(t, "de.new.golden", out)
	f, err := Format{}.Parse(out, base.Language{Code: "de"})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range f.Units() {
		if strings.Join(u.Target, "") != "" {
			t.Errorf("%s is not empty: %q", u.Context, u.Target)
		}
	}
	if out, _ := (Format{}).NewTranslation(nil, base.Language{Code: "de"}); string(out) != newFile {
		t.Errorf("empty new file = %q", out)
	}
}

func TestMalformed(t *testing.T) {
	const head = `<?xml version="1.0" encoding="UTF-8"?><plist version="1.0">`
	for name, in := range map[string]string{
		"not XML":              "<plist",
		"not a plist":          `<dict></dict>`,
		"an array":             head + `<array/></plist>`,
		"outer not a dict":     head + `<dict><key>a</key><string>x</string></dict></plist>`,
		"unexpected inner key": head + `<dict><key>a</key><dict><key>b</key><string>x</string></dict></dict></plist>`,
		"not a plural":         head + `<dict><key>a</key><dict><key>b</key><dict><key>NSStringFormatSpecTypeKey</key><string>Other</string></dict></dict></dict></plist>`,
		"key without value":    head + `<dict><key>a</key></dict></plist>`,
		"repeated key":         head + `<dict><key>a</key><dict/><key>a</key><dict/></dict></plist>`,
		"format key not text":  head + `<dict><key>a</key><dict><key>NSStringLocalizedFormatKey</key><integer>1</integer></dict></dict></plist>`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := (Format{}).Parse([]byte(in), base.Language{Code: "en"}); err == nil {
				t.Error("read without an error")
			}
		})
	}
}
