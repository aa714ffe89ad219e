package store

import (
	"strings"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/dbtest"
)

// TestListUsesIndexes checks that the hot lists (a component's, a
// translation's, a unit's, a user's, everything) are read in index order:
// no full scan and no sort, so that a page stays cheap with a million rows.
func TestListUsesIndexes(t *testing.T) {
	filters := []struct {
		name  string
		f     Filter
		index string // the index SQLite must pick (its planner has no statistics to sway it)
	}{
		{"component", Filter{ProjectSlug: "p", ComponentSlug: "c"}, "changes_component"},
		{"translation", Filter{ProjectSlug: "p", ComponentSlug: "c", LanguageCode: "cs"}, "changes_translation"},
		{"project", Filter{ProjectSlug: "p"}, "changes_project"},
		{"unit", Filter{UnitID: 3}, "changes_unit"},
		{"user", Filter{User: "alice"}, "changes_user"},
		{"all", Filter{}, "changes_timestamp"},
		{"component window", Filter{ProjectSlug: "p", ComponentSlug: "c",
			After: time.Unix(0, 0), Before: time.Unix(1e9, 0)}, "changes_component"},
	}
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		s := New(gdb)
		for _, c := range filters {
			t.Run(c.name, func(t *testing.T) {
				sql := gdb.ToSQL(func(tx *gorm.DB) *gorm.DB {
					var out []Change
					return New(tx).filtered(t.Context(), c.f).Order(listOrder).Limit(50).Find(&out)
				})
				plan := explain(t, s.gdb, sql)
				if db.Dialect(gdb) == db.SQLite && !strings.Contains(plan, "USING INDEX "+c.index+" ") &&
					!strings.HasSuffix(plan, "USING INDEX "+c.index) {
					t.Fatalf("plan does not use %s:\n%s", c.index, plan)
				}
				for _, bad := range []string{"TEMP B-TREE", "Seq Scan", "Sort"} {
					if strings.Contains(plan, bad) || strings.HasSuffix(plan, "SCAN changes") {
						t.Fatalf("plan has %q:\n%s\n%s", bad, sql, plan)
					}
				}
			})
		}
	}, Migrations)
}

// explain returns the query plan of sql. PostgreSQL's planner prefers a
// sequential scan on a small table, so scans and sorts are priced out of
// reach: a plan without them exists only when a fitting index does.
func explain(t *testing.T, gdb *gorm.DB, sql string) string {
	t.Helper()
	var lines []string
	err := gdb.Transaction(func(tx *gorm.DB) error {
		prefix := "EXPLAIN QUERY PLAN "
		if db.Dialect(tx) == db.Postgres {
			prefix = "EXPLAIN "
			for _, set := range []string{"enable_seqscan", "enable_sort", "enable_bitmapscan"} {
				if err := tx.Exec("SET LOCAL " + set + " = off").Error; err != nil {
					return err
				}
			}
		}
		rows, err := tx.Raw(prefix + sql).Rows()
		if err != nil {
			return err
		}
		defer func() { _ = rows.Close() }()
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				return err
			}
			lines = append(lines, strings.TrimSpace(strings.Trim(strings.ReplaceAll(fmtAll(vals), "\n", " "), " ")))
		}
		return rows.Err()
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

func fmtAll(vals []any) string {
	var b strings.Builder
	for _, v := range vals {
		switch v := v.(type) {
		case []byte:
			b.Write(v)
		case string:
			b.WriteString(v)
		}
		b.WriteByte(' ')
	}
	return b.String()
}
