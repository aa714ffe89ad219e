package store

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/errs"
)

// Store wraps the service database.
type Store struct {
	gdb      *gorm.DB
	postgres bool
	edits    *editGroup
	inTx     bool       // an Atomic store: one connection, statements in sequence
	copies   *copyCache // the copy of the catalog as last read; nil: read each time
	langs    *languageCache
}

// New returns a store over a migrated database.
func New(gdb *gorm.DB) *Store {
	s := &Store{gdb: gdb, postgres: db.Dialect(gdb) == db.Postgres}
	s.edits = newEditGroup(s)
	s.langs = &languageCache{}
	if !s.postgres {
		s.copies = newCopyCache()
	}
	return s
}

// DB exposes the handle for the outbox relay.
func (s *Store) DB() *gorm.DB { return s.gdb }

func (s *Store) q(ctx context.Context) *gorm.DB { return s.gdb.WithContext(ctx) }

// Atomic runs fn with a Store whose every call is part of one transaction
// (their own transactions become savepoints): all of fn's writes and
// change records are kept, or none when fn fails. A source upload re-reads
// every file of a component this way.
func (s *Store) Atomic(ctx context.Context, fn func(tx *Store) error) error {
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		ts := &Store{gdb: tx, postgres: s.postgres, inTx: true, langs: s.langs}
		ts.edits = newEditGroup(ts)
		return fn(ts)
	})
}

// rowLock is what follows a statement of the store's own that locks the
// rows it reads, as forUpdate does for the ORM's.
func (s *Store) rowLock() string {
	if s.postgres {
		return " FOR UPDATE"
	}
	return ""
}

// forUpdate locks the selected rows on PostgreSQL; SQLite transactions are
// already exclusive (IMMEDIATE, one writer).
func (s *Store) forUpdate(tx *gorm.DB) *gorm.DB {
	if s.postgres {
		return tx.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	return tx
}

// page orders q by id and selects one page of it; limit 0 means all.
func page(q *gorm.DB, offset, limit int64) *gorm.DB {
	q = q.Order("id").Offset(int(offset))
	if limit > 0 {
		q = q.Limit(int(limit))
	}
	return q
}

// componentTranslations selects the ids of a component's translations, for
// "translation_id IN (?)". A gorm statement runs once: build one per use.
func componentTranslations(tx *gorm.DB, componentID int64) *gorm.DB {
	return tx.Model(&Translation{}).Select("id").Where("component_id = ?", componentID)
}

func notFound(err error, what string) error {
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return errs.NotFoundf("Not found.")
	}
	if err != nil {
		return errs.Wrap(errs.Internal, err, "load "+what)
	}
	return nil
}

// CreateTask stores a new running import task.
func (s *Store) CreateTask(ctx context.Context, id string, componentID int64, holder string) (Task, error) {
	return s.CreateTaskOf(ctx, TaskImport, id, componentID, holder)
}

// CreateProjectTask records a running task of kind over a project.
func (s *Store) CreateProjectTask(ctx context.Context, kind, id, projectSlug, holder string) (Task, error) {
	t := Task{ID: id, ProjectSlug: projectSlug, Kind: kind, Holder: holder, CreatedAt: now(), UpdatedAt: now()}
	return t, s.q(ctx).Create(&t).Error
}

// CreateTaskOf stores a new running task of a kind.
func (s *Store) CreateTaskOf(ctx context.Context, kind, id string, componentID int64, holder string) (Task, error) {
	t := Task{ID: id, ComponentID: componentID, Kind: kind, Holder: holder, CreatedAt: now(), UpdatedAt: now()}
	return t, s.q(ctx).Create(&t).Error
}

// UpdateTask records progress (0–100) and appends a log line.
func (s *Store) UpdateTask(ctx context.Context, id string, progress int, logLine string) error {
	updates := map[string]any{"progress": progress, "updated_at": now()}
	if logLine != "" {
		updates["log"] = gorm.Expr("log || ?", logLine+"\n")
	}
	return s.q(ctx).Model(&Task{}).Where("id = ?", id).Updates(updates).Error
}

// AppendTaskLog appends a line to a task's log.
func (s *Store) AppendTaskLog(ctx context.Context, id, line string) error {
	return s.q(ctx).Model(&Task{}).Where("id = ?", id).
		Updates(map[string]any{"log": gorm.Expr("log || ?", line+"\n"), "updated_at": now()}).Error
}

// FinishTask marks a task completed, with the failure text when failed.
func (s *Store) FinishTask(ctx context.Context, id string, failure string) error {
	updates := map[string]any{"completed": true, "error": failure, "updated_at": now()}
	if failure == "" {
		updates["progress"] = 100
	}
	return s.q(ctx).Model(&Task{}).Where("id = ?", id).Updates(updates).Error
}

// GetTask loads a task.
func (s *Store) GetTask(ctx context.Context, id string) (Task, error) {
	var t Task
	err := s.q(ctx).Where("id = ?", id).Take(&t).Error
	return t, notFound(err, "task")
}

// CancelTask asks for a running task to stop and reports whether it was
// still running; the process holding it sees the request (TaskCancelled)
// and finishes it.
func (s *Store) CancelTask(ctx context.Context, id string) (bool, error) {
	res := s.q(ctx).Model(&Task{}).Where("id = ? AND completed = ?", id, false).
		Updates(map[string]any{"cancelled": true, "updated_at": now()})
	return res.RowsAffected == 1, res.Error
}

// TaskCancelled tells whether someone asked to cancel the task.
func (s *Store) TaskCancelled(ctx context.Context, id string) (bool, error) {
	var n int64
	err := s.q(ctx).Model(&Task{}).Where("id = ? AND cancelled = ?", id, true).Count(&n).Error
	return n > 0, err
}

// RunningTasks lists the tasks not finished, oldest first.
func (s *Store) RunningTasks(ctx context.Context) ([]Task, error) {
	var out []Task
	err := s.q(ctx).Where("completed = ?", false).Order("created_at, id").Find(&out).Error
	return out, err
}

// TakeOverTask finishes a task whose process (holder) is gone as failed,
// the failure its error, and reports whether this call did: of several
// replicas finding it at once, one takes it over and imports again.
func (s *Store) TakeOverTask(ctx context.Context, id, holder, by, failure string) (bool, error) {
	res := s.q(ctx).Model(&Task{}).Where("id = ? AND completed = ? AND holder = ?", id, false, holder).
		Updates(map[string]any{"completed": true, "error": failure, "holder": by, "updated_at": now()})
	return res.RowsAffected == 1, res.Error
}

// GetRepository returns the working copy state of a component; a zero row
// (with the id) when none was recorded.
func (s *Store) GetRepository(ctx context.Context, componentID int64) (Repository, error) {
	var r Repository
	err := s.q(ctx).Where("component_id = ?", componentID).Take(&r).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Repository{ComponentID: componentID}, nil
	}
	return r, err
}

// SaveRepository upserts the working copy state of a component.
func (s *Store) SaveRepository(ctx context.Context, r Repository) error {
	r.UpdatedAt = now()
	return s.q(ctx).Clauses(clause.OnConflict{UpdateAll: true}).Create(&r).Error
}

// setNeedsCommit flags the component's working copy as holding changes not
// yet committed, within tx.
func setNeedsCommit(tx *gorm.DB, componentID int64) error {
	return tx.Clauses(clause.OnConflict{
		Columns:   []clause.Column{{Name: "component_id"}},
		DoUpdates: clause.Assignments(map[string]any{"needs_commit": true, "updated_at": now()}),
	}).Create(&Repository{ComponentID: componentID, NeedsCommit: true, UpdatedAt: now()}).Error
}

// ListTranslations pages the translations of the components (none: of all), by id.
func (s *Store) ListTranslations(ctx context.Context, components []int64, offset, limit int64, hidden Hidden) ([]Translation, int64, error) {
	q := hidden.translations(s.q(ctx).Model(&Translation{}))
	if len(components) > 0 {
		q = q.Where("component_id IN ?", components)
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Translation
	q = page(q, offset, limit)
	return out, total, q.Find(&out).Error
}

// GetTranslation finds a component's translation by language code.
func (s *Store) GetTranslation(ctx context.Context, componentID int64, code string) (Translation, error) {
	t, err := takeTranslation(s.q(ctx), "", "component_id = ? AND language_code = ?", componentID, code)
	return t, notFound(err, "translation")
}

// GetTranslationByID loads a translation.
func (s *Store) GetTranslationByID(ctx context.Context, id int64) (Translation, error) {
	t, err := takeTranslation(s.q(ctx), "", "id = ?", id)
	return t, notFound(err, "translation")
}

// SourceTranslation returns the component's source-language translation.
func (s *Store) SourceTranslation(ctx context.Context, componentID int64) (Translation, error) {
	var t Translation
	err := s.q(ctx).Where("component_id = ? AND is_source = ?", componentID, true).Take(&t).Error
	return t, notFound(err, "source translation")
}

// translationsByID loads the translations with the given ids.
func (s *Store) translationsByID(ctx context.Context, ids []int64) (map[int64]Translation, error) {
	var ts []Translation
	if err := s.q(ctx).Where("id IN ?", ids).Find(&ts).Error; err != nil {
		return nil, err
	}
	out := make(map[int64]Translation, len(ts))
	for _, t := range ts {
		out[t.ID] = t
	}
	return out, nil
}

// ForgetComponent deletes every row of a component.
func (s *Store) ForgetComponent(ctx context.Context, componentID int64) error {
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		var ts []Translation
		if err := tx.Where("component_id = ?", componentID).Find(&ts).Error; err != nil {
			return err
		}
		copies, err := copiesOfTranslations(tx, ts)
		if err != nil {
			return err
		}
		// Units first, in one statement, rather than by cascade row by row.
		if err := tx.Where("translation_id IN (?)", componentTranslations(tx, componentID)).Delete(&Unit{}).Error; err != nil {
			return err
		}
		for _, m := range []any{&Translation{}, &Repository{}, &Snapshot{}, &Task{}, &Alert{}} {
			if err := tx.Where("component_id = ?", componentID).Delete(m).Error; err != nil {
				return err
			}
		}
		return copies.reconcile()
	})
}

// ForgetProjects deletes the labels of deleted projects (by catalog id).
func (s *Store) ForgetProjects(ctx context.Context, projectIDs []int64) error {
	if len(projectIDs) == 0 {
		return nil
	}
	return s.q(ctx).Where("project_id IN ?", projectIDs).Delete(&Label{}).Error
}

// recentWindow is how far before the last change recent_changes looks.
const recentWindow = 6 * time.Hour

// ComponentName is the slugs the catalog names a component by.
type ComponentName struct {
	ComponentID                int64
	ProjectSlug, ComponentSlug string
}

// RenameComponents gives the translations of each component its current
// slugs, in one transaction; unknown components are skipped.
func (s *Store) RenameComponents(ctx context.Context, names []ComponentName) error {
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		for _, n := range names {
			var old Translation
			err := tx.Where("component_id = ?", n.ComponentID).Limit(1).Find(&old).Error
			if err != nil || old.ID == 0 {
				return err
			}
			err = tx.Model(&Translation{}).Where("component_id = ?", n.ComponentID).
				Updates(map[string]any{"project_slug": n.ProjectSlug, "component_slug": n.ComponentSlug}).Error
			if err != nil {
				return err
			}
			if err = renameMemory(tx, old, n); err != nil {
				return err
			}
		}
		return nil
	})
}
