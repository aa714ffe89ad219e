package checks

import (
	"slices"
	"strings"
	"testing"
)

// TestInconsistent follows Weblate's test_consistency_checks and
// BatchUpdateTest.test_toggle: (T, "") and ("", T) fail from either
// side, (T, T) and ("", "") do not; an untranslated string compares
// only with translated copies.
func TestInconsistent(t *testing.T) {
	tests := []struct {
		name   string
		target string
		state  int
		flags  string
		copies []Copy
		want   bool
	}{
		{"no copies", "Jeden", 20, "", []Copy{}, false},
		{"propagation off", "Jeden", 20, "", nil, false},
		{"same translation", "Jeden", 20, "", []Copy{{"Jeden", true}}, false},
		{"other translation", "Jeden", 20, "", []Copy{{"Jedna", true}}, true},
		{"copy untranslated", "Jeden", 20, "", []Copy{{"", false}}, true},
		{"copy needs editing", "Jeden", 20, "", []Copy{{"Jedna", false}}, true},
		{"untranslated, copy translated", "", 0, "", []Copy{{"Jeden", true}}, true},
		{"both untranslated", "", 0, "", []Copy{{"", false}}, false},
		{"needs editing, copy needs editing", "Jedna", 10, "", []Copy{{"Jeden", false}}, false},
		{"needs editing, copy translated", "Jedna", 10, "", []Copy{{"Jeden", true}}, true},
		{"needs editing, same as translated copy", "Jeden", 10, "", []Copy{{"Jeden", true}}, false},
		{"one of several differs", "Jeden", 20, "", []Copy{{"Jeden", true}, {"Jedno", true}}, true},
		{"plural forms compared whole", "a\x1e\x1eb", 20, "", []Copy{{"a\x1e\x1ec", true}}, true},
		{"ignored", "Jeden", 20, "ignore-inconsistent", []Copy{{"Jedna", true}}, false},
		{"all ignored", "Jeden", 20, "ignore-all-checks", []Copy{{"Jedna", true}}, false},
		{"read-only", "Jeden", 100, "", []Copy{{"Jedna", true}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u := Unit{Sources: []string{"One"}, Targets: strings.Split(tt.target, "\x1e\x1e"), Lang: "cs", SourceLang: "en", State: tt.state, Copies: tt.copies,
				SourcePlural: Plural{2, "n != 1"}, TargetPlural: Plural{3, "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2"}}
			if len(u.Targets) > 1 {
				u.Sources = []string{"One", "Many"}
			}
			u.Flags.MergeText(tt.flags)
			got := slices.ContainsFunc(Run(u), func(f Failure) bool { return f.ID == "inconsistent" })
			if got != tt.want {
				t.Errorf("Run: inconsistent = %v, want %v", got, tt.want)
			}
			if direct := Inconsistent(tt.target, tt.state, u.Flags, tt.copies); direct != tt.want {
				t.Errorf("Inconsistent = %v, want %v", direct, tt.want)
			}
		})
	}
}
