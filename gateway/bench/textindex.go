package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/services/translation/store"
)

// Settled is how long after a wait began the translation service's
// background work was done: its search index covered every unit, and its
// translation memory took every queued unit.
type Settled struct{ Indexed, Remembered time.Duration }

// WaitSettled waits until the translation service whose database cfg
// opens has its search index cover every unit and its memory queue empty,
// and answers when each was first seen so. The service does both in the
// background once an import ends; a benchmark measured meanwhile would
// measure them too.
func WaitSettled(cfg db.Config, limit time.Duration) (Settled, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	gdb, err := db.Open(ctx, cfg)
	if err != nil {
		return Settled{}, err
	}
	defer func() { _ = db.Close(gdb) }()
	s := store.New(gdb)
	start := time.Now()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	var got Settled
	for {
		covered, err := s.TextIndexCovered(ctx)
		if err != nil {
			return Settled{}, err
		}
		empty, err := s.MemoryQueueEmpty(ctx)
		if err != nil {
			return Settled{}, err
		}
		got = got.seen(covered, empty, time.Since(start))
		if got.Indexed > 0 && got.Remembered > 0 {
			return got, nil
		}
		select {
		case <-ctx.Done():
			return Settled{}, fmt.Errorf("the search index and the memory were not done within %v", limit)
		case <-tick.C:
		}
	}
}

// seen notes, at elapsed, what a look found done that was not before.
func (d Settled) seen(indexed, remembered bool, elapsed time.Duration) Settled {
	if indexed && d.Indexed == 0 {
		d.Indexed = elapsed
	}
	if remembered && d.Remembered == 0 {
		d.Remembered = elapsed
	}
	return d
}
