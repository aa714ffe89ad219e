package corpus

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Dir returns the corpus directory, found by walking up from the working
// directory (a package directory under go test), or skips tb.
func Dir(tb testing.TB) string {
	tb.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		tb.Fatal(err)
	}
	for {
		p := filepath.Join(dir, "shared", "corpus", "bleachbit")
		if st, err := os.Stat(p); err == nil && st.IsDir() {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			tb.Skip("shared/corpus/bleachbit not found above the package directory; skipping")
		}
		dir = parent
	}
}

// Files returns the corpus files whose names end in one of the suffixes
// (".po", ".pot"), by base name; it skips tb when there are none.
func Files(tb testing.TB, suffixes ...string) map[string][]byte {
	tb.Helper()
	dir := Dir(tb)
	entries, err := os.ReadDir(dir)
	if err != nil {
		tb.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		if e.IsDir() || !hasSuffix(e.Name(), suffixes) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			tb.Fatal(err)
		}
		files[e.Name()] = data
	}
	if len(files) == 0 {
		tb.Skipf("no %v files in %s", suffixes, dir)
	}
	return files
}

func hasSuffix(name string, suffixes []string) bool {
	for _, s := range suffixes {
		if strings.HasSuffix(name, s) {
			return true
		}
	}
	return false
}
