package store

import (
	"testing"
	"time"
)

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

// TestGather: a group waits for as many edits as the group before took,
// and no longer than gatherWindow; with the one pending edit of a lone
// client, or nothing pending, it does not wait at all.
func TestGather(t *testing.T) {
	defer func(w time.Duration) { gatherWindow = w }(gatherWindow)
	tests := []struct {
		name            string
		want, pending   int
		window          time.Duration
		arrive          int  // edits added while it gathers
		waits, released bool // whether it waits at first; whether it ends once they arrived
	}{
		{"first group", 0, 1, time.Hour, 0, false, true},
		{"lone client", 1, 1, time.Hour, 0, false, true},
		{"already there", 3, 3, time.Hour, 0, false, true},
		{"nothing pending", 3, 0, time.Hour, 0, false, true},
		{"the others arrive", 3, 1, time.Hour, 2, true, true},
		{"too few arrive", 3, 1, time.Hour, 1, true, false},
		{"window ends it", 3, 1, 30 * time.Millisecond, 0, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gatherWindow = tt.window
			g := newEditGroup(nil)
			g.want, g.running = tt.want, true
			g.full <- struct{}{} // a signal left from a group already taken
			for range tt.pending {
				g.add(&editJob{})
			}
			done := make(chan struct{})
			go func() { g.gather(); close(done) }()
			// A wait that should not be there ends it at once: give a busy
			// machine time to schedule it. One that should is still on
			// after a while.
			if tt.waits && ended(done, 20*time.Millisecond) {
				t.Fatal("did not wait")
			}
			if !tt.waits && !ended(done, 5*time.Second) {
				t.Fatal("waited")
			}
			for range tt.arrive {
				g.add(&editJob{})
			}
			if tt.released && !ended(done, 5*time.Second) {
				t.Fatal("still waits once they arrived")
			}
			if !tt.released && ended(done, 50*time.Millisecond) {
				t.Fatal("ended before they arrived")
			}
			g.add(&editJob{}) // a group that still waits ends with its next edit
			<-done
		})
	}
}

// ended reports whether done closed within d.
func ended(done <-chan struct{}, d time.Duration) bool {
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}
