package db_test

import (
	"context"
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/pgtest"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func openT(t *testing.T, cfg db.Config) *gorm.DB {
	t.Helper()
	gdb, err := db.Open(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close(gdb) })
	return gdb
}

func TestOpenSQLite(t *testing.T) {
	path := filepath.Join(t.TempDir(), "nested", "dir", "x.db")
	gdb := openT(t, db.Config{SQLitePath: path})
	if got := db.Dialect(gdb); got != db.SQLite {
		t.Fatalf("Dialect = %q, want sqlite", got)
	}
	pragmas := []struct {
		name string
		want string
	}{
		{"foreign_keys", "1"},
		{"journal_mode", "wal"},
		{"busy_timeout", "5000"},
	}
	for _, p := range pragmas {
		var got string
		if err := gdb.Raw("PRAGMA " + p.name).Scan(&got).Error; err != nil {
			t.Fatal(err)
		}
		if got != p.want {
			t.Errorf("PRAGMA %s = %q, want %q", p.name, got, p.want)
		}
	}
}

func TestOpenNeedsALocation(t *testing.T) {
	if _, err := db.Open(t.Context(), db.Config{}); err == nil {
		t.Fatal("Open with an empty config succeeded")
	}
}

func TestOpenPostgresSchemas(t *testing.T) {
	url := pgtest.URL(t)
	// Random names keep reruns against a shared TMS_TEST_DATABASE_URL apart.
	suffix := rand.Text()[:8]
	schemaA, schemaB := "svc_a_"+strings.ToLower(suffix), "svc_b_"+strings.ToLower(suffix)
	a := openT(t, db.Config{URL: url, Schema: schemaA})
	b := openT(t, db.Config{URL: url, Schema: schemaB})
	again := openT(t, db.Config{URL: url, Schema: schemaA}) // existing schema
	t.Cleanup(func() {
		_ = a.Exec(`DROP SCHEMA ` + schemaA + ` CASCADE`).Error
		_ = a.Exec(`DROP SCHEMA ` + schemaB + ` CASCADE`).Error
	})
	if got := db.Dialect(a); got != db.Postgres {
		t.Fatalf("Dialect = %q, want postgres", got)
	}
	if _, ok := db.Generation(a); ok {
		t.Error("a generation on PostgreSQL, where other processes write too")
	}
	for _, g := range []*gorm.DB{a, b} {
		if err := g.Exec(`CREATE TABLE items (name text)`).Error; err != nil {
			t.Fatal(err)
		}
	}
	if err := a.Exec(`INSERT INTO items VALUES ('from a')`).Error; err != nil {
		t.Fatal(err)
	}
	count := func(g *gorm.DB) (n int64) {
		if err := g.Raw(`SELECT count(*) FROM items`).Scan(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	if na, nb, nagain := count(a), count(b), count(again); na != 1 || nb != 0 || nagain != 1 {
		t.Fatalf("rows seen by a, b, a again = %d, %d, %d; want 1, 0, 1", na, nb, nagain)
	}
}

func TestOpenPostgresRejectsBadSchema(t *testing.T) {
	for _, schema := range []string{"Upper", "semi;colon", "1digit", `quo"te`} {
		if _, err := db.Open(t.Context(), db.Config{URL: "postgres://127.0.0.1:1/x", Schema: schema}); err == nil {
			t.Errorf("schema %q accepted", schema)
		}
	}
}

func TestOpenPostgresUnreachable(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 5e9)
	defer cancel()
	if _, err := db.Open(ctx, db.Config{URL: "postgres://postgres@127.0.0.1:1/x?connect_timeout=2", Schema: "s"}); err == nil {
		t.Fatal("Open of an unreachable server succeeded")
	}
}

func TestIsDuplicate(t *testing.T) {
	src := db.Source{Name: "dup", FS: fstest.MapFS{
		"sqlite/0001_t.sql":   {Data: []byte(`CREATE TABLE t (k TEXT PRIMARY KEY, u TEXT UNIQUE, p TEXT REFERENCES t(k));`)},
		"postgres/0001_t.sql": {Data: []byte(`CREATE TABLE t (k TEXT PRIMARY KEY, u TEXT UNIQUE, p TEXT REFERENCES t(k));`)},
	}}
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		if err := gdb.Exec(`INSERT INTO t (k, u) VALUES ('a', 'x')`).Error; err != nil {
			t.Fatal(err)
		}
		sqlDB, err := gdb.DB()
		if err != nil {
			t.Fatal(err)
		}
		_, rawErr := sqlDB.ExecContext(t.Context(), `INSERT INTO t (k, u) VALUES ('c', 'x')`)
		tests := []struct {
			name string
			err  error
			want bool
		}{
			{"primary key", gdb.Exec(`INSERT INTO t (k) VALUES ('a')`).Error, true},
			{"unique", gdb.Exec(`INSERT INTO t (k, u) VALUES ('b', 'x')`).Error, true},
			{"raw driver error", rawErr, true},
			{"foreign key", gdb.Exec(`INSERT INTO t (k, p) VALUES ('d', 'missing')`).Error, false},
			{"syntax", gdb.Exec(`INSERT INTO nowhere VALUES (1)`).Error, false},
			{"nil", nil, false},
			{"other", errors.New("duplicate"), false},
		}
		for _, tt := range tests {
			if tt.name != "nil" && tt.err == nil {
				t.Errorf("%s: statement unexpectedly succeeded", tt.name)
				continue
			}
			if got := db.IsDuplicate(tt.err); got != tt.want {
				t.Errorf("%s: IsDuplicate(%v) = %v, want %v", tt.name, tt.err, got, tt.want)
			}
		}
		fkErr := gdb.Exec(`INSERT INTO t (k, p) VALUES ('e', 'missing')`).Error
		if !errors.Is(fkErr, gorm.ErrForeignKeyViolated) {
			t.Errorf("foreign key violation = %v, want gorm.ErrForeignKeyViolated (foreign keys enforced)", fkErr)
		}
	}, src)
}

func TestOpenSQLiteAwkwardPath(t *testing.T) {
	// '#', '?' and '%' are URI delimiters; each path must get its own file.
	dir := t.TempDir()
	for _, name := range []string{"a#1", "a?b", "a%23", "a"} {
		path := filepath.Join(dir, name, "x.db")
		gdb := openT(t, db.Config{SQLitePath: path})
		if err := gdb.Exec(`CREATE TABLE t (id INTEGER)`).Error; err != nil {
			t.Fatalf("%s: %v (database shared with another path?)", name, err)
		}
		if _, err := os.Stat(path); err != nil {
			t.Fatalf("%s: database file not at its path: %v", name, err)
		}
	}
}

func TestNormalize(t *testing.T) {
	in := time.Date(2024, 5, 6, 7, 8, 9, 123456789, time.FixedZone("X", 3600))
	got := db.Normalize(in)
	if want := time.Date(2024, 5, 6, 6, 8, 9, 123456000, time.UTC); !got.Equal(want) || got.Location() != time.UTC {
		t.Fatalf("Normalize = %v, want %v in UTC", got, want)
	}
}
