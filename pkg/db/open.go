package db

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/logger"
)

// Engine names returned by Dialect.
const (
	SQLite   = "sqlite"
	Postgres = "postgres"
)

// Config selects and locates a database.
type Config struct {
	// URL is a PostgreSQL connection string (postgres://… or key=value
	// form). Empty selects the embedded SQLite engine.
	URL string
	// SQLitePath is the SQLite database file; its parent directory is
	// created when missing. Used only when URL is empty.
	SQLitePath string
	// Schema is the PostgreSQL schema owned by the service. It is created
	// when missing and becomes the connections' search_path. Empty means
	// "public". Ignored by SQLite.
	Schema string
	// Logger overrides the default quiet gorm logger.
	Logger logger.Interface
}

// schemaName limits schemas to plain lower-case identifiers, so they can be
// spliced into SQL and into search_path without quoting surprises.
var schemaName = regexp.MustCompile(`^[a-z_][a-z0-9_]{0,62}$`)

// Open connects to the database described by cfg and checks that it answers.
func Open(ctx context.Context, cfg Config) (*gorm.DB, error) {
	gcfg := &gorm.Config{
		Logger:         cfg.Logger,
		TranslateError: true,
		// Services write their own transactions; gorm's implicit
		// per-statement transactions would only add round trips.
		SkipDefaultTransaction: true,
	}
	if gcfg.Logger == nil {
		gcfg.Logger = newQuietLogger()
	}
	var (
		gdb *gorm.DB
		err error
	)
	if cfg.URL != "" {
		gdb, err = openPostgres(ctx, cfg, gcfg)
	} else {
		gdb, err = openSQLite(ctx, cfg, gcfg)
	}
	if err != nil {
		return nil, err
	}
	return gdb, nil
}

// Dialect names the engine behind gdb: SQLite or Postgres.
func Dialect(gdb *gorm.DB) string {
	return gdb.Dialector.Name()
}

// Normalize returns t as both engines store it: UTC, microsecond precision
// (PostgreSQL keeps no more), so a value read back equals the one written.
func Normalize(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// Close releases the connection pools behind gdb (SQLite's readers too).
func Close(gdb *gorm.DB) error {
	sqlDB, err := gdb.DB()
	if err != nil {
		return err
	}
	if p, ok := gdb.ConnPool.(*splitPool); ok {
		if err := p.closeReaders(); err != nil {
			_ = sqlDB.Close()
			return err
		}
	}
	return sqlDB.Close()
}

// Ping tells whether the database answers: what a service's health
// reports.
func Ping(ctx context.Context, gdb *gorm.DB) error {
	sqlDB, err := gdb.DB()
	if err != nil {
		return err
	}
	return sqlDB.PingContext(ctx)
}

// ping verifies the connection, closing the pool when it fails so that a
// failed Open leaks nothing.
func ping(ctx context.Context, gdb *gorm.DB) error {
	sqlDB, err := gdb.DB()
	if err != nil {
		return err
	}
	if err := sqlDB.PingContext(ctx); err != nil {
		return errors.Join(fmt.Errorf("db: ping: %w", err), sqlDB.Close())
	}
	return nil
}
