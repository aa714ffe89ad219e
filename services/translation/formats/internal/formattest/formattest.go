// Package formattest holds what the tests of the format packages share:
// reading a test file with a byte-identical round trip, golden files, and
// the fuzz property every parser keeps.
package formattest

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/base"
)

// update is go test's -update: golden files are rewritten.
var update = flag.Bool("update", false, "rewrite the golden files")

// Parse reads testdata/name as a file of language code and fails t unless
// it renders back byte-identical.
func Parse(t testing.TB, f base.Format, name, code string) base.File {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	file, err := f.Parse(data, base.Language{Code: code})
	if err != nil {
		t.Fatal(err)
	}
	if got := string(file.Bytes()); got != string(data) {
		t.Fatalf("round trip of %s changed it:\n%s", name, got)
	}
	return file
}

// Golden compares got with testdata/name, rewriting the file first under
// -update.
func Golden(t testing.TB, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s differs:\n%s\nwant\n%s", name, got, want)
	}
}

// Find is the unit of key ctx of f.
func Find(t testing.TB, f base.File, ctx string) *base.Unit {
	t.Helper()
	for _, u := range f.Units() {
		if u.Context == ctx {
			return u
		}
	}
	t.Fatalf("no unit %q", ctx)
	return nil
}

// Units lists the units of f as key=form|form..., joined by sep.
func Units(f base.File, sep string) string {
	var out []string
	for _, u := range f.Units() {
		out = append(out, u.Context+"="+strings.Join(u.Target, "|"))
	}
	return strings.Join(out, sep)
}

// Fuzz checks a format on arbitrary input, seeded with the files matching
// glob and extra: parsing either fails or renders the input
// byte-identical, and after every unit is set to value(unit index, form
// index, key) the file parses again with those values.
func Fuzz(f *testing.F, format base.Format, code, glob string, value func(i, j int, ctx string) string, extra ...string) {
	seeds, _ := filepath.Glob(glob)
	for _, s := range seeds {
		data, _ := os.ReadFile(s)
		f.Add(data)
	}
	for _, s := range extra {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		lang := base.Language{Code: code}
		file, err := format.Parse(data, lang)
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
				forms[j] = value(i, j, u.Context)
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
			if w, ok := want[u.Context]; ok && len(w) == len(u.Target) && strings.Join(w, "\x00") != strings.Join(u.Target, "\x00") {
				t.Fatalf("unit %q = %q, want %q", u.Context, u.Target, w)
			}
		}
	})
}
