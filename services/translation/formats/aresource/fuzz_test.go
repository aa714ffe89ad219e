package aresource

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/base"
)

// FuzzAResource checks the parser on arbitrary input: parsing either
// fails or renders the input byte-identical, and an edit of every unit
// renders a file that parses again with the edited values.
func FuzzAResource(f *testing.F) {
	seeds, _ := filepath.Glob("testdata/*.xml")
	for _, s := range seeds {
		data, _ := os.ReadFile(s)
		f.Add(data)
	}
	f.Add([]byte(`<resources><string name="a">"  x "\u00e9\n</string><plurals name="p"><item quantity="few">\'</item></plurals></resources>`))
	f.Add([]byte("\ufeff<resources/>"))
	f.Fuzz(func(t *testing.T, data []byte) {
		lang := base.Language{Code: "ru"}
		file, err := Format{}.Parse(data, lang)
		if err != nil {
			return
		}
		if got := file.Bytes(); string(got) != string(data) {
			t.Fatalf("round trip changed the input:\n%q\n%q", data, got)
		}
		want := map[string][]string{}
		for i, u := range file.Units() {
			forms := make([]string, len(u.Target))
			for j := range forms {
				forms[j] = strings.Repeat("é\"\n\\'?@ <b>x</b>", j+1) + string(rune('a'+i%26))
			}
			if err = file.SetTarget(u, forms, false); err != nil {
				t.Fatal(err)
			}
			want[u.Context] = forms
		}
		again, err := Format{}.Parse(file.Bytes(), lang)
		if err != nil {
			t.Fatalf("edited file does not parse: %v\n%s", err, file.Bytes())
		}
		for _, u := range again.Units() {
			if w, ok := want[u.Context]; ok && strings.Join(w, "\x00") != strings.Join(u.Target, "\x00") {
				t.Fatalf("unit %q = %q, want %q", u.Context, u.Target, w)
			}
		}
	})
}
