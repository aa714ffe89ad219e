package po

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestRoundTripShapes(t *testing.T) {
	tests := map[string]string{
		"empty":                 "",
		"blank only":            "\n\n  \n",
		"no final newline":      "msgid \"a\"\nmsgstr \"b\"",
		"crlf":                  "# c\r\nmsgid \"a\"\r\nmsgstr \"b\"\r\n\r\nmsgid \"c\"\r\nmsgstr \"d\"\r\n",
		"cr only":               "msgid \"a\"\rmsgstr \"b\"\r\rmsgid \"c\"\rmsgstr \"\"\r",
		"bom and lead":          "\xef\xbb\xbf\n\nmsgid \"\"\nmsgstr \"Language: fr\\n\"\n",
		"many blank lines":      "msgid \"a\"\nmsgstr \"b\"\n\n\n\nmsgid \"c\"\nmsgstr \"d\"\n\n\n",
		"no blank between":      "msgid \"a\"\nmsgstr \"b\"\nmsgid \"c\"\nmsgstr \"d\"\n",
		"comment-only tail":     "msgid \"a\"\nmsgstr \"b\"\n\n# trailing comment\n",
		"obsolete with prev":    "#, fuzzy\n#~| msgid \"old\"\n#~ msgid \"a\"\n#~ msgstr \"b\"\n",
		"indented lines":        "  # c\n  msgid \"a\"\n\tmsgstr \"b\"\n",
		"trailing space":        "msgid \"a\"  \nmsgstr \"b\"\t\n",
		"escape variety":        "msgid \"a\\\"b\\\\c\\td\\n\\a\"\nmsgstr \"\"\n",
		"multiline with leader": "msgid \"\"\n\"one \"\n\"two\"\nmsgstr \"\"\n",
	}
	for name, in := range tests {
		t.Run(name, func(t *testing.T) {
			f, err := Parse([]byte(in))
			if err != nil {
				t.Fatal(err)
			}
			if got := f.Bytes(); !bytes.Equal(got, []byte(in)) {
				t.Errorf("Bytes() = %q, want %q", got, in)
			}
		})
	}
}

func TestParseFields(t *testing.T) {
	in := `# translator
#. extracted one
#. extracted two
#: a.c:1 b%20c.c:2
#: docs/x.rst:docstring of mod.func:3
#, fuzzy, c-format
#| msgctxt "oldctx"
#| msgid "old"
#| msgid_plural "olds"
msgctxt "ctx"
msgid "one\tfile"
msgid_plural ""
"%d \"files\""
msgstr[0] "un"
msgstr[1] "des"
`
	f, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	e := f.All()[0]
	want := &Entry{
		TranslatorComments: []string{"translator"},
		ExtractedComments:  []string{"extracted one", "extracted two"},
		References:         []string{"a.c:1 b%20c.c:2", "docs/x.rst:docstring of mod.func:3"},
		Flags:              []string{"fuzzy", "c-format"},
		PreviousContext:    "oldctx", HasPreviousContext: true,
		PreviousMsgid: "old", HasPreviousMsgid: true,
		PreviousMsgidPlural: "olds", HasPreviousMsgidPlural: true,
		Context: "ctx", HasContext: true,
		Msgid: "one\tfile", MsgidPlural: `%d "files"`, HasPlural: true,
		Msgstr: []string{"un", "des"},
	}
	got := *e
	got.raw, got.trailer, got.orig = nil, nil, nil
	if !reflect.DeepEqual(&got, want) {
		t.Errorf("parsed\n%+v\nwant\n%+v", got, *want)
	}
	checks := []struct{ name, got, want string }{
		{"Location", e.Location(), "a.c:1, b, c.c:2, docs/x.rst"}, // Weblate re-splits unquoted locations,
		{"Note", e.Note(), "translator\nextracted one\nextracted two"},
		{"FlagsWithoutFuzzy", e.FlagsWithoutFuzzy(), "c-format"},
		{"PreviousSource", e.PreviousSource(), "old" + PluralSeparator + "olds"},
		{"Source", e.Source(), "one\tfile" + PluralSeparator + `%d "files"`},
	}
	for _, c := range checks {
		if c.got != c.want {
			t.Errorf("%s() = %q, want %q", c.name, c.got, c.want)
		}
	}
	if !e.Fuzzy() || e.IsHeader() || e.Obsolete {
		t.Errorf("Fuzzy=%v IsHeader=%v Obsolete=%v", e.Fuzzy(), e.IsHeader(), e.Obsolete)
	}
}

func TestParseHeaderAndEntries(t *testing.T) {
	in := "# header comment\nmsgid \"\"\nmsgstr \"\"\n\"Language: de\\n\"\n\"Plural-Forms: nplurals=2; plural=n != 1;\\n\"\n\n" +
		"msgid \"a\"\nmsgstr \"b\"\n\n#~ msgid \"old\"\n#~ msgstr \"alt\"\n"
	f, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if f.Header() == nil || f.HeaderField("Language") != "de" || f.HeaderField("plural-forms") != "nplurals=2; plural=n != 1;" {
		t.Fatalf("header = %+v", f.Header())
	}
	if es := f.Entries(); len(es) != 1 || es[0].Msgid != "a" {
		t.Fatalf("Entries() = %+v", es)
	}
	if all := f.All(); len(all) != 3 || !all[2].Obsolete || all[2].Msgstr[0] != "alt" {
		t.Fatalf("All() = %+v", all)
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name string
		in   string
		line int
	}{
		{"garbage", "msgid \"a\"\nmsgstr \"b\"\n\nhello\n", 4},
		{"unterminated", "msgid \"a\nmsgstr \"b\"\n", 1},
		{"missing msgstr", "msgid \"a\"\n\nmsgid \"b\"\nmsgstr \"\"\n", 1},
		{"plural without forms", "msgid \"a\"\nmsgid_plural \"b\"\nmsgstr \"c\"\n", 3},
		{"text after string", "msgid \"a\" x\nmsgstr \"\"\n", 1},
		{"dangling previous", "msgid \"a\"\nmsgstr \"\"\n\n#| msgid \"x\"\n", 4},
		{"msgstr first", "msgstr \"a\"\n", 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			var pe *ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want a ParseError", err)
			}
			if pe.Line != tt.line {
				t.Errorf("line = %d, want %d (%v)", pe.Line, tt.line, err)
			}
		})
	}
}

func TestEditing(t *testing.T) {
	in := "msgid \"\"\nmsgstr \"Language: fr\\n\"\n\nmsgid \"a\"\nmsgstr \"\"\n\nmsgid \"b\"\nmsgstr \"\"\n\n#~ msgid \"o\"\n#~ msgstr \"p\"\n"
	f, err := Parse([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	es := f.Entries()
	if err := es[0].SetTarget([]string{"x", "y"}, false); !errors.Is(err, ErrFormCount) {
		t.Errorf("SetTarget with two forms on a singular entry: %v", err)
	}
	if err := es[0].SetTarget([]string{"A"}, true); err != nil {
		t.Fatal(err)
	}
	f.RemoveEntry(es[1])
	f.AddEntry(&Entry{Msgid: "c", Msgstr: []string{"C"}})
	want := "msgid \"\"\nmsgstr \"Language: fr\\n\"\n\n#, fuzzy\nmsgid \"a\"\nmsgstr \"A\"\n\nmsgid \"c\"\nmsgstr \"C\"\n\n#~ msgid \"o\"\n#~ msgstr \"p\"\n"
	if got := string(f.Bytes()); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	// Removing the last entry keeps the file ending without a blank line.
	all := f.All()
	f.RemoveEntry(all[len(all)-1])
	if got := string(f.Bytes()); !strings.HasSuffix(got, "msgstr \"C\"\n") {
		t.Errorf("after removing the last entry: %q", got)
	}
}

func TestAddEntryToFileWithoutFinalNewline(t *testing.T) {
	f, err := Parse([]byte("msgid \"a\"\nmsgstr \"b\""))
	if err != nil {
		t.Fatal(err)
	}
	f.AddEntry(&Entry{Msgid: "c", HasPlural: true, MsgidPlural: "cs", Msgstr: []string{"", ""}})
	want := "msgid \"a\"\nmsgstr \"b\"\n\nmsgid \"c\"\nmsgid_plural \"cs\"\nmsgstr[0] \"\"\nmsgstr[1] \"\"\n"
	if got := string(f.Bytes()); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestSetHeaderFieldCreatesHeader(t *testing.T) {
	f := New()
	f.SetHeaderField("language", "cs")
	want := "msgid \"\"\nmsgstr \"\"\n\"Language: cs\\n\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\"Content-Transfer-Encoding: 8bit\\n\"\n"
	if got := string(f.Bytes()); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if f.HeaderField("Language") != "cs" {
		t.Errorf("HeaderField = %q", f.HeaderField("Language"))
	}
}

func FuzzParse(f *testing.F) {
	seeds := []string{
		"", "msgid \"a\"\nmsgstr \"b\"", "#, fuzzy\n#| msgid \"x\"\nmsgid \"a\"\nmsgstr \"\"\n",
		"msgid \"a\"\r\nmsgid_plural \"b\"\r\nmsgstr[0] \"\"\r\nmsgstr[1] \"\"\r\n",
		"#~ msgid \"a\"\n#~ msgstr \"\"\n#~ \"x\"\n", "\xef\xbb\xbfmsgctxt \"\"\nmsgid \"\\\\\"\nmsgstr \"\"\n",
		"# c\n\n#. d\nmsgid \"\"\nmsgstr \"\"\n\"Language: fr\\n\"\n", "msgid \"a\"\rmsgstr \"b\"\r",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	if data, err := readTestdata("input.po"); err == nil {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, err := Parse(data)
		if err != nil {
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line < 1 {
				t.Fatalf("error without a line: %v", err)
			}
			return
		}
		if got := file.Bytes(); !bytes.Equal(got, data) {
			t.Fatalf("Bytes() = %q, want %q", got, data)
		}
		for _, e := range file.All() {
			e.MarkDirty()
		}
		file.Bytes() // re-rendering must not panic either
		file.MO()
	})
}

// TestEditedFileEndsWithOneNewline: a file ending in a blank line (as
// pybabel writes them) keeps it until an edit; the edited file ends with
// exactly one newline, as translate-toolkit writes it.
func TestEditedFileEndsWithOneNewline(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n"} {
		in := strings.ReplaceAll("msgid \"\"\nmsgstr \"\"\n\nmsgid \"a\"\nmsgstr \"\"\n\nmsgid \"b\"\nmsgstr \"\"\n\n", "\n", nl)
		f, err := Parse([]byte(in))
		if err != nil {
			t.Fatal(err)
		}
		if got := string(f.Bytes()); got != in {
			t.Fatalf("untouched file not kept: %q", got)
		}
		if err := f.Entries()[0].SetTarget([]string{"A"}, false); err != nil {
			t.Fatal(err)
		}
		want := strings.ReplaceAll("msgid \"\"\nmsgstr \"\"\n\nmsgid \"a\"\nmsgstr \"A\"\n\nmsgid \"b\"\nmsgstr \"\"\n", "\n", nl)
		if got := string(f.Bytes()); got != want {
			t.Errorf("edited: got %q, want %q", got, want)
		}
		g, _ := Parse([]byte(in))
		g.RemoveEntry(g.Entries()[0])
		if got := string(g.Bytes()); !strings.HasSuffix(got, "msgstr \"\""+nl) || strings.HasSuffix(got, nl+nl) {
			t.Errorf("after a removal: %q", got)
		}
	}
}
