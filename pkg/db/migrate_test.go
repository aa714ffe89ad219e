package db_test

import (
	"strings"
	"testing"
	"testing/fstest"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/dbtest"
)

// both puts the same SQL under both engine directories.
func both(files map[string]string) fstest.MapFS {
	fsys := fstest.MapFS{}
	for name, sql := range files {
		fsys["sqlite/"+name] = &fstest.MapFile{Data: []byte(sql)}
		fsys["postgres/"+name] = &fstest.MapFile{Data: []byte(sql)}
	}
	return fsys
}

func applied(t *testing.T, gdb *gorm.DB, source string) []string {
	t.Helper()
	var names []string
	err := gdb.Raw(`SELECT name FROM schema_migrations WHERE source = ? ORDER BY version`, source).Scan(&names).Error
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func TestMigrateOrderAndIdempotence(t *testing.T) {
	app := db.Source{Name: "app", FS: both(map[string]string{
		// 0010 sorts before 0009 as text only if compared wrongly; 0002
		// needs 0001's table; the literal holds characters gorm would
		// treat as placeholders.
		"0001_create.sql": `CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);`,
		"0002_seed.sql":   `INSERT INTO notes (id, body) VALUES (1, 'what? @me $1');` + "\n" + `INSERT INTO notes (id, body) VALUES (2, 'two');`,
		"0009_add.sql":    `ALTER TABLE notes ADD COLUMN tag TEXT;`,
		"0010_fill.sql":   `UPDATE notes SET tag = 'x';`,
		"README.md":       `ignored`,
	})}
	lib := db.Source{Name: "lib", FS: both(map[string]string{
		"0001_create.sql": `CREATE TABLE lib_things (id INTEGER PRIMARY KEY);`,
	})}
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		var tags []string
		if err := gdb.Raw(`SELECT tag FROM notes ORDER BY id`).Scan(&tags).Error; err != nil {
			t.Fatal(err)
		}
		if strings.Join(tags, ",") != "x,x" {
			t.Fatalf("tags = %v, want x,x (0010 must run after 0009)", tags)
		}
		var body string
		if err := gdb.Raw(`SELECT body FROM notes WHERE id = 1`).Scan(&body).Error; err != nil {
			t.Fatal(err)
		}
		if body != "what? @me $1" {
			t.Fatalf("body = %q, SQL was rewritten", body)
		}
		for range 2 {
			if err := db.Migrate(t.Context(), gdb, app, lib); err != nil {
				t.Fatalf("second Migrate: %v", err)
			}
		}
		want := "0001_create.sql,0002_seed.sql,0009_add.sql,0010_fill.sql"
		if got := strings.Join(applied(t, gdb, "app"), ","); got != want {
			t.Fatalf("applied = %s, want %s", got, want)
		}
		if got := applied(t, gdb, "lib"); len(got) != 1 {
			t.Fatalf("lib applied = %v", got)
		}
	}, app, lib)
}

func TestMigrateFailureRollsBackAndResumes(t *testing.T) {
	good := map[string]string{"0001_a.sql": `CREATE TABLE a (id INTEGER);`}
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		broken := both(map[string]string{
			"0001_a.sql": good["0001_a.sql"],
			"0002_b.sql": `CREATE TABLE b (id INTEGER); INSERT INTO missing VALUES (1);`,
		})
		err := db.Migrate(t.Context(), gdb, db.Source{Name: "s", FS: broken})
		if err == nil || !strings.Contains(err.Error(), "0002_b.sql") {
			t.Fatalf("Migrate error = %v, want one naming 0002_b.sql", err)
		}
		if err := gdb.Exec(`SELECT * FROM b`).Error; err == nil {
			t.Fatal("table b exists: the failed migration was not rolled back")
		}
		if got := applied(t, gdb, "s"); len(got) != 1 {
			t.Fatalf("applied = %v, want only 0001", got)
		}
		fixed := both(map[string]string{
			"0001_a.sql": good["0001_a.sql"],
			"0002_b.sql": `CREATE TABLE b (id INTEGER);`,
		})
		if err := db.Migrate(t.Context(), gdb, db.Source{Name: "s", FS: fixed}); err != nil {
			t.Fatal(err)
		}
		if err := gdb.Exec(`SELECT * FROM b`).Error; err != nil {
			t.Fatalf("table b missing after the fixed migration: %v", err)
		}
	})
}

func TestMigrateRejectsBadSources(t *testing.T) {
	tests := []struct {
		name    string
		sources []db.Source
		want    string
	}{
		{"bad file name", []db.Source{{Name: "s", FS: both(map[string]string{"create.sql": "SELECT 1;"})}}, "NNNN_description"},
		{"duplicate version", []db.Source{{Name: "s", FS: both(map[string]string{"0001_a.sql": "SELECT 1;", "01_b.sql": "SELECT 1;"})}}, "share version"},
		{"missing engine dir", []db.Source{{Name: "s", FS: fstest.MapFS{"other/0001_a.sql": {Data: []byte("SELECT 1;")}}}}, "migrations of s"},
		{"empty name", []db.Source{{Name: "", FS: both(nil)}}, "empty or repeated"},
		{"repeated name", []db.Source{{Name: "s", FS: both(nil)}, {Name: "s", FS: both(nil)}}, "empty or repeated"},
	}
	gdb := dbtest.SQLite(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := db.Migrate(t.Context(), gdb, tt.sources...)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Migrate error = %v, want it to contain %q", err, tt.want)
			}
		})
	}
}

func TestMigrateConcurrentPostgres(t *testing.T) {
	// Two processes starting together (two replicas) must not both apply.
	src := db.Source{Name: "c", FS: both(map[string]string{
		"0001_a.sql": `CREATE TABLE a (id INTEGER);`,
		"0002_b.sql": `INSERT INTO a VALUES (1);`,
	})}
	gdb := dbtest.Postgres(t)
	errs := make(chan error, 4)
	for range 4 {
		go func() { errs <- db.Migrate(t.Context(), gdb, src) }()
	}
	for range 4 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	var n int64
	if err := gdb.Raw(`SELECT count(*) FROM a`).Scan(&n).Error; err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Fatalf("rows = %d, want 1: a migration ran twice", n)
	}
}

func TestEmbeddedSource(t *testing.T) {
	fsys := fstest.MapFS{
		"migrations/sqlite/0001_e.sql":   {Data: []byte(`CREATE TABLE e (id INTEGER);`)},
		"migrations/postgres/0001_e.sql": {Data: []byte(`CREATE TABLE e (id INTEGER);`)},
	}
	src := db.EmbeddedSource("e", fsys, "migrations")
	if src.Name != "e" {
		t.Fatalf("Name = %q, want e", src.Name)
	}
	gdb := dbtest.SQLite(t, src)
	if err := gdb.Exec(`INSERT INTO e VALUES (1)`).Error; err != nil {
		t.Fatalf("table of the embedded source missing: %v", err)
	}
	defer func() {
		if recover() == nil {
			t.Fatal("EmbeddedSource accepted an invalid directory name")
		}
	}()
	db.EmbeddedSource("bad", fsys, "../migrations")
}
