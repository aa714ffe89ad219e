package importer

import (
	"testing"

	"github.com/tmsproject/tms/services/translation/filemask"
	"github.com/tmsproject/tms/services/translation/formats"
)

func TestState(t *testing.T) {
	tests := []struct {
		name string
		text string
		want int
	}{
		{"empty", "msgid \"a\"\nmsgstr \"\"\n", 0},
		{"translated", "msgid \"a\"\nmsgstr \"b\"\n", 20},
		{"fuzzy", "#, fuzzy\nmsgid \"a\"\nmsgstr \"b\"\n", 10},
		{"fuzzy empty", "#, fuzzy\nmsgid \"a\"\nmsgstr \"\"\n", 0},
		{"plural partial", "msgid \"a\"\nmsgid_plural \"as\"\nmsgstr[0] \"b\"\nmsgstr[1] \"\"\n", 0},
		{"plural full", "msgid \"a\"\nmsgid_plural \"as\"\nmsgstr[0] \"b\"\nmsgstr[1] \"bs\"\n", 20},
	}
	pof, _ := formats.Lookup("po")
	for _, tt := range tests {
		f, err := pof.Parse([]byte(tt.text), formats.Language{})
		if err != nil {
			t.Fatal(err)
		}
		e := f.Units()[0]
		if got := State(e); got != tt.want {
			t.Errorf("%s: State = %d, want %d", tt.name, got, tt.want)
		}
		u := newUnit(e, false, true)
		if u.State != 100 || u.Target != u.Source {
			t.Errorf("%s: source unit = %+v", tt.name, u)
		}
	}
}

func TestMonolingualNote(t *testing.T) {
	tmpl := &formats.Unit{Context: "k", Target: []string{"Hi"}, Note: "about k"}
	for _, c := range []struct {
		target *formats.Unit
		want   string
	}{
		{tmpl, "about k"},
		{&formats.Unit{Context: "k", Note: "about k"}, "about k"},
		{&formats.Unit{Context: "k", Note: "über k"}, "about k\nüber k"},
		{&formats.Unit{Context: "k"}, "about k\n"},
		{nil, "about k\n"},
	} {
		if got := MonolingualUnit(tmpl, c.target, 2, false).Note; got != c.want {
			t.Errorf("note with %v = %q, want %q", c.target, got, c.want)
		}
	}
	if got := MonolingualUnit(&formats.Unit{Context: "k"}, &formats.Unit{Context: "k", Note: "n"}, 2, false).Note; got != "\nn" {
		t.Errorf("a note of the translation only = %q", got)
	}
}

func TestSourceOfIntermediate(t *testing.T) {
	dev := &formats.Unit{Context: "k", Target: []string{"developer text"}, Note: "dev note"}
	final := &formats.Unit{Context: "k", Target: []string{"Final text"}, Note: "final note"}
	b := &sourceBase{template: map[string]*formats.Unit{"k": final}}
	tests := []struct {
		name               string
		base               *sourceBase
		key                *formats.Unit
		inFile             bool
		wantText, wantNote string
	}{
		{"no intermediate", &sourceBase{}, final, true, "Final text", "final note"},
		{"translated key", b, dev, true, "Final text", "final note"},
		{"untranslated key", b, dev, false, "Final text", "dev note"},
		{"key the template lacks", b, &formats.Unit{Context: "x", Target: []string{"new"}, Note: "n"}, true, "new", "n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := tt.base.sourceOf(tt.key, tt.inFile)
			if got.Target[0] != tt.wantText || got.Note != tt.wantNote {
				t.Errorf("sourceOf = %q, %q; want %q, %q", got.Target[0], got.Note, tt.wantText, tt.wantNote)
			}
		})
	}
	if dev.Target[0] != "developer text" {
		t.Error("sourceOf changed the intermediate file's unit")
	}
}

func TestTranslationFiles(t *testing.T) {
	matches := []filemask.Match{{Path: "l/dev.json", Code: "dev"}, {Path: "l/en.json", Code: "en"},
		{Path: "l/de.json", Code: "de"}, {Path: "l/base.json", Code: "base"}}
	got := translationFiles(matches, "en", "l/base.json", "l/dev.json")
	if len(got) != 1 || got[0].Path != "l/de.json" {
		t.Errorf("translation files = %v", got)
	}
}

// TestReadOnly: a unit the file marks untranslatable, or whose flags
// hold read-only, is imported read-only whatever its target; in a
// monolingual component the template's unit decides, and a translation
// file's own read-only flag adds to it.
func TestReadOnly(t *testing.T) {
	unit := func(ro bool, flags string) *formats.Unit {
		return &formats.Unit{Context: "k", Source: []string{"Hi"}, Target: []string{"Hallo"}, ReadOnly: ro, Flags: flags}
	}
	for _, c := range []struct {
		name string
		e    *formats.Unit
		want int
	}{
		{"plain", unit(false, "c-format"), 20},
		{"translate no", unit(true, ""), 100},
		{"flag", unit(false, "c-format, read-only"), 100},
		{"flag alone", unit(false, "read-only"), 100},
		{"flag with a value", unit(false, `read-only:"x"`), 100},
		{"other flag", unit(false, "read-only-ish, max-length:10"), 20},
		{"flag in a quoted value", unit(false, `placeholders:"a, read-only"`), 20},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := NewUnit(c.e, false).State; got != c.want {
				t.Errorf("bilingual state %d, want %d", got, c.want)
			}
			if got := MonolingualUnit(c.e, unit(false, ""), 1, false).State; got != c.want {
				t.Errorf("template decides: state %d, want %d", got, c.want)
			}
			if got := MonolingualUnit(c.e, nil, 1, false).State; got != c.want && c.want == 100 {
				t.Errorf("no translation unit: state %d, want %d", got, c.want)
			}
		})
	}
	if got := MonolingualUnit(unit(false, ""), unit(false, "read-only"), 1, false).State; got != 100 {
		t.Errorf("translation file's flag: state %d, want 100", got)
	}
	if got := MonolingualUnit(unit(false, ""), unit(true, ""), 1, false).State; got != 20 {
		t.Errorf("translation file's translate=no: state %d, want 20 (the template decides)", got)
	}
}
