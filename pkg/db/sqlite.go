package db

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/libtnb/sqlite"
	"gorm.io/gorm"
)

// sqliteDSN builds the driver DSN: foreign keys on, WAL so readers do not
// block the writer, a busy timeout for other processes (a migrate job, say),
// and IMMEDIATE transactions so a transaction that later writes waits for
// the lock up front instead of failing with SQLITE_BUSY on upgrade.
// The writer keeps its temporary store in memory: every multi-row insert
// into an indexed table opens a statement journal, which otherwise
// spills to a temporary file and cost a tenth of a large import in
// write system calls. The journal holds the pages one statement changes,
// so a batch bounds it; readers keep the default for their large sorts.
// Its page cache is 32 MiB, not 2: an import into a million-row table
// with indexes keyed by hashes otherwise re-reads index pages for every
// batch (a third of the time of a 1M-segment memory import).
func sqliteDSN(path string) string {
	q := url.Values{}
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "temp_store(memory)")
	q.Add("_pragma", "cache_size(-32768)")
	q.Set("_txlock", "immediate")
	// Times are written as earlier versions of the driver wrote them, so
	// that stored values and bound ones compare as text.
	q.Set("_time_format", "sqlite")
	return "file:" + uriPath.Replace(filepath.ToSlash(path)) + "?" + q.Encode()
}

// sqliteReaderDSN opens the same file for reading only: query_only makes
// a write through a reader an error instead of a silent second writer.
func sqliteReaderDSN(path string) string {
	q := url.Values{}
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "busy_timeout(5000)")
	q.Add("_pragma", "query_only(1)")
	q.Set("_time_format", "sqlite")
	return "file:" + uriPath.Replace(filepath.ToSlash(path)) + "?" + q.Encode()
}

// SQLiteReaders is the size of the read pool: enough to keep the cores
// busy with reads while the writer works. A store may run as many reads
// of one request at once.
const SQLiteReaders = 4

// uriPath escapes the characters that SQLite's URI parser (and the
// driver's split at the first '?') would otherwise take as delimiters: a
// '#' in a directory name must not cut the path short.
var uriPath = strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23")

func openSQLite(ctx context.Context, cfg Config, gcfg *gorm.Config) (*gorm.DB, error) {
	if cfg.SQLitePath == "" {
		return nil, errors.New("db: neither a PostgreSQL URL nor a SQLite path is configured")
	}
	if err := os.MkdirAll(filepath.Dir(cfg.SQLitePath), 0o750); err != nil {
		return nil, fmt.Errorf("db: create directory for %s: %w", cfg.SQLitePath, err)
	}
	gdb, err := gorm.Open(sqlite.Open(sqliteDSN(cfg.SQLitePath)), gcfg)
	if err != nil {
		return nil, fmt.Errorf("db: open sqlite %s: %w", cfg.SQLitePath, err)
	}
	sqlDB, err := gdb.DB()
	if err != nil {
		return nil, err
	}
	// SQLite allows one writer at a time; a single connection serialises
	// writers inside the process instead of letting them collide. The
	// connection is kept forever so per-connection pragmas stay in force.
	sqlDB.SetMaxOpenConns(1)
	sqlDB.SetMaxIdleConns(1)
	sqlDB.SetConnMaxLifetime(0)
	sqlDB.SetConnMaxIdleTime(0)
	if err = ping(ctx, gdb); err != nil {
		return nil, err
	}
	reader, err := sql.Open(sqlite.DriverName, sqliteReaderDSN(cfg.SQLitePath))
	if err != nil {
		return nil, fmt.Errorf("db: open sqlite readers %s: %w", cfg.SQLitePath, err)
	}
	reader.SetMaxOpenConns(SQLiteReaders)
	reader.SetMaxIdleConns(SQLiteReaders)
	reader.SetConnMaxIdleTime(0)
	if err := reader.PingContext(ctx); err != nil {
		_ = reader.Close()
		return nil, fmt.Errorf("db: sqlite readers %s: %w", cfg.SQLitePath, err)
	}
	pool := newSplitPool(sqlDB, reader)
	gdb.ConnPool, gdb.Statement.ConnPool = pool, pool
	return gdb, nil
}
