package db

import (
	"context"
	"database/sql"
	"errors"
	"strings"

	"gorm.io/gorm"
)

// splitPool sends SQLite's reads to a pool of read-only connections and
// everything else (writes, transactions, prepared statements) to the single
// writer connection. In WAL mode readers never wait for the writer nor for
// each other, so a slow read or a long write no longer holds up every
// request of a service. A read sees what was committed when it started,
// which is all a statement outside a transaction can see anyway.
//
// Data statements run prepared from a cache per pool (stmtCache), inside
// transactions too (splitTx); DDL and pragmas never are, so they leave no
// prepared statement behind that could hold a table.
type splitPool struct {
	writer *sql.DB
	reader *sql.DB
	reads  *stmtCache // on reader
	writes *stmtCache // on writer
	gen    generation // of finished writes
}

func newSplitPool(writer, reader *sql.DB) *splitPool {
	return &splitPool{writer: writer, reader: reader, reads: newStmtCache(reader), writes: newStmtCache(writer)}
}

// closeReaders closes the cached statements and the readers' pool.
func (p *splitPool) closeReaders() error {
	err := errors.Join(p.reads.close(), p.writes.close())
	return errors.Join(err, p.reader.Close())
}

// readOnly tells a plain SELECT, the only statement the readers take; an
// INSERT … RETURNING, a writing CTE or a PRAGMA goes to the writer.
func readOnly(query string) bool { return verb(query, "SELECT") }

// dataWrite tells the statements worth preparing on the writer.
func dataWrite(query string) bool {
	return verb(query, "INSERT") || verb(query, "UPDATE") || verb(query, "DELETE")
}

// verb tells whether query starts with the six-letter keyword v.
func verb(query, v string) bool {
	q := strings.TrimLeft(query, " \t\r\n(")
	return len(q) >= 6 && strings.EqualFold(q[:6], v)
}

func (p *splitPool) PrepareContext(ctx context.Context, query string) (*sql.Stmt, error) {
	return p.writer.PrepareContext(ctx, query)
}

func (p *splitPool) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	defer p.gen.bump()
	if dataWrite(query) {
		return p.writes.exec(ctx, query, args...)
	}
	return p.writer.ExecContext(ctx, query, args...)
}

func (p *splitPool) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	switch {
	case readOnly(query):
		return p.reads.query(ctx, query, args...)
	case dataWrite(query):
		p.gen.bump() // see Generation
		return p.writes.query(ctx, query, args...)
	}
	p.gen.bump()
	return p.writer.QueryContext(ctx, query, args...)
}

func (p *splitPool) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	switch {
	case readOnly(query):
		return p.reads.queryRow(ctx, query, args...)
	case dataWrite(query):
		p.gen.bump() // see Generation
		return p.writes.queryRow(ctx, query, args...)
	}
	p.gen.bump()
	return p.writer.QueryRowContext(ctx, query, args...)
}

// BeginTx starts a transaction on the writer: a transaction's reads must
// see its own writes. Its data statements run from the writer's cache too.
func (p *splitPool) BeginTx(ctx context.Context, opts *sql.TxOptions) (gorm.ConnPool, error) {
	tx, err := p.writer.BeginTx(ctx, opts)
	if err != nil {
		return nil, err
	}
	return &splitTx{Tx: tx, cache: p.writes, pool: p}, nil
}

// splitTx is a transaction of the writer whose data statements use the
// writer's prepared statements (bound to the transaction for each use).
// A statement the cache lacks cannot be prepared during the transaction:
// the writer's only connection is the transaction's. It runs unprepared
// and is prepared once the transaction ends.
type splitTx struct {
	*sql.Tx
	cache  *stmtCache // the writer's
	pool   *splitPool
	missed []string
}

// stmt is query's cached statement bound to the transaction, or nil.
func (t *splitTx) stmt(ctx context.Context, query string) *sql.Stmt {
	if !readOnly(query) && !dataWrite(query) {
		return nil
	}
	if st := t.cache.peek(query); st != nil {
		return t.StmtContext(ctx, st)
	}
	if len(t.missed) < 16 {
		t.missed = append(t.missed, query)
	}
	return nil
}

// Commit commits, then prepares the statements the cache lacked.
func (t *splitTx) Commit() error {
	err := t.Tx.Commit()
	t.pool.gen.bump()
	t.warm()
	return err
}

// Rollback rolls back, then prepares the statements the cache lacked.
func (t *splitTx) Rollback() error {
	err := t.Tx.Rollback()
	t.warm()
	return err
}

// warm prepares the missed statements in the background: the writer's
// connection is free again, but whoever waits for it goes first.
func (t *splitTx) warm() {
	if len(t.missed) == 0 {
		return
	}
	missed := t.missed
	t.missed = nil
	go func() {
		for _, q := range missed {
			t.cache.stmt(context.Background(), q)
		}
	}()
}

func (t *splitTx) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := t.stmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return t.Tx.ExecContext(ctx, query, args...)
}

func (t *splitTx) QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := t.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return t.Tx.QueryContext(ctx, query, args...)
}

func (t *splitTx) QueryRowContext(ctx context.Context, query string, args ...any) *sql.Row {
	if st := t.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return t.Tx.QueryRowContext(ctx, query, args...)
}

// GetDBConn is the writer, for gorm's DB() inside a transaction.
func (t *splitTx) GetDBConn() (*sql.DB, error) { return t.cache.db, nil }

// GetDBConn is the writer, for gorm's DB() (pool settings, Close, Ping).
func (p *splitPool) GetDBConn() (*sql.DB, error) { return p.writer, nil }
