package lang

import (
	"testing"

	"github.com/tmsproject/tms/pkg/errs"
)

// TestPickPlural: which plural of a language a file's rule is.
func TestPickPlural(t *testing.T) {
	def := Rule{ID: 7, Number: 2, Formula: "n != 1"}
	three := "n==1 ? 0 : n==2 ? 1 : 2"
	known := []Rule{{ID: 12, Source: SourceGettext, Number: 3, Formula: three}}
	for _, tc := range []struct {
		name    string
		number  int
		formula string
		known   []Rule
		want    int64 // the rule's id; 0: new
		isNew   bool
	}{
		{"no rule", 0, "", nil, 7, false},
		{"the default", 2, "n != 1", nil, 7, false},
		{"the default spelled otherwise", 2, "n == 1 ? 0 : 1", nil, 7, false},
		{"a known spelling of it", 2, "(n != 1)", nil, 0, true},
		{"a formula that does not compile", 3, "n ==", nil, 7, false},
		{"too many forms", 11, three, nil, 7, false},
		{"a stored rule", 3, three, known, 12, false},
		{"a stored rule spelled otherwise", 3, "(n==1) ? 0 : (n==2) ? 1 : 2", known, 12, false},
		{"a new rule", 3, three, nil, 0, true},
	} {
		got, isNew := PickPlural("de", def, tc.known, tc.number, tc.formula)
		if got.ID != tc.want || isNew != tc.isNew {
			t.Errorf("%s: %+v new %v, want id %d new %v", tc.name, got, isNew, tc.want, tc.isNew)
		}
		if isNew && (got.Source != SourceGettext || int(got.Number) != tc.number || got.Formula != tc.formula) {
			t.Errorf("%s: the new rule %+v is not the file's", tc.name, got)
		}
	}
}

// TestFileLanguage: the language made of an unknown code and a file's rule.
func TestFileLanguage(t *testing.T) {
	for _, tc := range []struct {
		code    string
		number  int32
		formula string
		want    Rule
		field   string // of the InvalidArgument; "": none
	}{
		{"zz", 0, "", Rule{Number: 2, Formula: "n != 1"}, ""},
		{"zz_Latn", 3, "n==1 ? 0 : n==2 ? 1 : 2", Rule{Source: SourceGettext, Number: 3, Formula: "n==1 ? 0 : n==2 ? 1 : 2"}, ""},
		{"zz", 11, "n", Rule{}, "plural_number"},
		{"zz", 2, "n ==", Rule{}, "plural_formula"},
		{"not a code", 0, "", Rule{}, "code"},
	} {
		got, err := FileLanguage(tc.code, tc.number, tc.formula)
		field := ""
		if e := errs.FromStatus(err); err != nil && e.Kind == errs.InvalidArgument && len(e.Fields) == 1 {
			field = e.Fields[0].Field
		}
		if (err != nil) != (tc.field != "") || field != tc.field ||
			err == nil && (got.Source != tc.want.Source || got.Number != tc.want.Number || got.Formula != tc.want.Formula) {
			t.Errorf("%s %d %q: %+v, %v; want %+v, InvalidArgument on %q", tc.code, tc.number, tc.formula, got, err, tc.want, tc.field)
		}
	}
}
