package store

import (
	"context"
	"embed"
	"errors"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/changefeed"
	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/pkg/policy"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

//go:embed migrations
var migrationFiles embed.FS

// Migrations is the catalog's schema. Migrate it together with
// outbox.Migrations, which the change records are written to, and
// Removals.Migrations().
var Migrations = db.EmbeddedSource("catalog", migrationFiles, "migrations")

// Sources are every schema the store writes to, in migration order: its
// own, the change records' outbox and the outbox tables of its consumers.
func Sources() []db.Source {
	return []db.Source{Migrations, outbox.Migrations, Removals.Migrations(), Lifecycle.Migrations(), Projection.Migrations()}
}

// ErrNotFound reports a missing project, component or language.
var ErrNotFound = errors.New("store: not found")

// DuplicateError reports a unique field whose value is taken.
type DuplicateError struct {
	Field string // "name" or "slug"
}

func (e *DuplicateError) Error() string { return "store: duplicate " + e.Field }

// Page selects a slice of an ordered list. Limit <= 0 means no limit.
type Page struct {
	Offset int64
	Limit  int64
}

func (p Page) apply(q *gorm.DB) *gorm.DB {
	if p.Offset > 0 {
		q = q.Offset(int(p.Offset))
	}
	if p.Limit > 0 {
		q = q.Limit(int(p.Limit))
	}
	return q
}

// Store is the catalog's storage.
type Store struct {
	db    *gorm.DB
	cache *caches
	// snapshotted is called after each committed transaction that recorded
	// snapshots (Projection); nil: none.
	snapshotted func()
}

// New wraps an open, migrated database.
func New(gdb *gorm.DB) *Store { return &Store{db: gdb, cache: newCaches()} }

// now is the timestamp stored for new rows, as the engines keep it.
func now() time.Time { return db.Normalize(time.Now()) }

// record writes the change records into the outbox within tx.
func record(tx *gorm.DB, changes ...*changelogv1.Change) error {
	for _, c := range changes {
		if c == nil {
			continue
		}
		if err := changefeed.Record(tx, c); err != nil {
			return err
		}
	}
	return nil
}

// Viewer is what a list may show (policy.Visibility): every project, or
// those of some access levels and those named.
type Viewer = policy.Visibility

// visibleProjects narrows a query of projects to those v sees.
func visibleProjects(q *gorm.DB, v Viewer) *gorm.DB {
	if v.All {
		return q
	}
	levels, slugs := v.Levels, v.Slugs
	if levels == nil {
		levels = []int32{-1}
	}
	if slugs == nil {
		slugs = []string{""}
	}
	return q.Where("(access_control IN ? OR slug IN ?)", levels, slugs)
}

// notFound maps gorm's missing-row error to ErrNotFound.
func notFound(err error) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return ErrNotFound
	}
	return err
}

// OnSnapshot sets what is called after each committed write that recorded
// snapshots of projects (to deliver them before the write answers).
func (s *Store) OnSnapshot(f func()) { s.snapshotted = f }

// transaction runs fn in a transaction bound to ctx, and records the
// snapshots of the projects fn touched (Projection) before it commits.
func (s *Store) transaction(ctx context.Context, fn func(tx *gorm.DB) error) error {
	t := &touchedProjects{}
	ctx = context.WithValue(ctx, touchedKey{}, t)
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		if err := fn(tx); err != nil {
			return err
		}
		return recordSnapshots(tx, t.ids)
	})
	if err == nil && len(t.ids) > 0 && s.snapshotted != nil {
		s.snapshotted()
	}
	return err
}
