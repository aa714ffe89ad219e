package json

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/base"
)

// fuzzFormat checks a format on arbitrary input: parsing either fails or
// renders the input byte-identical, and an edit of every unit renders a
// file that parses again with the edited values.
func fuzzFormat(f *testing.F, format Format, code string) {
	seeds, _ := filepath.Glob("testdata/*.json")
	for _, s := range seeds {
		data, _ := os.ReadFile(s)
		f.Add(data)
	}
	f.Add([]byte(`{"a": {"b_one": "x", "b_other": "y"}, "c": ["\u00e9", "\ud83d\ude00"]}`))
	f.Add([]byte("\ufeff{}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lang := base.Language{Code: code}
		file, err := format.Parse(data, lang)
		if err != nil {
			return
		}
		if got := file.Bytes(); string(got) != string(data) {
			t.Fatalf("round trip changed the input:\n%q\n%q", data, got)
		}
		units := file.Units()
		want := map[string][]string{}
		for _, u := range units {
			forms := make([]string, len(u.Target))
			for i := range forms {
				forms[i] = "é\"\n\\" + u.Context
			}
			if err = file.SetTarget(u, forms, false); err != nil {
				t.Fatal(err)
			}
			want[u.Context] = forms
		}
		again, err := format.Parse(file.Bytes(), lang)
		if err != nil {
			t.Fatalf("edited file does not parse: %v\n%s", err, file.Bytes())
		}
		for _, u := range again.Units() {
			if w, ok := want[u.Context]; ok && len(w) == len(u.Target) {
				for i := range w {
					if w[i] != u.Target[i] {
						t.Fatalf("unit %q form %d = %q, want %q", u.Context, i, u.Target[i], w[i])
					}
				}
			}
		}
	})
}

func FuzzJSON(f *testing.F)       { fuzzFormat(f, Nested, "de") }
func FuzzI18nextV4(f *testing.F)  { fuzzFormat(f, I18nextV4, "ru") }
func FuzzI18nextV3(f *testing.F)  { fuzzFormat(f, I18next, "en") }
func FuzzGoI18nJSON(f *testing.F) { fuzzFormat(f, GoI18nJSON, "cs") }
