package store

import (
	"embed"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/errs"
)

//go:embed migrations
var migrationsFS embed.FS

// Migrations is the service's schema, to pass to db.Migrate.
var Migrations = db.EmbeddedSource("notification", migrationsFS, "migrations")

// Store reads and writes accounts and subscriptions.
type Store struct {
	gdb *gorm.DB
}

// New returns a Store on a database migrated with Migrations.
func New(gdb *gorm.DB) *Store { return &Store{gdb: gdb} }

// notFound is the error of every lookup that finds nothing.
func notFound() error { return errs.NotFoundf("Not found.") }

// checkPage rejects negative paging arguments; a zero limit means no limit.
func checkPage(offset, limit int) error {
	if offset < 0 || limit < 0 {
		return errs.New(errs.InvalidArgument, "Offset and limit may not be negative.")
	}
	return nil
}

// page applies offset and limit to q.
func page(q *gorm.DB, offset, limit int) *gorm.DB {
	if offset > 0 {
		q = q.Offset(offset)
	}
	if limit > 0 {
		q = q.Limit(limit)
	}
	return q
}
