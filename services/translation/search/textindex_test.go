package search

import (
	"fmt"
	"strings"
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

// TestTrigramTree: PostgreSQL's tree of terms takes the terms
// TrigramMatch takes, and also those of other alphabets and with control
// characters (ILIKE folds them as the search does), each a LIKE pattern
// tested in the term's fields.
func TestTrigramTree(t *testing.T) {
	for _, tc := range []struct {
		q, want string
		args    []any
	}{
		{"cookies", "stc", []any{"%cookies%"}},
		{`source:"50%_off"`, "s", []any{`%50\%\_off%`}},
		{"source:backup AND target:restore AND state:>=translated", "(s AND t)", []any{"%backup%", "%restore%"}},
		{"target:proxy OR context:größe", "(t OR c)", []any{"%proxy%", "%größe%"}},
		{"(cookies OR target:proxy) AND source:data", "((stc OR t) AND s)", []any{"%cookies%", "%proxy%", "%data%"}},
		{"source:abc\x1edef", "s", []any{"%abc\x1edef%"}},
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
		tree, ok := q.TrigramTree()
		var args []any
		got := ""
		if ok {
			got = describeTree(tree, &args)
		}
		if ok != (tc.want != "") || got != tc.want || fmt.Sprint(args) != fmt.Sprint(tc.args) {
			t.Errorf("%q: %q %v, %v; want %q %v", tc.q, got, args, ok, tc.want, tc.args)
		}
	}
}

// describeTree renders t with each term's fields and the patterns in
// args.
func describeTree(t TextTree, args *[]any) string {
	if t.Term != nil {
		*args = append(*args, t.Term.Pattern)
		return named(t.Term.Source, "s") + named(t.Term.Target, "t") + named(t.Term.Context, "c")
	}
	parts := make([]string, len(t.Kids))
	for i, k := range t.Kids {
		parts[i] = describeTree(k, args)
	}
	op := " OR "
	if t.And {
		op = " AND "
	}
	return "(" + strings.Join(parts, op) + ")"
}

func named(on bool, name string) string {
	if on {
		return name
	}
	return ""
}
