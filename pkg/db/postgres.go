package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/stdlib"
	"gorm.io/driver/postgres"
	"gorm.io/gorm"
)

func openPostgres(ctx context.Context, cfg Config, gcfg *gorm.Config) (*gorm.DB, error) {
	schema := cfg.Schema
	if schema == "" {
		schema = "public"
	}
	if !schemaName.MatchString(schema) {
		return nil, fmt.Errorf("db: invalid schema name %q", schema)
	}
	pcfg, err := pgx.ParseConfig(cfg.URL)
	if err != nil {
		return nil, fmt.Errorf("db: parse PostgreSQL URL: %w", err)
	}
	if err = ensureSchema(ctx, pcfg.Copy(), schema); err != nil {
		return nil, err
	}
	// Every pooled connection starts with the service's schema as its only
	// search_path, so unqualified table names never reach another service.
	pcfg.RuntimeParams["search_path"] = schema
	sqlDB := stdlib.OpenDB(*pcfg)
	sqlDB.SetMaxOpenConns(20)
	sqlDB.SetMaxIdleConns(5)
	sqlDB.SetConnMaxIdleTime(5 * time.Minute)
	gdb, err := gorm.Open(postgres.New(postgres.Config{Conn: sqlDB}), gcfg)
	if err != nil {
		return nil, errors.Join(fmt.Errorf("db: open postgres: %w", err), sqlDB.Close())
	}
	if err := ping(ctx, gdb); err != nil {
		return nil, err
	}
	return gdb, nil
}

// ensureSchema creates the schema on a short-lived connection. Concurrent
// starters of the same service race on CREATE SCHEMA IF NOT EXISTS (it can
// fail with a unique violation), so the check and the creation run under an
// advisory lock.
func ensureSchema(ctx context.Context, pcfg *pgx.ConnConfig, schema string) error {
	sqlDB := stdlib.OpenDB(*pcfg)
	defer func() { _ = sqlDB.Close() }()
	conn, err := sqlDB.Conn(ctx)
	if err != nil {
		return fmt.Errorf("db: connect to PostgreSQL: %w", err)
	}
	defer func() { _ = conn.Close() }()
	return withTx(ctx, conn, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, `SELECT pg_advisory_xact_lock(hashtext('tms.schema.' || $1))`, schema); err != nil {
			return err
		}
		// Look before creating: a role without CREATE on the database may
		// still use a schema that an administrator made for it.
		var exists bool
		err := tx.QueryRowContext(ctx, `SELECT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = $1)`, schema).Scan(&exists)
		if err != nil || exists {
			return err
		}
		_, err = tx.ExecContext(ctx, `CREATE SCHEMA "`+schema+`"`)
		return err
	})
}

func withTx(ctx context.Context, conn *sql.Conn, fn func(*sql.Tx) error) error {
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("db: create schema: %w", err)
	}
	if err := fn(tx); err != nil {
		return errors.Join(fmt.Errorf("db: create schema: %w", err), tx.Rollback())
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("db: create schema: %w", err)
	}
	return nil
}
