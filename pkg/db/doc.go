// Package db opens a service's database and applies its versioned SQL
// migrations.
//
// Two engines share one code path (ARCHITECTURE.md rule 2): PostgreSQL when
// Config.URL is set, otherwise an embedded SQLite file through the pure-Go
// libtnb/sqlite dialector over modernc.org/sqlite. On PostgreSQL every service lives in its own schema,
// so several services may share one database URL and still own separate
// tables.
//
// Migrations are plain SQL files, one directory per engine, embedded in the
// service binary with //go:embed and applied by Migrate in version order, each
// in its own transaction. There is no AutoMigrate.
package db
