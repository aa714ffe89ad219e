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

// TestIndexFoldIndex: on SQLite, a search counted from the trigram index
// finds the rows it tests itself (a character lower() or FTS5 folds into
// ASCII) through the partial index units_index_fold, whose WHERE must be
// search.IndexFoldCondition over indexFoldColumns.
func TestIndexFoldIndex(t *testing.T) {
	gdb := dbtest.SQLite(t, Migrations)
	var ddl string
	if err := gdb.Raw(`SELECT sql FROM sqlite_master WHERE name = 'units_index_fold'`).Scan(&ddl).Error; err != nil {
		t.Fatal(err)
	}
	cond := search.IndexFoldCondition(indexFoldColumns...)
	if want := "WHERE " + cond; !strings.HasSuffix(ddl, want) {
		t.Fatalf("units_index_fold is\n%s\nwant it to end in\n%s", ddl, want)
	}
	var plan []struct{ Detail string }
	if err := gdb.Raw("EXPLAIN QUERY PLAN SELECT id FROM units WHERE " + cond).Scan(&plan).Error; err != nil {
		t.Fatal(err)
	}
	if len(plan) != 1 || !strings.Contains(plan[0].Detail, "INDEX units_index_fold") {
		t.Errorf("the lookup does not read units_index_fold: %v", plan)
	}
}
