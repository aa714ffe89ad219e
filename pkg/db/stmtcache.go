package db

import (
	"context"
	"database/sql"
	"sync"
)

// stmtCacheSize bounds the statements a cache keeps. The services issue a
// few hundred distinct statements; texts that vary with their arguments
// (IN lists of every length) would otherwise grow the map without end, so
// past the bound a statement is run unprepared.
const stmtCacheSize = 1024

// stmtCache keeps one prepared statement per query text on a pool.
// SQLite spends much of a short query parsing and planning it, and gorm
// sends the same few texts again and again: preparing each once saves
// that work on every request. database/sql prepares a statement on each
// connection of the pool as it first runs there.
type stmtCache struct {
	db *sql.DB
	mu sync.RWMutex
	m  map[string]*sql.Stmt
}

func newStmtCache(db *sql.DB) *stmtCache { return &stmtCache{db: db, m: map[string]*sql.Stmt{}} }

// peek is query's statement if the cache has it.
func (c *stmtCache) peek(query string) *sql.Stmt {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.m[query]
}

// stmt is the prepared statement of query, or nil when the cache is full
// or the statement does not prepare (then the caller runs it unprepared,
// and meets the error there).
func (c *stmtCache) stmt(ctx context.Context, query string) *sql.Stmt {
	c.mu.RLock()
	st, ok := c.m[query]
	full := len(c.m) >= stmtCacheSize
	c.mu.RUnlock()
	if ok {
		return st
	}
	if full {
		return nil
	}
	// Prepared outside the lock: preparing may wait for a connection that
	// a transaction holds, and that transaction may be looking the cache
	// up. Without the caller's deadline: the statement outlives the
	// request that first needed it.
	st, err := c.db.PrepareContext(context.WithoutCancel(ctx), query)
	if err != nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if had, ok := c.m[query]; ok || len(c.m) >= stmtCacheSize { // prepared or filled meanwhile
		_ = st.Close()
		return had
	}
	c.m[query] = st
	return st
}

func (c *stmtCache) query(ctx context.Context, query string, args ...any) (*sql.Rows, error) {
	if st := c.stmt(ctx, query); st != nil {
		return st.QueryContext(ctx, args...)
	}
	return c.db.QueryContext(ctx, query, args...)
}

func (c *stmtCache) queryRow(ctx context.Context, query string, args ...any) *sql.Row {
	if st := c.stmt(ctx, query); st != nil {
		return st.QueryRowContext(ctx, args...)
	}
	return c.db.QueryRowContext(ctx, query, args...)
}

func (c *stmtCache) exec(ctx context.Context, query string, args ...any) (sql.Result, error) {
	if st := c.stmt(ctx, query); st != nil {
		return st.ExecContext(ctx, args...)
	}
	return c.db.ExecContext(ctx, query, args...)
}

// close closes the cached statements (not the pool).
func (c *stmtCache) close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	var first error
	for q, st := range c.m {
		if err := st.Close(); err != nil && first == nil {
			first = err
		}
		delete(c.m, q)
	}
	return first
}
