// Package periodic runs a service's background work at an interval until
// its context ends: the committer of aged changes, the memory's queue,
// the search index. Work that must run once across replicas claims its
// rows or a lease itself; this only paces it.
package periodic

import (
	"context"
	"log/slog"
	"time"
)

// Run calls work every interval until ctx ends, with the tick's time.
// A failure is logged as what failed, unless ctx ended meanwhile (a
// shutdown interrupts work, which is not worth a warning).
func Run(ctx context.Context, interval time.Duration, log *slog.Logger, what string, work func(context.Context, time.Time) error) {
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-tick.C:
			if ctx.Err() != nil { // both were ready: select picked the tick
				return
			}
			if err := work(ctx, now); err != nil && ctx.Err() == nil {
				log.Warn(what, "err", err)
			}
		}
	}
}
