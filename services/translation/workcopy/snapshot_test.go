package workcopy_test

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/tmsproject/tms/services/translation/internal/fixture"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// TestSnapshotRebuildsElsewhere: two local commits (one adding a file in a
// new directory) survive the loss of the working copy: another manager, a
// replica with an empty disk, rebuilds them from the remote and the
// snapshot, with nothing pushed.
func TestSnapshotRebuildsElsewhere(t *testing.T) {
	origin := fixture.Origin(t, map[string]string{"po/cs.po": "x", "po/de.po": "d"})
	a := workcopy.NewManager(t.TempDir())
	r, err := a.Sync(t.Context(), 1, origin, "")
	if err != nil {
		t.Fatal(err)
	}
	if fresh, ferr := r.Snapshot(t.Context()); ferr != nil || len(fresh.Pack) != 0 || fresh.Head != fresh.RemoteHead {
		t.Fatalf("a fresh clone's snapshot: %+v %v", fresh, ferr)
	}
	sig := workcopy.Signature{Name: "a", Email: "a@x"}
	for i, files := range []map[string]string{{"po/cs.po": "y"}, {"docs/fr/fr.po": "f", "po/cs.po": "z"}} {
		for p, data := range files {
			if werr := r.WriteFile(p, []byte(data)); werr != nil {
				t.Fatal(werr)
			}
		}
		if _, cerr := r.Commit("local "+string(rune('1'+i))+"\n", sig, sig); cerr != nil {
			t.Fatal(cerr)
		}
	}
	snap, err := r.Snapshot(t.Context())
	if err != nil || len(snap.Pack) == 0 {
		t.Fatalf("snapshot: %d bytes, %v", len(snap.Pack), err)
	}
	b := workcopy.NewManager(t.TempDir())
	rebuilt, err := b.Rebuild(t.Context(), 1, origin, snap)
	if err != nil {
		t.Fatal(err)
	}
	if !rebuilt.Matches(snap) {
		t.Error("the rebuilt copy does not match its snapshot")
	}
	for p, want := range map[string]string{"po/cs.po": "z", "docs/fr/fr.po": "f", "po/de.po": "d"} {
		if got, rerr := os.ReadFile(filepath.Join(rebuilt.Dir, filepath.FromSlash(p))); rerr != nil || string(got) != want {
			t.Errorf("%s: %q %v, want %q", p, got, rerr, want)
		}
	}
	st, err := rebuilt.State()
	if err != nil || st.Ahead != 2 || st.Behind != 0 {
		t.Errorf("rebuilt state: %+v %v, want 2 ahead", st, err)
	}
	// The first copy, outdated by the rebuilt one's commit, catches up.
	if err = rebuilt.WriteFile("po/de.po", []byte("e")); err != nil {
		t.Fatal(err)
	}
	if _, err = rebuilt.Commit("on the other replica\n", sig, sig); err != nil {
		t.Fatal(err)
	}
	later, err := rebuilt.Snapshot(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if r.Matches(later) {
		t.Fatal("the first copy matches a snapshot it lacks a commit of")
	}
	if err := r.CatchUp(t.Context(), later); err != nil || !r.Matches(later) {
		t.Fatalf("catch up: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(r.Dir, "po", "de.po")); string(got) != "e" {
		t.Errorf("caught-up de.po: %q", got)
	}
	snap = later
	// The rebuilt copy pushes what the lost one never did.
	if err := rebuilt.Push(t.Context(), "", ""); err != nil {
		t.Fatal(err)
	}
	if pushed, _ := rebuilt.Snapshot(t.Context()); len(pushed.Pack) != 0 || pushed.Head != snap.Head {
		t.Errorf("after push: %d bytes of unpushed objects", len(pushed.Pack))
	}
	// A snapshot whose commits the remote cannot complete is refused.
	broken := snap
	broken.Pack = nil
	if _, err := workcopy.NewManager(t.TempDir()).Rebuild(t.Context(), 1, fixture.Origin(t, map[string]string{"a": "b"}), broken); !errors.Is(err, workcopy.ErrSnapshotBase) {
		t.Errorf("rebuild without the commits: %v", err)
	}
}
