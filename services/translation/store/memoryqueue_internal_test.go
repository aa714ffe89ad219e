package store

import (
	"testing"
	"time"
)

// TestMemorySettled: the memory's queue waits while edits add to it, no
// longer than its bounds in rows and in time, and while an import runs.
func TestMemorySettled(t *testing.T) {
	tests := []struct {
		name       string
		now, seen  memoryBacklog
		waited     time.Duration
		rememberIt bool
	}{
		{"first look at a new backlog", memoryBacklog{3, 7, 0}, memoryBacklog{}, 0, false},
		{"nothing queued since the last look", memoryBacklog{3, 7, 0}, memoryBacklog{3, 7, 0}, time.Second, true},
		{"another replica took some meanwhile", memoryBacklog{1, 7, 0}, memoryBacklog{3, 7, 0}, time.Second, true},
		{"still growing", memoryBacklog{30, 40, 0}, memoryBacklog{3, 7, 0}, time.Second, false},
		{"growing, at the row bound", memoryBacklog{memoryMaxRows, 20000, 0}, memoryBacklog{9000, 19000, 0}, time.Second, true},
		{"growing, waited the longest", memoryBacklog{30, 40, 0}, memoryBacklog{3, 7, 0}, memoryMaxWait, true},
		{"growing, just under the wait", memoryBacklog{30, 40, 0}, memoryBacklog{3, 7, 0}, memoryMaxWait - time.Millisecond, false},
		{"an import runs", memoryBacklog{3, 7, 1}, memoryBacklog{3, 7, 1}, time.Second, false},
		{"an import runs, past both bounds", memoryBacklog{memoryMaxRows, 20000, 1}, memoryBacklog{3, 7, 1}, memoryMaxWait, false},
		{"the import ended", memoryBacklog{memoryMaxRows, 20000, 0}, memoryBacklog{memoryMaxRows, 20000, 1}, time.Second, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := memorySettled(tt.now, tt.seen, tt.waited); got != tt.rememberIt {
				t.Errorf("memorySettled(%+v, %+v, %v) = %v, want %v", tt.now, tt.seen, tt.waited, got, tt.rememberIt)
			}
		})
	}
}
