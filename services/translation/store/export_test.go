package store

import (
	"context"
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/services/translation/search"
)

// SplitScans makes every SQLite search of the test scan its units in parts
// id ranges, however few units there are.
func SplitScans(t testing.TB, parts int) {
	t.Helper()
	oldMin, oldParts := splitScanMin, scanParts
	splitScanMin, scanParts = 1, func() int { return parts }
	t.Cleanup(func() { splitScanMin, scanParts = oldMin, oldParts })
}

// Scanned runs fn with searches scanning, as before the trigram
// index.
func Scanned(fn func()) {
	useTextIndex = false
	defer func() { useTextIndex = true }()
	fn()
}

// SearchPlan is the query plan of s's search of q over all units, as
// the engine explains it; on PostgreSQL, of its lookup of the candidates,
// with sequential and plain index scans off.
func SearchPlan(t testing.TB, s *Store, q *search.Query) string {
	t.Helper()
	if s.postgres { // the candidates' lookup, which precedes the search
		lookup, args, ok := pgCandidates(q, 0)
		if !ok {
			t.Fatalf("%v: no trigram condition", q)
		}
		return dbtest.Explain(t, s.gdb, s.gdb.ToSQL(func(tx *gorm.DB) *gorm.DB {
			var ids []int64
			return tx.Raw(lookup, args...).Scan(&ids)
		}), "enable_seqscan", "enable_indexscan")
	}
	scope, _, err := s.searchScope(t.Context(), 0, q, Hidden{})
	if err != nil {
		t.Fatal(err)
	}
	query := s.gdb.ToSQL(func(tx *gorm.DB) *gorm.DB {
		var ids []int64
		return scope(tx).Select("units.id").Order("units.id").Find(&ids)
	})
	off := []string{"enable_seqscan", "enable_indexscan"} // PostgreSQL: bitmaps of the GIN indexes
	return dbtest.Explain(t, s.gdb, query, off...)
}

// Counted runs fn with searches counted from the index however few
// their matches (searchIndexed lists up to maxListed on SQLite instead).
func Counted(fn func()) {
	was := maxListed
	maxListed = 0
	defer func() { maxListed = was }()
	fn()
}

// DropUnusedSources removes the pairs of PostgreSQL's source_text no copy
// refers to.
func DropUnusedSources(ctx context.Context, s *Store) error { return s.dropUnusedSources(ctx) }

// CatchUpInChunksOf makes the text index catch up in chunks of n units
// until the test ends.
func CatchUpInChunksOf(t testing.TB, n int64) {
	was := textIndexChunk
	textIndexChunk = n
	t.Cleanup(func() { textIndexChunk = was })
}

// CatchUpText is one catch-up of the text index, as RunTextIndex runs it.
func CatchUpText(ctx context.Context, s *Store) error { return s.catchUpText(ctx) }
