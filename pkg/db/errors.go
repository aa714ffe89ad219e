package db

import (
	"errors"

	"github.com/jackc/pgx/v5/pgconn"
	"gorm.io/gorm"
	gosqlite "modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// IsDuplicate reports whether err is a unique or primary key violation on
// either engine. Errors that went through gorm arrive translated to
// gorm.ErrDuplicatedKey; raw driver errors (from a *sql.DB used directly)
// are recognised too.
func IsDuplicate(err error) bool {
	if err == nil {
		return false
	}
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return true
	}
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23505"
	}
	var sqErr *gosqlite.Error
	if errors.As(err, &sqErr) {
		code := sqErr.Code()
		return code == sqlite3.SQLITE_CONSTRAINT_UNIQUE || code == sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY
	}
	return false
}

// IsDeadlock reports whether err is PostgreSQL giving up a transaction
// that waited in a cycle of locks (or could not be serialized): running
// it again is the cure.
func IsDeadlock(err error) bool {
	var pgErr *pgconn.PgError
	return errors.As(err, &pgErr) && (pgErr.Code == "40P01" || pgErr.Code == "40001")
}
