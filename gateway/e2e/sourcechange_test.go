package e2e

import (
	"testing"
)

// TestSourceEditReachesTranslations edits an English string of a JSON
// component through REST: the German and Russian units of that key take
// the new source at once, keep the former as previous_source, and a
// translated one needs editing (as Weblate marks it), which the
// statistics count; the other keys are untouched.
func TestSourceEditReachesTranslations(t *testing.T) {
	base, _ := startFormatComponent(t, jsonFixture, map[string]any{"filemask": "locales/*.json",
		"template": "locales/en.json", "new_base": "locales/en.json", "file_format": "i18nextv4"}, "ru", 4)
	expectStats(t, base, map[string][3]float64{"de": {4, 11, 3}, "ru": {4, 11, 2}})

	editUnit(t, base, unitsByKey(t, base, "en")["app.title"], `Hello "new World"`)

	for code, wantState := range map[string]float64{"de": 10, "ru": 10} {
		u := unitsByKey(t, base, code)["app.title"]
		if got := join(u["source"]); got != `Hello "new World"` {
			t.Errorf("%s source = %q", code, got)
		}
		if u["previous_source"] != `Hello "World"` || u["state"] != wantState || u["fuzzy"] != true {
			t.Errorf("%s: previous_source %q, state %v, fuzzy %v", code, u["previous_source"], u["state"], u["fuzzy"])
		}
		if other := unitsByKey(t, base, code)["app.welcome"]; other["previous_source"] != "" {
			t.Errorf("%s: another key changed: %v", code, other["previous_source"])
		}
	}
	// One more word in the source; one string of each fewer translated.
	expectStats(t, base, map[string][3]float64{"en": {4, 12, 4}, "de": {4, 12, 2}, "ru": {4, 12, 1}})
}
