package periodic_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tmsproject/tms/pkg/periodic"
)

// TestRun: work runs at each tick until the context ends, and Run returns
// then; a failure is logged under its name, one after the end is not.
func TestRun(t *testing.T) {
	for _, tc := range []struct {
		name    string
		fail    bool
		wantLog bool
	}{
		{"work that succeeds", false, false},
		{"work that fails", true, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var logged bytes.Buffer
			log := slog.New(slog.NewTextHandler(&logged, nil))
			ctx, cancel := context.WithCancel(t.Context())
			var runs atomic.Int32
			done := make(chan struct{})
			go func() {
				defer close(done)
				periodic.Run(ctx, time.Millisecond, log, "the work", func(context.Context, time.Time) error {
					if runs.Add(1) == 3 {
						cancel()
						return errors.New("after the end") // not logged: ctx ended
					}
					if tc.fail {
						return errors.New("broken")
					}
					return nil
				})
			}()
			<-done
			if runs.Load() != 3 {
				t.Errorf("%d runs, want 3 (the last ends ctx)", runs.Load())
			}
			out := logged.String()
			if got := strings.Contains(out, "the work") && strings.Contains(out, "broken"); got != tc.wantLog {
				t.Errorf("log %q: failure logged %v, want %v", out, got, tc.wantLog)
			}
			if strings.Contains(out, "after the end") {
				t.Errorf("a failure after the end was logged: %q", out)
			}
		})
	}
}
