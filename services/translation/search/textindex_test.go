package search

import (
	"fmt"
	"testing"
)

// TestTrigramMatch: the FTS5 expression a trigram index answers for a
// query, which must hold for every unit the query matches, and no
// expression where a term it cannot answer could widen the matches.
func TestTrigramMatch(t *testing.T) {
	const all = "{source target context} : "
	for _, tc := range []struct{ q, want string }{
		{"cookies", all + `"cookies"`},
		{"COOKIES", all + `"COOKIES"`},
		{`source:"temporary data"`, `{source} : "temporary data"`},
		{`target:'say "hi"'`, `{target} : "say ""hi"""`},
		{"context:menu", `{context} : "menu"`},
		{"source:backup AND target:restore AND state:>=translated", `({source} : "backup" AND {target} : "restore")`},
		{"cookies state:<translated", all + `"cookies"`},
		{"target:proxy OR target:cookies", `({target} : "proxy" OR {target} : "cookies")`},
		{"(abc OR def) ghi", `((` + all + `"abc" OR ` + all + `"def") AND ` + all + `"ghi")`},
		{"cookies NOT cache", all + `"cookies"`},
		{"cookies OR ab", ""},       // too short for a trigram
		{"cookies OR note:abc", ""}, // not indexed
		{"NOT cookies", ""},         // the complement
		{"größe", ""},               // folded otherwise
		{"cookies OR größe", ""},    // under OR, one term it cannot answer
		{`source:r"^back"`, ""},     // a regular expression
		{"source:=Backup", ""},      // exact: left to the scan
		{"state:translated", ""},    // no text
		{"has:suggestion cookies", all + `"cookies"`},
		{"abc\x1edef", ""}, // a control character (the plural separator)
		{"", ""},
	} {
		q, err := Parse(tc.q)
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		got, ok := q.TrigramMatch()
		if ok != (tc.want != "") || got != tc.want {
			t.Errorf("%q: %q, %v; want %q", tc.q, got, ok, tc.want)
		}
	}
}

// TestTrigramCondition: PostgreSQL's condition on the text table takes
// the terms TrigramMatch takes, and also those of other alphabets and
// with control characters (ILIKE folds them as the search does), with
// each value a LIKE pattern tested in the term's fields.
func TestTrigramCondition(t *testing.T) {
	const like = ` ILIKE ? ESCAPE '\'`
	const all = "(x.source" + like + " OR x.target" + like + " OR x.context" + like + ")"
	for _, tc := range []struct {
		q, want string
		args    []any
	}{
		{"cookies", all, []any{"%cookies%", "%cookies%", "%cookies%"}},
		{`source:"50%_off"`, "x.source" + like, []any{`%50\%\_off%`}},
		{"source:backup AND target:restore AND state:>=translated", "(x.source" + like + " AND x.target" + like + ")",
			[]any{"%backup%", "%restore%"}},
		{"target:proxy OR context:größe", "(x.target" + like + " OR x.context" + like + ")", []any{"%proxy%", "%größe%"}},
		{"source:abc\x1edef", "x.source" + like, []any{"%abc\x1edef%"}},
		{"cookies OR ab", "", nil},
		{"cookies OR note:abc", "", nil},
		{"NOT cookies", "", nil},
		{`source:r"^back"`, "", nil},
		{"source:=Backup", "", nil},
	} {
		q, err := Parse(tc.q)
		if err != nil {
			t.Fatalf("%q: %v", tc.q, err)
		}
		got, args, ok := q.TrigramCondition("x")
		if ok != (tc.want != "") || got != tc.want || fmt.Sprint(args) != fmt.Sprint(tc.args) {
			t.Errorf("%q: %q %v, %v; want %q %v", tc.q, got, args, ok, tc.want, tc.args)
		}
	}
}
