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
				plan := dbtest.Explain(t, s.gdb, sql, "enable_seqscan", "enable_sort", "enable_bitmapscan")
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
