package formats

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/base"
)

// streamedUnit is what a streamed unit must share with the parsed one.
type streamedUnit struct {
	Context, Note, Flags, Location, Previous string
	Source, Target                           []string
	Fuzzy                                    bool
}

func unitsOf(units []*Unit) []streamedUnit {
	out := make([]streamedUnit, len(units))
	for i, u := range units {
		out[i] = streamedUnit{u.Context, u.Note, u.Flags, u.Location, u.PreviousSource, u.Source, u.Target, u.Fuzzy}
	}
	return out
}

func streamUnits(t *testing.T, f Format, data []byte, piece int) ([]streamedUnit, int, error) {
	t.Helper()
	s, ok := f.(base.Streamer)
	if !ok || !s.Streams() {
		t.Fatalf("%s does not stream", f.ID())
	}
	var got []streamedUnit
	pieces := 0
	err := s.Stream(bytes.NewReader(data), Language{Code: "cs"}, piece, func(file File) error {
		pieces++
		if hf, ok := file.(HeaderFile); ok && pieces > 1 && hf.HeaderField("Plural-Forms") == "" && bytes.Contains(data, []byte("Plural-Forms")) {
			t.Errorf("piece %d has no header", pieces)
		}
		got = append(got, unitsOf(file.Units())...)
		return nil
	})
	return got, pieces, err
}

// TestStreamMatchesParse: a file streamed in pieces of any size gives the
// units Parse gives, in order, once each.
func TestStreamMatchesParse(t *testing.T) {
	corpus, _ := os.ReadFile("../../../../shared/corpus/bleachbit/de.po") // optional: a real catalog
	cases := []struct {
		name, format string
		data         []byte
	}{
		{"po", "po", []byte(poSample("\n", true))},
		{"po crlf", "po", []byte(poSample("\r\n", true))},
		{"po without blank lines", "po", []byte(poSample("\n", false))},
		{"po without header", "po", []byte("#: a.c:1\nmsgid \"a\"\nmsgstr \"b\"\nmsgid \"c\"\nmsgstr \"d\"\n")},
		{"json", "json", []byte(jsonSample)},
		{"json nested", "json-nested", []byte(jsonSample)},
	}
	if len(corpus) > 0 {
		cases = append(cases, struct {
			name, format string
			data         []byte
		}{"bleachbit de.po", "po", corpus})
	}
	for _, tc := range cases {
		f, _ := Lookup(tc.format)
		whole, err := f.Parse(tc.data, Language{Code: "cs"})
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		want := unitsOf(whole.Units())
		for _, piece := range []int{1, 7, 100, 1 << 20} {
			got, pieces, err := streamUnits(t, f, tc.data, piece)
			if err != nil {
				t.Fatalf("%s in pieces of %d: %v", tc.name, piece, err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s in pieces of %d (%d pieces): %d units, want %d\n got %+v\nwant %+v", tc.name, piece, pieces, len(got), len(want), head(got), head(want))
			}
			if piece == 1 && len(want) > 2 && pieces < 3 {
				t.Errorf("%s: %d pieces of one byte", tc.name, pieces)
			}
		}
	}
}

func head(u []streamedUnit) []streamedUnit { return u[:min(len(u), 4)] }

func poSample(nl string, blank bool) string {
	sep := nl
	if !blank {
		sep = ""
	}
	var b strings.Builder
	b.WriteString("# Translators" + nl + "msgid \"\"" + nl + "msgstr \"\"" + nl + "\"Language: cs\\n\"" + nl +
		"\"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n\"" + nl)
	for i := range 20 {
		b.WriteString(sep)
		switch i % 5 {
		case 0:
			fmt.Fprintf(&b, "#. note %d%s#: f.c:%d%s#, fuzzy, c-format%s#| msgid \"old %d\"%smsgid \"s %%d\"%smsgstr \"t %d\"%s", i, nl, i, nl, nl, i, nl, nl, i, nl)
		case 1:
			fmt.Fprintf(&b, "msgctxt \"ctx\"%smsgid \"\"%s\"multi %d\\n\"%s\"line\"%smsgstr \"\"%s\"x\"%s", nl, nl, i, nl, nl, nl, nl)
		case 2:
			fmt.Fprintf(&b, "msgid \"one %d\"%smsgid_plural \"many\"%smsgstr[0] \"a\"%smsgstr[1] \"b\"%smsgstr[2] \"\"%s", i, nl, nl, nl, nl, nl)
		case 3:
			fmt.Fprintf(&b, "#~ msgid \"gone %d\"%s#~ msgstr \"\"%s#~ \"pryč\"%s", i, nl, nl, nl)
		default:
			fmt.Fprintf(&b, "msgid \"plain %d\"%smsgstr \"\"%s", i, nl, nl)
		}
	}
	return b.String()
}

const jsonSample = `{
  "a": "x", "num": 3, "t": true, "n": null,
  "obj": {"b": "y", "deep": {"c": "z", "d": ["p", {"q": "r"}], "e": {}}, "f": "w"},
  "arr": ["1", "2", ["3"]],
  "esc": "\u00e9 \"quoted\" <tag>",
  "last": "end"
}
`

// TestStreamRefuses: what Parse refuses, Stream refuses too.
func TestStreamRefuses(t *testing.T) {
	for _, tc := range []struct{ format, data string }{
		{"json", `["not an object"]`},
		{"json", `{"a": "b"`},
		{"json", `{"a": "b"} trailing`},
		{"json", "{\"a\": \"\xff\"}"},
		{"json", ""},
		{"po", "msgid \"a\"\nmsgstr \"b\n"},
	} {
		f, _ := Lookup(tc.format)
		if _, err := f.Parse([]byte(tc.data), Language{}); err == nil {
			t.Errorf("Parse(%q) took it", tc.data)
		}
		if _, _, err := streamUnits(t, f, []byte(tc.data), 4); err == nil {
			t.Errorf("Stream(%q) took it", tc.data)
		}
	}
	f, _ := Lookup("po")
	huge := "msgid \"a\"\nmsgstr \"" + strings.Repeat("x", base.MaxStreamUnit+1) + "\"\n"
	if _, _, err := streamUnits(t, f, []byte(huge), 1<<20); !errors.Is(err, base.ErrUnitTooLarge) {
		t.Errorf("a string above the bound: %v", err)
	}
}
