package bench

import (
	"context"
	"fmt"
	"time"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/services/translation/store"
)

// WaitTextIndex waits until the translation service whose database cfg
// opens has its search index cover every unit, and answers how long that
// took. The service builds it in the background once an import's inserts
// settle; a benchmark measured while it builds would measure the building
// too.
func WaitTextIndex(cfg db.Config, limit time.Duration) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	gdb, err := db.Open(ctx, cfg)
	if err != nil {
		return 0, err
	}
	defer func() { _ = db.Close(gdb) }()
	s := store.New(gdb)
	start := time.Now()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		covered, err := s.TextIndexCovered(ctx)
		switch {
		case err != nil:
			return 0, err
		case covered:
			return time.Since(start), nil
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("the search index did not cover every unit within %v", limit)
		case <-tick.C:
		}
	}
}
