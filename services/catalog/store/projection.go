package store

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strconv"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/outbox"
)

// Projection is the outbox table of the projects whose snapshot the
// translation service has still to receive. Every write to a project, to
// its categories or to its components adds one to the project's revision
// and writes an event naming the project, in its transaction. The event
// carries no state: its delivery reads the project as it is then
// (Snapshot), so a late event sends news, never an old state, and the
// revision tells the receiver which of two snapshots is newer. A table of
// its own (outbox.Table), migrated with Projection.Migrations().
var Projection = outbox.Table("projection_events")

// ProjectionTopic is the topic of the events of Projection; the payload
// is the project's id in decimal.
const ProjectionTopic = "catalog.project"

// Languages stands for the language table among the projects of
// Projection: its revision grows, and an event names it, with every write
// to a language or a plural, and its snapshot is the whole table
// (LanguageTable).
const Languages int64 = -1

// touchedKey keys the projects a transaction wrote to in its context.
type touchedKey struct{}

// touchedProjects are the projects a transaction wrote to.
type touchedProjects struct{ ids []int64 }

// touch notes, within a transaction of Store.transaction, that it wrote
// to the projects: the transaction records their snapshots before it
// commits. Outside one it does nothing.
func touch(tx *gorm.DB, ids ...int64) {
	t, ok := tx.Statement.Context.Value(touchedKey{}).(*touchedProjects)
	if !ok {
		return
	}
	for _, id := range ids {
		if (id > 0 || id == Languages) && !slices.Contains(t.ids, id) {
			t.ids = append(t.ids, id)
		}
	}
}

// recordSnapshots adds one to the revision of each project and writes its
// event into Projection, within tx. The projects go in id order, so that
// two transactions touching the same projects take their revision rows'
// locks in one order.
func recordSnapshots(tx *gorm.DB, ids []int64) error {
	ids = slices.Sorted(slices.Values(ids))
	payloads := make([][]byte, 0, len(ids))
	for _, id := range ids {
		err := tx.Exec(`INSERT INTO projection_revisions (project_id, revision) VALUES (?, 1)
			ON CONFLICT (project_id) DO UPDATE SET revision = projection_revisions.revision + 1`, id).Error
		if err != nil {
			return fmt.Errorf("project %d revision: %w", id, err)
		}
		payloads = append(payloads, []byte(strconv.FormatInt(id, 10)))
	}
	if len(payloads) == 0 {
		return nil
	}
	return Projection.AddAll(tx, ProjectionTopic, payloads)
}

// ProjectOfEvent reads the project id an event of Projection names.
func ProjectOfEvent(ev outbox.Event) (int64, error) {
	id, err := strconv.ParseInt(string(ev.Payload), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("projection event %s: %w", ev.EventID, err)
	}
	return id, nil
}

// ProjectSnapshot is a project as one consistent read found it: its
// revision, and the project with every component (Project nil: deleted).
type ProjectSnapshot struct {
	ProjectID  int64
	Revision   int64
	Project    *Project
	Components []Component
}

// Snapshot reads the project's revision, the project and its components
// in one read-only transaction, at one point of the history (repeatable
// read on PostgreSQL; SQLite's transactions are serializable), so that the
// revision names exactly the state read.
func (s *Store) Snapshot(ctx context.Context, projectID int64) (ProjectSnapshot, error) {
	snap := ProjectSnapshot{ProjectID: projectID}
	var opts []*sql.TxOptions
	if db.Dialect(s.db) == db.Postgres {
		opts = append(opts, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var revs []int64
		if err := tx.Table("projection_revisions").Where("project_id = ?", projectID).Pluck("revision", &revs).Error; err != nil {
			return err
		}
		if len(revs) == 1 {
			snap.Revision = revs[0]
		}
		var ps []Project
		if err := tx.Where("id = ?", projectID).Limit(1).Find(&ps).Error; err != nil {
			return err
		}
		if len(ps) == 0 {
			return nil
		}
		snap.Project = &ps[0]
		return componentQuery(tx).Where("components.project_id = ?", projectID).Order("components.id").Find(&snap.Components).Error
	}, opts...)
	return snap, err
}

// SeedProjection records a snapshot of every project that never had one
// (those stored before the projection existed), so that the translation
// service learns of them. Starting replicas may run it at once: each
// project is recorded by the first to claim its revision row, and a
// snapshot twice is harmless anyway.
func (s *Store) SeedProjection(ctx context.Context) error {
	return s.transaction(ctx, func(tx *gorm.DB) error {
		var ids []int64
		err := tx.Model(&Project{}).Where("id NOT IN (SELECT project_id FROM projection_revisions)").Order("id").Pluck("id", &ids).Error
		if err != nil {
			return err
		}
		touch(tx, ids...)
		var n int64
		if err := tx.Table("projection_revisions").Where("project_id = ?", Languages).Count(&n).Error; err != nil {
			return err
		}
		if n == 0 {
			touch(tx, Languages)
		}
		return nil
	})
}

// LanguageTableSnapshot is the language table as one consistent read
// found it: its revision, every language and every other plural, by id.
type LanguageTableSnapshot struct {
	Revision  int64
	Languages []Language
	Plurals   []Plural
}

// LanguageTable reads the language table's revision, languages and
// plurals at one point of the history, as Snapshot reads a project.
func (s *Store) LanguageTable(ctx context.Context) (LanguageTableSnapshot, error) {
	var snap LanguageTableSnapshot
	var opts []*sql.TxOptions
	if db.Dialect(s.db) == db.Postgres {
		opts = append(opts, &sql.TxOptions{Isolation: sql.LevelRepeatableRead, ReadOnly: true})
	}
	err := s.db.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		var revs []int64
		if err := tx.Table("projection_revisions").Where("project_id = ?", Languages).Pluck("revision", &revs).Error; err != nil {
			return err
		}
		if len(revs) == 1 {
			snap.Revision = revs[0]
		}
		if err := tx.Order("id").Find(&snap.Languages).Error; err != nil {
			return err
		}
		return tx.Order("id").Find(&snap.Plurals).Error
	}, opts...)
	return snap, err
}

// TouchLanguages sends the language table again (a reporter of an import
// lacked languages the catalog has).
func (s *Store) TouchLanguages(ctx context.Context) error {
	return s.transaction(ctx, func(tx *gorm.DB) error {
		touch(tx, Languages)
		return nil
	})
}
