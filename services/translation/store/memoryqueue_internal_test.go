package store

import (
	"testing"
	"time"
)

// TestMemorySettled: the memory's queue waits while edits add to it, and
// no longer than its bounds in rows and in time.
func TestMemorySettled(t *testing.T) {
	tests := []struct {
		name       string
		now, seen  memoryBacklog
		waited     time.Duration
		rememberIt bool
	}{
		{"first look at a new backlog", memoryBacklog{3, 7}, memoryBacklog{}, 0, false},
		{"nothing queued since the last look", memoryBacklog{3, 7}, memoryBacklog{3, 7}, time.Second, true},
		{"another replica took some meanwhile", memoryBacklog{1, 7}, memoryBacklog{3, 7}, time.Second, true},
		{"still growing", memoryBacklog{30, 40}, memoryBacklog{3, 7}, time.Second, false},
		{"growing, at the row bound", memoryBacklog{memoryMaxRows, 20000}, memoryBacklog{9000, 19000}, time.Second, true},
		{"growing, waited the longest", memoryBacklog{30, 40}, memoryBacklog{3, 7}, memoryMaxWait, true},
		{"growing, just under the wait", memoryBacklog{30, 40}, memoryBacklog{3, 7}, memoryMaxWait - time.Millisecond, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := memorySettled(tt.now, tt.seen, tt.waited); got != tt.rememberIt {
				t.Errorf("memorySettled(%+v, %+v, %v) = %v, want %v", tt.now, tt.seen, tt.waited, got, tt.rememberIt)
			}
		})
	}
}
