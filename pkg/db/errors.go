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
