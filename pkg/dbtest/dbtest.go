package dbtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"path/filepath"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/pgtest"
)

// Engines runs run as the subtests "sqlite" and "postgres", each with a
// fresh database migrated with sources.
func Engines(t *testing.T, run func(t *testing.T, gdb *gorm.DB), sources ...db.Source) {
	t.Helper()
	t.Run(db.SQLite, func(t *testing.T) { run(t, SQLite(t, sources...)) })
	t.Run(db.Postgres, func(t *testing.T) { run(t, Postgres(t, sources...)) })
}

// SQLite opens a fresh SQLite database in t.TempDir(), migrated with
// sources and closed when t ends.
func SQLite(t testing.TB, sources ...db.Source) *gorm.DB {
	t.Helper()
	return open(t, db.Config{SQLitePath: filepath.Join(t.TempDir(), "test.db")}, sources)
}

// Postgres opens a fresh PostgreSQL database (pgtest.URL), migrated with
// sources and closed when t ends. The tables live in a schema of a random
// name, so tests stay isolated even when TMS_TEST_DATABASE_URL points every
// test at one shared database; the schema is dropped afterwards.
func Postgres(t testing.TB, sources ...db.Source) *gorm.DB {
	t.Helper()
	schema := "t_" + randomHex(6)
	gdb := open(t, db.Config{URL: pgtest.URL(t), Schema: schema}, sources)
	t.Cleanup(func() {
		// Registered after open's Close, so it runs before it.
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := gdb.WithContext(ctx).Exec(`DROP SCHEMA IF EXISTS ` + schema + ` CASCADE`).Error; err != nil {
			t.Logf("dbtest: drop schema %s: %v", schema, err)
		}
	})
	return gdb
}

func open(t testing.TB, cfg db.Config, sources []db.Source) *gorm.DB {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	gdb, err := db.Open(ctx, cfg)
	if err != nil {
		t.Fatalf("dbtest: open: %v", err)
	}
	t.Cleanup(func() {
		if err := db.Close(gdb); err != nil {
			t.Logf("dbtest: close: %v", err)
		}
	})
	if err := db.Migrate(ctx, gdb, sources...); err != nil {
		t.Fatalf("dbtest: migrate: %v", err)
	}
	return gdb
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}
