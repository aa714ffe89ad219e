package store

import (
	"context"
	"errors"
	"runtime"
	"sync"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
)

// splitScanMin is the span of unit ids under which a SQLite search scans
// in one statement: below it a scan takes a few tens of milliseconds, and
// more statements would cost more than they save. A variable for tests.
var splitScanMin int64 = 100_000

// scanParts is how many id ranges a large SQLite search scans at once: one
// per core, within the read pool so that other reads still find a
// connection. A variable for tests.
var scanParts = func() int { return min(runtime.GOMAXPROCS(0), db.SQLiteReaders-1) }

// matchingUnitIDs reads, in id order, the ids of the units scope selects
// among those of translationID (0: of all). A SQLite search runs on one
// core per statement, and a substring search over a million units spent
// its second in LIKE; so a large SQLite scan is cut into id ranges that
// run side by side on the read pool. PostgreSQL plans its own parallel
// scans, and a transaction has one connection, so both scan whole.
func (s *Store) matchingUnitIDs(ctx context.Context, translationID int64, scope func(*gorm.DB) *gorm.DB) ([]int64, error) {
	parts := scanParts()
	if s.postgres || s.inTx || parts < 2 {
		return matchingIDs(scope(s.q(ctx)))
	}
	lo, hi, err := s.unitIDSpan(ctx, translationID)
	if err != nil {
		return nil, err
	}
	if hi-lo < splitScanMin {
		return matchingIDs(scope(s.q(ctx)))
	}
	bounds := splitSpan(lo, hi, parts)
	found := make([][]int64, parts)
	errs := make([]error, parts)
	var wg sync.WaitGroup
	for i := range parts {
		wg.Go(func() {
			found[i], errs[i] = matchingIDs(scope(s.q(ctx)).Where("units.id >= ? AND units.id < ?", bounds[i], bounds[i+1]))
		})
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	var ids []int64
	for _, f := range found {
		ids = append(ids, f...)
	}
	return ids, nil
}

// unitIDSpan is the least and greatest unit id of translationID (0: of
// all units); both are zero when there is none. Two statements, since
// SQLite answers min and max from an index only one at a time.
func (s *Store) unitIDSpan(ctx context.Context, translationID int64) (lo, hi int64, err error) {
	span := func(agg string) (int64, error) {
		var v *int64
		q := s.q(ctx).Model(&Unit{}).Select(agg + "(units.id)")
		if translationID != 0 {
			q = q.Where("units.translation_id = ?", translationID)
		}
		if qerr := q.Scan(&v).Error; qerr != nil || v == nil {
			return 0, qerr
		}
		return *v, nil
	}
	if lo, err = span("min"); err != nil {
		return 0, 0, err
	}
	hi, err = span("max")
	return lo, hi, err
}

// splitSpan cuts the ids lo..hi into parts half-open ranges of about equal
// width: range i is bounds[i] <= id < bounds[i+1].
func splitSpan(lo, hi int64, parts int) []int64 {
	bounds := make([]int64, parts+1)
	width := (hi - lo + 1) / int64(parts)
	for i := range parts {
		bounds[i] = lo + int64(i)*width
	}
	bounds[parts] = hi + 1
	return bounds
}
