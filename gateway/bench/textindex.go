package bench

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/tmsproject/tms/pkg/db"
)

// WaitTextIndex waits until the translation service whose SQLite data
// directory is dataDir has its search index (FTS5 trigram) cover every
// unit, and answers how long that took. The service builds it in the
// background once an import's inserts settle; a benchmark measured while
// it builds would measure the building too.
func WaitTextIndex(dataDir string, limit time.Duration) (time.Duration, error) {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	gdb, err := db.Open(ctx, db.Config{SQLitePath: filepath.Join(dataDir, "translation.db")})
	if err != nil {
		return 0, err
	}
	defer func() { _ = db.Close(gdb) }()
	start := time.Now()
	tick := time.NewTicker(200 * time.Millisecond)
	defer tick.Stop()
	for {
		var through, last, dirty int64
		err := gdb.WithContext(ctx).Raw(`SELECT (SELECT indexed_through FROM unit_text_state),
			(SELECT COALESCE(MAX(id), 0) FROM units), (SELECT COUNT(*) FROM unit_text_dirty)`).Row().Scan(&through, &last, &dirty)
		switch {
		case err != nil:
			return 0, err
		case through >= last && dirty == 0:
			return time.Since(start), nil
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("the search index did not cover every unit within %v", limit)
		case <-tick.C:
		}
	}
}
