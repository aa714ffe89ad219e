package delivery

import (
	"testing"
	"time"
)

// TestRetryDelay: the delay doubles with each failed attempt up to 1024
// times the first, always within 25% of that, and not always the same.
func TestRetryDelay(t *testing.T) {
	for _, tc := range []struct {
		attempts int
		center   time.Duration
	}{
		{-1, 5 * time.Second}, {0, 5 * time.Second}, {1, 10 * time.Second}, {2, 20 * time.Second},
		{10, 5 * time.Second << 10}, {11, 5 * time.Second << 10}, {1000, 5 * time.Second << 10},
	} {
		seen := map[time.Duration]bool{}
		for range 50 {
			d := retryDelay(5*time.Second, tc.attempts)
			if d < tc.center*3/4 || d > tc.center*5/4 {
				t.Fatalf("attempts %d: %v, want within 25%% of %v", tc.attempts, d, tc.center)
			}
			seen[d] = true
		}
		if len(seen) < 2 {
			t.Errorf("attempts %d: always %v, want jitter", tc.attempts, seen)
		}
	}
}
