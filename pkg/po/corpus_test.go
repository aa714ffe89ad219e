package po

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// corpusFiles returns the PO files of shared/corpus/bleachbit, found by
// walking up from the package directory, or skips the test.
func corpusFiles(tb testing.TB) map[string][]byte {
	tb.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		tb.Fatal(err)
	}
	for {
		candidate := filepath.Join(dir, "shared", "corpus", "bleachbit")
		if st, err := os.Stat(candidate); err == nil && st.IsDir() {
			return readCorpus(tb, candidate)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Skip("shared/corpus/bleachbit not found above the package directory")
		}
		dir = parent
	}
}

func readCorpus(tb testing.TB, dir string) map[string][]byte {
	names, err := filepath.Glob(filepath.Join(dir, "*.po"))
	if err != nil || len(names) == 0 {
		tb.Skipf("no PO files in %s", dir)
	}
	files := make(map[string][]byte, len(names))
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			tb.Fatal(err)
		}
		files[filepath.Base(n)] = data
	}
	return files
}

func TestCorpusRoundTrip(t *testing.T) {
	for name, data := range corpusFiles(t) {
		f, err := Parse(data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.Equal(f.Bytes(), data) {
			t.Errorf("%s: Bytes() differs from the input", name)
		}
	}
}

// TestCorpusRenderOracle re-renders every corpus entry from its parsed fields
// with the msgstr re-wrapped (as after SetTarget) and compares it with the
// bytes it was read from: the corpus was written by translate-toolkit.
func TestCorpusRenderOracle(t *testing.T) {
	total, same, strict := 0, 0, 0
	for name, data := range corpusFiles(t) {
		f, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, e := range f.All() {
			total++
			got := e.render(f.Newline())
			want := string(e.raw)
			if len(want) > 0 && want[len(want)-1] != '\n' {
				want += f.Newline() // the last entry of a file without final newline
			}
			e.retarget = true
			if rendered := e.render(f.Newline()); rendered == want {
				same++
			} else if total-same <= 5 {
				t.Errorf("%s: entry differs:\n--- got\n%s--- want\n%s", name, rendered, want)
			}
			e.retarget = false
			if got == want {
				strict++
			}
		}
	}
	t.Logf("%d of %d entries re-render identically (%d with kept msgstr lines)", same, total, strict)
	if same != total {
		t.Errorf("%d entries differ", total-same)
	}
}
