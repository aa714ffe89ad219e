package po

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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
// bytes it was read from.
//
// Most corpus entries were last written by translate-toolkit and match. The
// others were rewritten by GNU msgmerge, whose wrapping differs (it breaks
// lines by Unicode line-breaking rules, inside Hangul and Thai words, and
// counts the keyword when deciding on the leading `msgstr ""`), so the test
// requires the measured share rather than all of them.
func TestCorpusRenderOracle(t *testing.T) {
	total, same, kept := 0, 0, 0
	for name, data := range corpusFiles(t) {
		f, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, e := range f.All() {
			total++
			want := string(e.raw)
			if !strings.HasSuffix(want, "\n") {
				want += f.Newline() // the last entry of a file without final newline
			}
			if e.render(f.Newline()) == want {
				kept++
			}
			e.retarget = true
			if e.render(f.Newline()) == want {
				same++
			}
			e.retarget = false
		}
	}
	t.Logf("%d of %d entries re-render identically with the msgstr re-wrapped, %d with its lines kept",
		same, total, kept)
	if kept != total {
		t.Errorf("%d entries differ even with their original lines kept", total-kept)
	}
	if float64(same) < 0.98*float64(total) {
		t.Errorf("only %d of %d entries re-render identically", same, total)
	}
}
