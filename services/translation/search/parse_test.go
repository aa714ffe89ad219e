package search

import (
	"errors"
	"strings"
	"testing"
)

func TestParseStructure(t *testing.T) {
	const any3 = "source|target|context:"
	tests := []struct {
		q    string
		want string
	}{
		{"", "(all)"},
		{"   \t", "(all)"},
		{"hello", any3 + `"hello"`},
		{"a b", `(and ` + any3 + `"a" ` + any3 + `"b")`},
		{"a b OR c", `(or (and ` + any3 + `"a" ` + any3 + `"b") ` + any3 + `"c")`},
		{"a OR b c", `(or ` + any3 + `"a" (and ` + any3 + `"b" ` + any3 + `"c"))`},
		{"a OR b AND c", `(or ` + any3 + `"a" (and ` + any3 + `"b" ` + any3 + `"c"))`},
		{"(a OR b) c", `(and (or ` + any3 + `"a" ` + any3 + `"b") ` + any3 + `"c")`},
		{"NOT a AND b", `(and (not ` + any3 + `"a") ` + any3 + `"b")`},
		{"NOT NOT a", `(not (not ` + any3 + `"a"))`},
		{"not(a or b)", `(not (or ` + any3 + `"a" ` + any3 + `"b"))`},
		{"a not b", `(and ` + any3 + `"a" (not ` + any3 + `"b"))`},
		{"a Or b aNd c", `(or ` + any3 + `"a" (and ` + any3 + `"b" ` + any3 + `"c"))`},
		{"android orange notice", `(and ` + any3 + `"android" ` + any3 + `"orange" ` + any3 + `"notice")`},
		{`"two words"`, any3 + `"two words"`},
		{`'two words'`, any3 + `"two words"`},
		{`"say \"hi\""`, any3 + `"say \"hi\""`},
		{`'it\'s'`, any3 + `"it's"`},
		{`"back\\slash \d"`, any3 + `"back\\slash \\d"`},
		{`"tab\there"`, any3 + `"tab\there"`},
		{`""`, any3 + `""`},
		{"don't", any3 + `"don't"`},
		{"f(x)", any3 + `"f(x)"`},
		{"(f(x))", any3 + `"f(x)"`},
		{"(a f(x)) b", `(and (and ` + any3 + `"a" ` + any3 + `"f(x)") ` + any3 + `"b")`},
		{"f(x", any3 + `"f(x"`},
		{"http://example.com/a:b", any3 + `"http://example.com/a:b"`},
		{"12:30", any3 + `"12:30"`},
		{"source:hello", `source:"hello"`},
		{"Source:hello", `source:"hello"`},
		{"target:=Hallo", `target:="Hallo"`},
		{`context:"a b"`, `context:"a b"`},
		{"key:k", `context:"k"`},
		{"note:n location:file.c:10", `(and note:"n" location:"file.c:10")`},
		{"source:>=x", `source:">=x"`},
		{"source:<x", `source:"<x"`},
		{`source:r"^a.b$"`, `source:r"^a.b$"`},
		{`source:=r"^a$"`, `source:r"^a$"`},
		{`r"\d+"`, `source|target|context:r"\\d+"`},
		{"source:and", `source:"and"`},
		{"source:NOT OR b", `(or source:"NOT" ` + any3 + `"b")`},
		{"state:translated", "state=20"},
		{"state:=approved", "state=30"},
		{"state:>=translated", "state>=20"},
		{"state:<approved", "state<30"},
		{"state:>10", "state>10"},
		{"state:<=needs-editing", "state<=10"},
		{"state:empty", "state=0"},
		{"state:untranslated", "state=0"},
		{"state:read-only", "state=100"},
		{"state:READONLY", "state=100"},
		{`state:"fuzzy"`, "state=10"},
		{"is:translated", "state>=20"},
		{"is:untranslated", "state<20"},
		{"is:fuzzy", "state=10"},
		{"is:needs-editing", "state=10"},
		{"is:approved", "state=30"},
		{"is:read-only", "state=100"},
		{"is:readonly", "state=100"},
		{"has:suggestion", "has:suggestion"},
		{"has:comment", "has:comment"},
		{"has:plural", "has:plural"},
		{"has:context", "has:context"},
		{"has:note", "has:note"},
		{"has:translation", "state>=20"},
		{"has:Plural", "has:plural"},
		{"has:check", "has:check"},
		{"has:failing-check", "has:check"},
		{"has:dismissed-check", "has:dismissed-check"},
		{"check:end_stop", `check~"end_stop"`},
		{"check:=C_format", `check="c_format"`},
		{"dismissed_check:same", `dismissed_check~"same"`},
		{"état", any3 + `"état"`},
		{"is:translated AND (source:hello OR source:bar)", `(and state>=20 (or source:"hello" source:"bar"))`},
		// change conditions joined by AND hold for one change record
		{"changed_by:Alice", `(change change.changed_by="Alice")`},
		{`changed_by:r"^a"`, `(change change.changed_by:r"^a")`},
		{`changed_by:""`, `(change change.changed_by="")`},
		{"change_action:translation-changed", `(change change.change_action=2)`},
		{`change_action:"Translation approved"`, `(change change.change_action=36)`},
		{"change_action:>=comment-added", `(change change.change_action>=3)`},
		{"change_time:2024-05-01T10:00:00Z", `(change change.change_time[change_time=2024-05-01T10:00:00Z])`},
		{"changed_by:a change_action:translation-approved state:>=20",
			`(and state>=20 (change change.changed_by="a" change.change_action=36))`},
		{"changed_by:a (changed_by:b OR source:x)",
			`(or (change change.changed_by="a" change.changed_by="b") (and source:"x" (change change.changed_by="a")))`},
		{"NOT changed_by:a", `(not (change change.changed_by="a"))`},
		{"changed_by:a NOT changed_by:b", `(and (not (change change.changed_by="b")) (change change.changed_by="a"))`},
	}
	for _, tc := range tests {
		q, err := Parse(tc.q)
		if err != nil {
			t.Errorf("Parse(%q): unexpected error %v", tc.q, err)
			continue
		}
		if got := q.String(); got != tc.want {
			t.Errorf("Parse(%q)\n got %s\nwant %s", tc.q, got, tc.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		q       string
		pos     int
		message string
	}{
		{"(a", 0, `"(" is never closed`},
		{"a (b (c)", 2, `"(" is never closed`},
		{"a)", 1, `")" without matching "("`},
		{")", 0, `")" without matching "("`},
		{"()", 0, "empty parentheses"},
		{"foo:bar", 0, `unknown search field "foo"`},
		{"a foo:bar", 2, `unknown search field "foo"`},
		{"path:acme/app", 0, `search field "path" is not supported`},
		{"is:automatically-translated", 3, "is:automatically-translated is not supported"},
		{"change_action:bogus", 14, "Unknown change action: bogus"},
		{"change_action:Translation-Changed", 14, "Unknown change action"},
		{`change_action:r"x"`, 14, "Unknown change action"},
		{"changed:soon", 8, "could not parse timestamp"},
		{`changed_by:r"(a"`, 11, "invalid regular expression"},
		{"(changed_by:a OR changed_by:b OR changed_by:c OR changed_by:d OR changed_by:e) " +
			"(changed_by:a OR changed_by:b OR changed_by:c OR changed_by:d OR changed_by:e) " +
			"(changed_by:a OR changed_by:b OR changed_by:c)", 0, "Search query is too complex."},
		{"added:someday", 6, `could not parse timestamp`},
		{"added:[2024 to soon]", 6, `could not parse timestamp`},
		{"position:[1 to x]", 9, `could not parse numeric value`},
		{`added:r"2024"`, 6, `regular expressions cannot be used`},
		{"priority:ten", 9, "could not parse numeric value"},
		{"id:1,x", 3, "could not parse numeric value"},
		{`position:r"1"`, 9, "regular expressions cannot be used"},
		{"state:bogus", 6, `unknown state "bogus"`},
		{"state:", 6, `missing value after "state:"`},
		{`state:""`, 6, `missing value after "state:"`},
		{"state:99999999999999999999", 6, "state number out of range"},
		{`state:r"1"`, 6, "regular expressions cannot be used"},
		{"source: x", 7, `missing value after "source:"`},
		{"source:", 7, `missing value after "source:"`},
		{"source:(x)", 7, `missing value after "source:"`},
		{"é source:", 9, `missing value after "source:"`}, // positions count characters
		{"is:bogus", 3, `unknown is: lookup "bogus"`},
		{"is:>translated", 0, `operator ":>" cannot be used with "is:"`},
		{"has:bogus", 4, `unknown has: lookup "bogus"`},
		{"has:glossary", 4, "has:glossary is not supported"},
		{"check:", 6, `missing value after "check:"`},
		{"project:>acme", 0, `operator ":>" cannot be used with "project:"`},
		{"language:", 9, `missing value after "language:"`},
		{`component:r"(a"`, 10, "invalid regular expression"},
		{"has:", 4, `missing value after "has:"`},
		{"a AND", 2, "AND must be followed by a search term"},
		{"a OR", 2, "OR must be followed by a search term"},
		{"NOT", 0, "NOT must be followed by a search term"},
		{"a NOT", 2, "NOT must be followed by a search term"},
		{"OR a", 0, "expected a search term before OR"},
		{"AND a", 0, "expected a search term before AND"},
		{"a AND OR b", 2, "AND must be followed by a search term"},
		{"a OR OR b", 2, "OR must be followed by a search term"},
		{"(a AND)", 3, "AND must be followed by a search term"},
		{`"open`, 0, "unterminated quoted string"},
		{`source:"open`, 7, "unterminated quoted string"},
		{`x 'it`, 2, "unterminated quoted string"},
		{`source:r"(a"`, 7, "invalid regular expression"},
		{`source:>r"a"`, 0, "cannot be used with a regular expression"},
		{"a\x00b", 1, "NUL character"},
		{"a \xff", 2, "not valid UTF-8"},
		{strings.Repeat("(", 200) + "a" + strings.Repeat(")", 200), 20, "nested too deeply"},
		{strings.Repeat("NOT ", 200) + "a", 80, "nested too deeply"},
		{strings.Repeat("a OR ", 150) + "a", 250, "more than 50 search terms"},
		{"source:" + strings.Repeat("x", 600), 7, "longer than 500 characters"},
		{strings.Repeat("é", 2001), 2000, "longer than 2000 characters"},
	}
	for _, tc := range tests {
		_, err := Parse(tc.q)
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("Parse(%q): want *ParseError, got %v", tc.q, err)
			continue
		}
		if pe.Pos != tc.pos || !strings.Contains(pe.Msg, tc.message) {
			t.Errorf("Parse(%q): got pos %d %q, want pos %d containing %q", tc.q, pe.Pos, pe.Msg, tc.pos, tc.message)
		}
		if !strings.Contains(pe.Error(), pe.Msg) {
			t.Errorf("Error() %q lacks the message", pe.Error())
		}
	}
}
