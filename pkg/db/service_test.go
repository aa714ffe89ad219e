package db

import (
	"path/filepath"
	"testing"
)

func TestOpenServiceDefaults(t *testing.T) {
	dir := t.TempDir()
	gdb, err := OpenService(t.Context(), "demo", Config{}, dir)
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := Close(gdb); err != nil {
			t.Error(err)
		}
	}()
	if got := Dialect(gdb); got != SQLite {
		t.Fatalf("dialect %q", got)
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "demo.db")); len(m) != 1 {
		t.Fatalf("database file not at <dataDir>/demo.db")
	}
	if _, err := OpenService(t.Context(), "demo", Config{}, ""); err == nil {
		t.Fatal("no data directory and no database must be an error")
	}
}
