package dbtest

import (
	"strings"
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
)

// Explain returns the engine's plan of query, one line per row of it:
// SQLite's EXPLAIN QUERY PLAN, or PostgreSQL's EXPLAIN with the planner
// settings named in off (e.g. "enable_seqscan") turned off for it. A
// test's tables are small, and PostgreSQL prefers scanning a small table
// to any index: priced out, a plan without a scan exists only when a
// fitting index does.
func Explain(t testing.TB, gdb *gorm.DB, query string, off ...string) string {
	t.Helper()
	var lines []string
	err := gdb.Transaction(func(tx *gorm.DB) error {
		prefix := "EXPLAIN QUERY PLAN "
		if db.Dialect(tx) == db.Postgres {
			prefix = "EXPLAIN "
			for _, o := range off {
				if err := tx.Exec("SET LOCAL " + o + " = off").Error; err != nil {
					return err
				}
			}
		}
		var err error
		lines, err = planLines(tx, prefix+query)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// planLines reads the text columns of each row of an EXPLAIN.
func planLines(tx *gorm.DB, explain string) ([]string, error) {
	rows, err := tx.Raw(explain).Rows()
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }() // read-only; Err reports what matters
	cols, err := rows.Columns()
	if err != nil {
		return nil, err
	}
	var lines []string
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		var b strings.Builder
		for _, v := range vals {
			switch v := v.(type) {
			case []byte:
				b.Write(v)
			case string:
				b.WriteString(v)
			default:
				continue
			}
			b.WriteByte(' ')
		}
		lines = append(lines, strings.TrimSpace(strings.ReplaceAll(b.String(), "\n", " ")))
	}
	return lines, rows.Err()
}
