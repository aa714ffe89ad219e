package store

import "testing"

// TestEditMarks: a mark counts for the next edits of a group only once
// the edit that made it is kept; one rolled back leaves the work to the
// next edit, and a lone edit (nil marks) does everything.
func TestEditMarks(t *testing.T) {
	var lone *editMarks
	for i := range 2 {
		if !lone.first(markFlagged, 1) {
			t.Errorf("a lone edit skipped its flag the %d. time", i+1)
		}
	}
	m := &editMarks{}
	steps := []struct {
		kind markKind
		id   int64
		want bool
		keep bool
	}{
		{markFlagged, 1, true, false}, // rolled back: its flag is undone
		{markFlagged, 1, true, true},  // so the next edit flags again, and is kept
		{markFlagged, 1, false, true}, // flagged by a kept edit: skip
		{markPruned, 1, true, true},   // another kind is its own
		{markFlagged, 2, true, true},  // another component is its own
	}
	for i, s := range steps {
		if got := m.first(s.kind, s.id); got != s.want {
			t.Errorf("step %d: first(%v, %d) = %v, want %v", i, s.kind, s.id, got, s.want)
		}
		m.keep(s.keep)
	}
}
