package dbtest_test

// No TestMain here on purpose: these tests also exercise pgtest's
// reference-counted cluster life cycle.

import (
	"testing"
	"testing/fstest"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/dbtest"
)

var source = db.Source{Name: "t", FS: fstest.MapFS{
	"sqlite/0001_t.sql":   {Data: []byte(`CREATE TABLE t (v TEXT NOT NULL);`)},
	"postgres/0001_t.sql": {Data: []byte(`CREATE TABLE t (v TEXT NOT NULL);`)},
}}

func TestEnginesRunsBothMigrated(t *testing.T) {
	seen := map[string]bool{}
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		seen[db.Dialect(gdb)] = true
		if t.Name() != "TestEnginesRunsBothMigrated/"+db.Dialect(gdb) {
			t.Errorf("subtest %s runs on %s", t.Name(), db.Dialect(gdb))
		}
		if err := gdb.Exec(`INSERT INTO t (v) VALUES ('x')`).Error; err != nil {
			t.Fatalf("migrated table missing: %v", err)
		}
	}, source)
	if !seen[db.SQLite] || !seen[db.Postgres] {
		t.Fatalf("engines run: %v, want both", seen)
	}
}

func TestEachCallGetsAnEmptyDatabase(t *testing.T) {
	for range 2 {
		dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
			var n int64
			if err := gdb.Raw(`SELECT count(*) FROM t`).Scan(&n).Error; err != nil {
				t.Fatal(err)
			}
			if n != 0 {
				t.Fatalf("fresh database holds %d rows of an earlier test", n)
			}
			if err := gdb.Exec(`INSERT INTO t (v) VALUES ('left behind')`).Error; err != nil {
				t.Fatal(err)
			}
		}, source)
	}
}
