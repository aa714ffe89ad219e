package store

import (
	"strings"
	"testing"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/services/translation/search"
)

// TestFoldIndex: on SQLite, an ASCII search finds the rows that need
// lower() (text with the Kelvin sign or a dotted capital I) through the
// partial index units_fold, whose WHERE must be search.FoldCondition over
// foldColumns for SQLite to use it.
func TestFoldIndex(t *testing.T) {
	gdb := dbtest.SQLite(t, Migrations)
	var ddl string
	if err := gdb.Raw(`SELECT sql FROM sqlite_master WHERE name = 'units_fold'`).Scan(&ddl).Error; err != nil {
		t.Fatal(err)
	}
	if want := "WHERE " + search.FoldCondition(foldColumns...); !strings.HasSuffix(ddl, want) {
		t.Fatalf("units_fold is\n%s\nwant it to end in\n%s", ddl, want)
	}
	q, err := search.Parse("kelvin")
	if err != nil {
		t.Fatal(err)
	}
	where, args := q.SQL(searchColumns, search.DialectSQLite)
	var plan []struct{ Detail string }
	if err := gdb.Raw("EXPLAIN QUERY PLAN SELECT count(*) FROM units WHERE "+where, args...).Scan(&plan).Error; err != nil {
		t.Fatal(err)
	}
	var details []string
	for _, p := range plan {
		details = append(details, p.Detail)
	}
	if !strings.Contains(strings.Join(details, "\n"), "USING COVERING INDEX units_fold") &&
		!strings.Contains(strings.Join(details, "\n"), "USING INDEX units_fold") {
		t.Errorf("the search does not read units_fold:\n%s", strings.Join(details, "\n"))
	}
}
