package db_test

import (
	"errors"
	"path/filepath"
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
)

// TestGeneration: on SQLite the generation moves after every write that
// finishes (a statement, a committed transaction), and only then: a read,
// or a transaction still open, leaves it where it was.
func TestGeneration(t *testing.T) {
	gdb := openT(t, db.Config{SQLitePath: filepath.Join(t.TempDir(), "gen.db")})
	if err := gdb.Exec(`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`).Error; err != nil {
		t.Fatal(err)
	}
	gen := func() uint64 {
		t.Helper()
		n, ok := db.Generation(gdb)
		if !ok {
			t.Fatal("no generation on SQLite")
		}
		return n
	}
	steps := []struct {
		name  string
		do    func() error
		moves bool
	}{
		{"a read", func() error { var n int64; return gdb.Raw(`SELECT count(*) FROM items`).Scan(&n).Error }, false},
		{"a statement", func() error { return gdb.Exec(`INSERT INTO items (name) VALUES ('a')`).Error }, true},
		{"a committed transaction", func() error {
			return gdb.Transaction(func(tx *gorm.DB) error {
				before, _ := db.Generation(tx)
				if err := tx.Exec(`UPDATE items SET name = 'b'`).Error; err != nil {
					return err
				}
				if inside, _ := db.Generation(tx); inside != before {
					t.Errorf("the generation moved before the commit: %d -> %d", before, inside)
				}
				return nil
			})
		}, true},
		{"a rolled back transaction", func() error {
			err := gdb.Transaction(func(tx *gorm.DB) error {
				if err := tx.Exec(`UPDATE items SET name = 'c'`).Error; err != nil {
					return err
				}
				return errRollback
			})
			if errors.Is(err, errRollback) {
				return nil
			}
			return err
		}, false},
	}
	for _, s := range steps {
		t.Run(s.name, func(t *testing.T) {
			before := gen()
			if err := s.do(); err != nil {
				t.Fatal(err)
			}
			if moved := gen() != before; moved != s.moves {
				t.Errorf("the generation moved: %v, want %v", moved, s.moves)
			}
		})
	}
}

var errRollback = errors.New("roll back")
