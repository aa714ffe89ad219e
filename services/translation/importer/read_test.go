package importer

import (
	"fmt"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tmsproject/tms/services/translation/filemask"
)

// TestInOrder: inOrder yields every result in the order of its matches,
// whatever order the work ends in, never has more than ahead matches
// under way or waiting beside the one taken, and lets a caller stop early.
func TestInOrder(t *testing.T) {
	tests := []struct {
		name   string
		files  int
		ahead  int
		stopAt int // the caller stops after this many results; 0: never
	}{
		{"none", 0, 2, 0},
		{"one", 1, 2, 0},
		{"one ahead", 5, 1, 0},
		{"two ahead", 7, 2, 0},
		{"more ahead than files", 3, 8, 0},
		{"the caller stops", 9, 2, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			matches := make([]filemask.Match, tt.files)
			for i := range matches {
				matches[i] = filemask.Match{Path: fmt.Sprint(i)}
			}
			var held, most atomic.Int64
			work := func(m filemask.Match) string {
				raise(&most, held.Add(1))
				// Later files finish first: the order is inOrder's.
				i, _ := strconv.Atoi(m.Path)
				time.Sleep(time.Duration(tt.files-i) * time.Millisecond)
				return m.Path
			}
			var got []string
			for path := range inOrder(matches, tt.ahead, work) {
				held.Add(-1) // taken
				got = append(got, path)
				if len(got) == tt.stopAt {
					break
				}
			}
			want := tt.files
			if tt.stopAt > 0 {
				want = tt.stopAt
			}
			if len(got) != want {
				t.Fatalf("got %d results, want %d", len(got), want)
			}
			for i, path := range got {
				if path != fmt.Sprint(i) {
					t.Fatalf("result %d is %q: out of order (%v)", i, path, got)
				}
			}
			// The one taken counts here until the loop's body marks it so.
			if m := most.Load(); m > int64(tt.ahead)+1 {
				t.Errorf("%d matches under way or waiting at once, want at most %d and the one taken", m, tt.ahead)
			}
		})
	}
}

// raise sets v to n when n is greater.
func raise(v *atomic.Int64, n int64) {
	for prev := v.Load(); n > prev; prev = v.Load() {
		if v.CompareAndSwap(prev, n) {
			return
		}
	}
}
