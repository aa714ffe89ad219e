package bench

import (
	"testing"
	"time"
)

// TestSettledSeen: each kind of background work keeps the time of the
// first look that found it done.
func TestSettledSeen(t *testing.T) {
	tests := []struct {
		name                string
		before              Settled
		indexed, remembered bool
		want                Settled
	}{
		{"neither done", Settled{}, false, false, Settled{}},
		{"index done first", Settled{}, true, false, Settled{Indexed: time.Second}},
		{"memory done first", Settled{}, false, true, Settled{Remembered: time.Second}},
		{"both at once", Settled{}, true, true, Settled{time.Second, time.Second}},
		{"memory after the index", Settled{Indexed: time.Millisecond}, true, true, Settled{time.Millisecond, time.Second}},
		{"an earlier look kept", Settled{time.Millisecond, time.Millisecond}, true, true, Settled{time.Millisecond, time.Millisecond}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.before.seen(tt.indexed, tt.remembered, time.Second); got != tt.want {
				t.Errorf("seen = %+v, want %+v", got, tt.want)
			}
		})
	}
}
