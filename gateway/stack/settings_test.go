package stack

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestSettingsListEveryVariable reads every Go source file of the service
// (tests and test helpers aside) and checks that each TMS_* variable it
// names is in Settings, so `tms serve --help` lists them all.
func TestSettingsListEveryVariable(t *testing.T) {
	known := map[string]bool{}
	for _, s := range Settings {
		known[s.Env] = true
	}
	name := regexp.MustCompile(`"(TMS_[A-Z0-9_<>]+)"`)
	root := filepath.Join("..", "..")
	found := 0
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && p != root && (d.Name() == "pgtest" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".")):
			return filepath.SkipDir // test helpers read TMS_TEST_* variables of their own
		case d.IsDir() || !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go"):
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, m := range name.FindAllStringSubmatch(string(src), -1) {
			found++
			if !known[m[1]] {
				t.Errorf("%s reads %s, which Settings (and so tms serve --help) does not list", p, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if found < len(Settings) {
		t.Fatalf("found %d variable names in the sources, fewer than Settings lists: the walk missed the tree", found)
	}
}
