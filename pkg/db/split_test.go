package db_test

import (
	"context"
	"errors"
	"path/filepath"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/dbtest"
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

// TestSQLitePreparedStatements runs the same statements outside and
// inside transactions, in turn and at once: statements cached on the
// writer must never wait for the connection the transaction holds, and
// every run sees the data as it is then.
func TestSQLitePreparedStatements(t *testing.T) {
	gdb := openT(t, db.Config{SQLitePath: filepath.Join(t.TempDir(), "stmts.db")})
	if err := gdb.Exec(`CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL)`).Error; err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	count := func(q *gorm.DB) (n int64) {
		if err := q.Raw(`SELECT COUNT(*) FROM items WHERE name <> ?`, "").Scan(&n).Error; err != nil {
			t.Errorf("count: %v", err)
		}
		return n
	}
	errc := make(chan error, 4)
	for w := range 4 {
		go func() {
			var err error
			for i := range 25 {
				err = gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
					before := count(tx)
					if ierr := tx.Exec(`INSERT INTO items (id, name) VALUES (?, ?)`, w*1000+i, "x").Error; ierr != nil {
						return ierr
					}
					if after := count(tx); after != before+1 {
						t.Errorf("inside the transaction: %d rows after an insert, had %d", after, before)
					}
					return nil
				})
				if err == nil {
					err = gdb.WithContext(ctx).Exec(`UPDATE items SET name = ? WHERE id = ?`, "y", w*1000+i).Error
				}
				if err != nil {
					break
				}
				count(gdb.WithContext(ctx))
			}
			errc <- err
		}()
	}
	for range 4 {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
	if n := count(gdb); n != 100 {
		t.Errorf("%d rows, want 100", n)
	}
}

// TestSQLiteTimeFormat pins the text a time is stored as: the format
// databases written by earlier versions hold, so that comparisons of
// stored and bound times stay right across the driver upgrade.
func TestSQLiteTimeFormat(t *testing.T) {
	gdb := openT(t, db.Config{SQLitePath: filepath.Join(t.TempDir(), "time.db")})
	if err := gdb.Exec(`CREATE TABLE stamps (at DATETIME)`).Error; err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 24, 10, 5, 7, 120000000, time.UTC)
	if err := gdb.Exec(`INSERT INTO stamps (at) VALUES (?)`, at).Error; err != nil {
		t.Fatal(err)
	}
	var text string
	if err := gdb.Raw(`SELECT CAST(at AS TEXT) FROM stamps`).Scan(&text).Error; err != nil {
		t.Fatal(err)
	}
	if want := "2026-11-24 10:05:07.12+00:00"; text != want {
		t.Errorf("stored %q, want %q", text, want)
	}
	// A read binds the time on a reader connection: the same text.
	var n int64
	if err := gdb.Raw(`SELECT COUNT(*) FROM stamps WHERE at = ?`, at).Scan(&n).Error; err != nil || n != 1 {
		t.Errorf("a read bound to the stored time found %d rows (%v), want 1", n, err)
	}
}

// TestQueryInterruptedAtDeadline runs a statement far longer than its
// context allows, on each engine: it ends at the deadline with
// context.DeadlineExceeded (what the services turn into a 504) instead of
// running on, and the pool answers the next statement.
func TestQueryInterruptedAtDeadline(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
		defer cancel()
		var n int64
		err := gdb.WithContext(ctx).Raw(`WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 1000000000)
			SELECT count(*) FROM c`).Scan(&n).Error
		if !errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("a statement past its deadline: n=%d, err %v, want context.DeadlineExceeded", n, err)
		}
		if err := gdb.WithContext(t.Context()).Raw(`SELECT 1`).Scan(&n).Error; err != nil || n != 1 {
			t.Errorf("the next statement: %d %v", n, err)
		}
	})
}
