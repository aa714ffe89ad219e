package db_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
)

// TestSQLiteReadsDoNotWaitForWrites holds a write transaction open and
// reads beside it: the read answers at once, with what was committed, and
// statements that write (INSERT … RETURNING included) still reach the
// writer.
func TestSQLiteReadsDoNotWaitForWrites(t *testing.T) {
	gdb := openT(t, db.Config{SQLitePath: filepath.Join(t.TempDir(), "split.db")})
	ctx := t.Context()
	if err := gdb.Exec(`CREATE TABLE items (id INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL)`).Error; err != nil {
		t.Fatal(err)
	}
	var returned struct{ ID int64 }
	if err := gdb.Raw(`INSERT INTO items (name) VALUES ('committed') RETURNING id`).Scan(&returned).Error; err != nil || returned.ID == 0 {
		t.Fatalf("INSERT … RETURNING: %+v %v", returned, err)
	}
	held := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
			if err := tx.Exec(`INSERT INTO items (name) VALUES ('pending')`).Error; err != nil {
				return err
			}
			close(held)
			<-release
			return nil
		})
	}()
	<-held
	readCtx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	var n int64
	if err := gdb.WithContext(readCtx).Raw(`SELECT COUNT(*) FROM items`).Scan(&n).Error; err != nil {
		t.Errorf("a read beside an open write transaction: %v", err)
	}
	if n != 1 {
		t.Errorf("the read saw %d rows, want the committed one only", n)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if err := gdb.Raw(`SELECT COUNT(*) FROM items`).Scan(&n).Error; err != nil || n != 2 {
		t.Errorf("after commit: %d rows, %v", n, err)
	}
}
