package search

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

var testColumns = Columns{
	Source: "u.source", Target: "u.target", Context: "u.context", Note: "u.note",
	Location: "u.location", State: "u.state", HasSuggestion: "u.has_suggestion",
	HasComment: "u.has_comment", IsPlural: "u.is_plural", Folded: "u.folded",
}

func TestSQL(t *testing.T) {
	tests := []struct {
		q, dialect string
		where      string
		args       []any
	}{
		{"", "sqlite", "1=1", nil},
		{"source:Foo", "sqlite", `(COALESCE(u.source, '') LIKE ? ESCAPE '\' OR (u.folded AND lower(COALESCE(u.source, '')) LIKE lower(?) ESCAPE '\'))`, []any{"%Foo%", "%Foo%"}},
		{"source:Föö", "sqlite", `lower(COALESCE(u.source, '')) LIKE lower(?) ESCAPE '\'`, []any{"%Föö%"}},
		{"source:Foo", "postgres", `COALESCE(u.source, '') ILIKE ? ESCAPE '\'`, []any{"%Foo%"}},
		{`source:"50%_a\\b"`, "postgres", `COALESCE(u.source, '') ILIKE ? ESCAPE '\'`, []any{`%50\%\_a\\b%`}},
		{"target:=Bar", "sqlite", `COALESCE(u.target, '') = ?`, []any{"Bar"}},
		{`note:r"^a"`, "postgres", `COALESCE(u.note, '') ~ ?`, []any{"^a"}},
		{`location:r"^a"`, "sqlite", `COALESCE(u.location, '') REGEXP ?`, []any{"^a"}},
		{"x", "postgres", `(COALESCE(u.source, '') ILIKE ? ESCAPE '\' OR COALESCE(u.target, '') ILIKE ? ESCAPE '\' OR COALESCE(u.context, '') ILIKE ? ESCAPE '\')`, []any{"%x%", "%x%", "%x%"}},
		{"state:>=translated", "sqlite", "u.state >= ?", []any{20}},
		{"is:untranslated", "postgres", "u.state < ?", []any{20}},
		{"has:suggestion", "sqlite", "(u.has_suggestion)", nil},
		{"has:comment", "sqlite", "(u.has_comment)", nil},
		{"has:plural", "sqlite", "(u.is_plural)", nil},
		{"has:context", "sqlite", "COALESCE(u.context, '') <> ''", nil},
		{"has:note", "postgres", "COALESCE(u.note, '') <> ''", nil},
		{"NOT is:fuzzy OR state:0 is:approved", "postgres", "(NOT (u.state = ?) OR (u.state = ? AND u.state = ?))", []any{10, 0, 30}},
	}
	for _, tc := range tests {
		q, err := Parse(tc.q)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.q, err)
		}
		where, args := q.SQL(testColumns, tc.dialect)
		if where != tc.where || !slices.Equal(args, tc.args) {
			t.Errorf("%s %q:\n got %s %#v\nwant %s %#v", tc.dialect, tc.q, where, args, tc.where, tc.args)
		}
	}
}

func TestSQLPluralFallbackAndMissingColumns(t *testing.T) {
	cols := testColumns
	cols.IsPlural = ""
	for dialect, want := range map[string]string{"sqlite": "instr(u.source, ?) > 0", "postgres": "strpos(u.source, ?) > 0"} {
		q, _ := Parse("has:plural")
		where, args := q.SQL(cols, dialect)
		if where != want || len(args) != 1 || args[0] != PluralSeparator {
			t.Errorf("%s: got %s %q", dialect, where, args)
		}
	}
	q, _ := Parse("has:suggestion note:x state:0")
	where, args := q.SQL(Columns{}, "sqlite")
	if where != "(1=0 AND 1=0 AND 1=0)" || len(args) != 0 {
		t.Errorf("missing columns: got %s %q", where, args)
	}
}

// TestSQLValuesNeverInText checks that hostile values only travel as
// arguments.
func TestSQLValuesNeverInText(t *testing.T) {
	for _, q := range []string{
		`"'; DROP TABLE units; --"`,
		`source:="' OR 1=1 --"`,
		`target:r"'\) OR \('1'='1"`,
		`context:"x'); DELETE FROM units; --"`,
		`note:"\" OR \"\"=\""`,
	} {
		parsed, err := Parse(q)
		if err != nil {
			t.Fatalf("Parse(%q): %v", q, err)
		}
		for _, dialect := range []string{"sqlite", "postgres"} {
			where, args := parsed.SQL(testColumns, dialect)
			for _, bad := range []string{"DROP", "DELETE", "1=1", `"`, "'1'"} {
				if strings.Contains(where, bad) {
					t.Errorf("%s %q: %q leaked into SQL %s", dialect, q, bad, where)
				}
			}
			if len(args) == 0 {
				t.Errorf("%s %q: no arguments", dialect, q)
			}
		}
	}
}

func TestNumbered(t *testing.T) {
	got := Numbered(`a = ? AND b LIKE ? ESCAPE '\' AND c = ?`)
	if want := `a = $1 AND b LIKE $2 ESCAPE '\' AND c = $3`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}

func TestRegexp(t *testing.T) {
	for _, tc := range []struct {
		pattern, text string
		want          bool
	}{{`^\d+$`, "123", true}, {`^\d+$`, "12a", false}, {`é`, "café", true}} {
		for range 2 { // second round hits the cache
			if got, err := Regexp(tc.pattern, tc.text); err != nil || got != tc.want {
				t.Errorf("Regexp(%q, %q) = %v, %v", tc.pattern, tc.text, got, err)
			}
		}
	}
	if _, err := Regexp("(", "x"); err == nil {
		t.Error("invalid pattern accepted")
	}
}

func FuzzParse(f *testing.F) {
	for _, seed := range []string{
		"", "a b OR c", `source:"two \"words\""`, "state:>=translated", "NOT (is:fuzzy OR has:plural)",
		`target:r"^x$"`, "foo:bar", "((a)", "a AND", `'it\'s'`, "f(x) note:=é", "has:comment key:k",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, s string) {
		q, err := Parse(s)
		if err != nil {
			if _, ok := errors.AsType[*ParseError](err); !ok {
				t.Fatalf("error of type %T", err)
			}
			return
		}
		for _, dialect := range []string{"sqlite", "postgres"} {
			where, args := q.SQL(testColumns, dialect)
			if n := strings.Count(where, "?"); n != len(args) {
				t.Fatalf("%q on %s: %d placeholders, %d args: %s", s, dialect, n, len(args), where)
			}
			// User text never reaches the SQL, so quotes and parentheses
			// there are only ours, and ours are balanced.
			if strings.Count(where, "'")%2 != 0 || strings.Count(where, "(") != strings.Count(where, ")") {
				t.Fatalf("%q on %s: unbalanced SQL %s", s, dialect, where)
			}
		}
	})
}

// TestLowersToASCII checks the list of the ASCII search against every
// character Go's Unicode tables know.
func TestLowersToASCII(t *testing.T) {
	var want []rune
	for r := rune(utf8.RuneSelf); r <= unicode.MaxRune; r++ {
		if unicode.ToLower(r) < utf8.RuneSelf {
			want = append(want, r)
		}
	}
	if !slices.Equal(lowersToASCII, want) {
		t.Errorf("lowersToASCII = %q, Unicode says %q", lowersToASCII, want)
	}
}
