package db

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"slices"
	"strconv"
	"time"

	"gorm.io/gorm"
)

// Source is one set of versioned migrations, usually embedded with
// //go:embed. FS holds the directories "sqlite" and "postgres", each with
// files named NNNN_description.sql. Versions are counted per Source.Name, so
// a library (the outbox, say) can ship its own tables beside a service's.
//
// A file may hold several statements. It runs inside a transaction, so it
// must not contain statements PostgreSQL refuses there (CREATE INDEX
// CONCURRENTLY) nor toggle SQLite's foreign_keys pragma, which is a no-op
// inside a transaction; rebuild SQLite tables under
// "PRAGMA defer_foreign_keys = ON" instead.
type Source struct {
	Name string
	FS   fs.FS
}

// EmbeddedSource is the Source named name whose engine directories lie
// under dir of fsys, typically a //go:embed tree. It panics when dir is not
// a valid path, a programming error; a missing directory fails Migrate.
func EmbeddedSource(name string, fsys fs.FS, dir string) Source {
	sub, err := fs.Sub(fsys, dir)
	if err != nil {
		panic(fmt.Sprintf("db: migrations of %s: %v", name, err))
	}
	return Source{Name: name, FS: sub}
}

// migration is one SQL file ready to apply.
type migration struct {
	source  string
	version int64
	file    string
	sql     string
}

var migrationFile = regexp.MustCompile(`^([0-9]+)_([A-Za-z0-9_-]+)\.sql$`)

const createMigrationsTable = `CREATE TABLE IF NOT EXISTS schema_migrations (
	source     TEXT      NOT NULL,
	version    BIGINT    NOT NULL,
	name       TEXT      NOT NULL,
	applied_at TIMESTAMP NOT NULL,
	PRIMARY KEY (source, version)
)`

// Migrate applies the pending migrations of every source, sources in the
// given order and files in version order. Each file runs in its own
// transaction together with its schema_migrations row, so a failed file
// leaves nothing half applied and a rerun picks up where it stopped.
// Applying again is a no-op. On PostgreSQL concurrent migrators of one
// schema serialise on an advisory lock.
func Migrate(ctx context.Context, gdb *gorm.DB, sources ...Source) error {
	seen := map[string]bool{}
	for _, src := range sources {
		if src.Name == "" || seen[src.Name] {
			return fmt.Errorf("db: migration source name %q is empty or repeated", src.Name)
		}
		seen[src.Name] = true
	}
	var all []migration
	for _, src := range sources {
		ms, err := load(src, Dialect(gdb))
		if err != nil {
			return err
		}
		all = append(all, ms...)
	}
	gdb = gdb.WithContext(ctx)
	err := gdb.Transaction(func(tx *gorm.DB) error {
		if err := lockMigrations(tx); err != nil {
			return err
		}
		return tx.Exec(createMigrationsTable).Error
	})
	if err != nil {
		return fmt.Errorf("db: create schema_migrations: %w", err)
	}
	for _, m := range all {
		if err := apply(ctx, gdb, m); err != nil {
			return err
		}
	}
	return nil
}

// load reads and orders the migrations of src for one engine.
func load(src Source, dialect string) ([]migration, error) {
	entries, err := fs.ReadDir(src.FS, dialect)
	if err != nil {
		return nil, fmt.Errorf("db: migrations of %s: %w", src.Name, err)
	}
	var ms []migration
	for _, e := range entries {
		if e.IsDir() || path.Ext(e.Name()) != ".sql" {
			continue
		}
		m := migrationFile.FindStringSubmatch(e.Name())
		if m == nil {
			return nil, fmt.Errorf("db: migration %s/%s/%s: name is not NNNN_description.sql", src.Name, dialect, e.Name())
		}
		version, err := strconv.ParseInt(m[1], 10, 64)
		if err != nil {
			return nil, fmt.Errorf("db: migration %s/%s/%s: %w", src.Name, dialect, e.Name(), err)
		}
		body, err := fs.ReadFile(src.FS, path.Join(dialect, e.Name()))
		if err != nil {
			return nil, fmt.Errorf("db: migration %s: %w", src.Name, err)
		}
		ms = append(ms, migration{source: src.Name, version: version, file: e.Name(), sql: string(body)})
	}
	slices.SortFunc(ms, func(a, b migration) int { return cmp.Compare(a.version, b.version) })
	for i := 1; i < len(ms); i++ {
		if ms[i].version == ms[i-1].version {
			return nil, fmt.Errorf("db: migrations %s and %s of %s share version %d", ms[i-1].file, ms[i].file, src.Name, ms[i].version)
		}
	}
	return ms, nil
}

// apply runs one migration unless it is already recorded.
func apply(ctx context.Context, gdb *gorm.DB, m migration) error {
	err := gdb.Transaction(func(tx *gorm.DB) error {
		if err := lockMigrations(tx); err != nil {
			return err
		}
		var n int64
		err := tx.Raw(`SELECT COUNT(*) FROM schema_migrations WHERE source = ? AND version = ?`, m.source, m.version).Scan(&n).Error
		if err != nil || n > 0 {
			return err
		}
		// The file goes to the driver untouched: gorm's placeholder
		// rewriting must not see '?' or '@' inside SQL literals.
		if _, err := tx.Statement.ConnPool.ExecContext(ctx, m.sql); err != nil {
			return err
		}
		return tx.Exec(`INSERT INTO schema_migrations (source, version, name, applied_at) VALUES (?, ?, ?, ?)`,
			m.source, m.version, m.file, time.Now().UTC()).Error
	})
	if err != nil {
		return fmt.Errorf("db: migration %s %s: %w", m.source, m.file, err)
	}
	return nil
}

// lockMigrations serialises migrators of one PostgreSQL schema until the
// transaction ends. SQLite needs nothing: its transactions begin IMMEDIATE
// and so already exclude other writers.
func lockMigrations(tx *gorm.DB) error {
	if Dialect(tx) != Postgres {
		return nil
	}
	err := tx.Exec(`SELECT pg_advisory_xact_lock(hashtext('tms.migrate.' || current_schema()))`).Error
	if err != nil {
		return errors.Join(errors.New("db: lock migrations"), err)
	}
	return nil
}
