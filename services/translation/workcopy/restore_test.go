package workcopy_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tmsproject/tms/services/translation/internal/fixture"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// TestRestoreAndResetTo: uncommitted writes are undone by Restore (a new
// file is deleted), a local commit by ResetTo.
func TestRestoreAndResetTo(t *testing.T) {
	origin := fixture.Origin(t, map[string]string{"po/cs.po": "x"})
	m := workcopy.NewManager(t.TempDir())
	r, err := m.Sync(t.Context(), 1, origin, "")
	if err != nil {
		t.Fatal(err)
	}
	read := func(path string) string {
		data, err := os.ReadFile(filepath.Join(r.Dir, filepath.FromSlash(path)))
		if errors.Is(err, os.ErrNotExist) {
			return "<none>"
		}
		return string(data)
	}
	for _, w := range []struct{ path, data string }{{"po/cs.po", "y"}, {"po/new.pot", "z"}} {
		if err := r.WriteFile(w.path, []byte(w.data)); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.Restore([]string{"po/cs.po", "po/new.pot"}); err != nil {
		t.Fatal(err)
	}
	if read("po/cs.po") != "x" || read("po/new.pot") != "<none>" {
		t.Errorf("after Restore: cs.po %q, new.pot %q", read("po/cs.po"), read("po/new.pot"))
	}
	if _, err := r.Commit("nothing\n", workcopy.Signature{Name: "a", Email: "a@x"}, workcopy.Signature{Name: "a", Email: "a@x"}); !errors.Is(err, workcopy.ErrNothingToCommit) {
		t.Errorf("restored paths left staged changes: %v", err)
	}
	before, _ := r.Head()
	if err := r.WriteFile("po/cs.po", []byte("y")); err != nil {
		t.Fatal(err)
	}
	if _, err := r.Commit("change\n", workcopy.Signature{Name: "a", Email: "a@x"}, workcopy.Signature{Name: "a", Email: "a@x"}); err != nil {
		t.Fatal(err)
	}
	if err := r.ResetTo(before); err != nil {
		t.Fatal(err)
	}
	if head, _ := r.Head(); head != before || read("po/cs.po") != "x" {
		t.Errorf("after ResetTo: head %s (want %s), cs.po %q", head, before, read("po/cs.po"))
	}
}
