package json

import (
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
)

// fuzzFormat checks a format on arbitrary input: parsing either fails or
// renders the input byte-identical, and an edit of every unit renders a
// file that parses again with the edited values.
func fuzzFormat(f *testing.F, format Format, code string) {
	value := func(_, _ int, ctx string) string { return "é\"\n\\" + ctx }
	formattest.Fuzz(f, format, code, "testdata/*.json", value,
		`{"a": {"b_one": "x", "b_other": "y"}, "c": ["\u00e9", "\ud83d\ude00"]}`, "\ufeff{}\n")
}

func FuzzJSON(f *testing.F)       { fuzzFormat(f, Nested, "de") }
func FuzzI18nextV4(f *testing.F)  { fuzzFormat(f, I18nextV4, "ru") }
func FuzzI18nextV3(f *testing.F)  { fuzzFormat(f, I18next, "en") }
func FuzzGoI18nJSON(f *testing.F) { fuzzFormat(f, GoI18nJSON, "cs") }
