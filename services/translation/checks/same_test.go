package checks

import (
	"slices"
	"testing"
)

// TestSame: Weblate's cases of the same check (test_same_checks.py): a
// string left as its source fails unless all it holds stays untranslated.
func TestSame(t *testing.T) {
	tests := []struct {
		text, flags string
		fails       bool
	}{
		{"1:4", "", false},
		{"1, 3, 10", "", false},
		{"Linux kernel", "", false},
		{"Linux kernel", "strict-same", true},
		{"Gettext (PO)", "", false},
		{"Fedora &amp; openSUSE", "", false},
		{"n/a mm", "", false},
		{"i18n", "", false},
		{"i18next", "", false},
		{"%s%s, %s%s (", "c-format", false},
		{"%s %s Fax: %s", "c-format", false},
		{"%i C", "c-format", false},
		{"michal@cihar.com", "", false},
		{"Write michal@cihar.com", "", true},
		{"https://weblate.org/", "", false},
		{"See https://weblate.org/", "", true},
		{"#weblate", "", false},
		{"Please use #weblate", "", true},
		{"weblate.org", "", false},
		{"demo.weblate.org", "", false},
		{"File/path/directory", "", true},
		{"@NAME@: @BOO@", "", false},
		{"{building}: summary", "", true},
		{"@NAME@: long text", "", true},
		{"a.,b.,c.,d.", "", false},
		{"i.,ii.,iii.,iv.", "", false},
		{"RMS", "", false},
		{"<primary>RMS</primary>", "", false},
		{"Who is RMS?", "", true},
		{"%location%", "", true},
		{"routine 1, routine 2, ...", "", false},
		{"routine1, routine2, ...", "", false},
		{"routine_foobar, routine2, ...", "", true},
		{"MockProject", "", false}, // the project's name
		{"Some text", "ignore-same", false},
	}
	for _, tt := range tests {
		u := unit(tt.text, tt.text, "de", tt.flags)
		u.Names = []string{"MockProject", "Mock component"}
		if got := slices.Contains(failing(u), "same"); got != tt.fails {
			t.Errorf("%q (%s): same fails %v, want %v", tt.text, tt.flags, got, tt.fails)
		}
	}
	for _, note := range []string{"Tag: screen", "type: delimited block -"} {
		u := unit("Some text", "Some text", "de", "")
		u.Note = note
		if slices.Contains(failing(u), "same") {
			t.Errorf("a string noted %q fails same", note)
		}
	}
}
