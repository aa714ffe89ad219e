package search

import "testing"

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
