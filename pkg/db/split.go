package db

import (
	"context"
	"database/sql"
	"strings"
)

// splitPool sends SQLite's reads to a pool of read-only connections and
// everything else (writes, transactions, prepared statements) to the single
// writer connection. In WAL mode readers never wait for the writer nor for
// each other, so a slow read or a long write no longer holds up every
// request of a service. A read sees what was committed when it started,
// which is all a statement outside a transaction can see anyway.
type splitPool struct {
	writer *sql.DB
	reader *sql.DB
}

// readOnly tells a plain SELECT, the only statement the readers take; an
// INSERT … RETURNING, a writing CTE or a PRAGMA goes to the writer.
func readOnly(query string) bool {
	q := strings.TrimLeft(query, " \t\r\n(")
	return len(q) >= 6 && strings.EqualFold(q[:6], "SELECT")
}

func (p *splitPool) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return p.writer.PrepareContext(ctx, query)
}

func (p *splitPool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	return p.writer.ExecContext(ctx, query, args...)
}

func (p *splitPool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if readOnly(query) {
		return p.reader.QueryContext(ctx, query, args...)
	}
	return p.writer.QueryContext(ctx, query, args...)
}

func (p *splitPool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if readOnly(query) {
		return p.reader.QueryRowContext(ctx, query, args...)
	}
	return p.writer.QueryRowContext(ctx, query, args...)
}

// BeginTx starts a transaction on the writer: a transaction's reads must
// see its own writes.
func (p *splitPool) BeginTx(ctx context.Context, opts *sql.TxOptions) (*sql.Tx, error) {
	return p.writer.BeginTx(ctx, opts)
}

// GetDBConn is the writer, for gorm's DB() (pool settings, Close, Ping).
func (p *splitPool) GetDBConn() (*sql.DB, error) { return p.writer, nil }
