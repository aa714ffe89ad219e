package store

import (
	"fmt"
	"strings"
	"testing"

	"gorm.io/gorm"

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

// Scanned runs fn with SQLite's searches scanning, as before the trigram
// index.
func Scanned(fn func()) {
	useTextIndex = false
	defer func() { useTextIndex = true }()
	fn()
}

// SearchPlan is the query plan of s's search of q over all units, as
// the engine explains it (PostgreSQL with sequential scans off).
func SearchPlan(t testing.TB, s *Store, q *search.Query) string {
	t.Helper()
	scope, _, err := s.searchScope(t.Context(), 0, q, Hidden{})
	if err != nil {
		t.Fatal(err)
	}
	query := s.gdb.ToSQL(func(tx *gorm.DB) *gorm.DB {
		var ids []int64
		return scope(tx).Select("units.id").Order("units.id").Find(&ids)
	})
	var lines []string
	err = s.gdb.Transaction(func(tx *gorm.DB) error {
		explain := "EXPLAIN QUERY PLAN "
		if s.postgres {
			explain = "EXPLAIN "
			for _, o := range []string{"enable_seqscan", "enable_indexscan"} {
				if serr := tx.Exec("SET LOCAL " + o + " = off").Error; serr != nil {
					return serr
				}
			}
		}
		rows, qerr := tx.Raw(explain + query).Rows()
		if qerr != nil {
			return qerr
		}
		defer func() { _ = rows.Close() }()
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if serr := rows.Scan(ptrs...); serr != nil {
				return serr
			}
			lines = append(lines, fmt.Sprint(vals...))
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}
