package db

import (
	"sync/atomic"

	"gorm.io/gorm"
)

// generation counts the writes a SQLite pool has finished; see Generation.
type generation struct{ n atomic.Uint64 }

func (g *generation) bump() { g.n.Add(1) }

// Generation is a number that changes after every write that commits
// through gdb's pool, for caches of what is read from it: a value read
// after taking the generation g may be kept while Generation still
// answers g. ok is false on PostgreSQL, where other processes write too
// and nothing may be cached this way.
//
// It moves when a transaction commits and when a statement outside a
// transaction returns (Exec). A writing query that returns rows outside a
// transaction (INSERT … RETURNING without one) commits when its rows are
// closed, after the move: stores that cache must write in transactions or
// with Exec.
func Generation(gdb *gorm.DB) (n uint64, ok bool) {
	switch p := gdb.Statement.ConnPool.(type) {
	case *splitPool:
		return p.gen.n.Load(), true
	case *splitTx:
		return p.pool.gen.n.Load(), true
	}
	return 0, false
}
