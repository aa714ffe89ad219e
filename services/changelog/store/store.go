package store

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/weblate"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

//go:embed migrations
var migrationsFS embed.FS

// Migrations is the service's schema, to pass to db.Migrate.
var Migrations = db.EmbeddedSource("changelog", migrationsFS, "migrations")

// MaxLimit caps one page of ListChanges; a zero limit selects it.
const MaxLimit = 1000

// Change is one stored change record.
type Change struct {
	ID            int64 `gorm:"primaryKey"`
	EventID       string
	Action        int32
	ProjectSlug   string
	ComponentSlug string
	LanguageCode  string
	UnitID        int64
	User          string `gorm:"column:user_name"`
	Author        string
	Target        string
	Old           string
	DetailsJSON   string `gorm:"column:details_json"`
	Timestamp     time.Time
}

// TableName keeps gorm on the table of the migrations.
func (Change) TableName() string { return "changes" }

// Filter selects change records. Zero fields match everything; Actions
// match any of their values; After and Before are inclusive bounds.
type Filter struct {
	ProjectSlug   string
	ComponentSlug string
	LanguageCode  string
	UnitID        int64
	User          string
	// Author keeps the records credited to this author only.
	Author        string
	Actions       []int32
	After, Before time.Time
	// Seen keeps the records the caller may see.
	Seen Seen
}

// Seen is what a caller may see: every record unless Restricted, else
// the records of no project and of the Projects listed (by slug).
type Seen struct {
	Restricted bool
	Projects   []string
}

// Store reads and writes change records.
type Store struct {
	gdb *gorm.DB
}

// New returns a Store on a database migrated with Migrations.
func New(gdb *gorm.DB) *Store { return &Store{gdb: gdb} }

// Get returns the record with the given id.
func (s *Store) Get(ctx context.Context, id int64) (Change, error) {
	var c Change
	err := s.gdb.WithContext(ctx).Where("id = ?", id).Take(&c).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return Change{}, errs.NotFoundf("Not found.")
	}
	if err != nil {
		return Change{}, fmt.Errorf("changelog: get change %d: %w", id, err)
	}
	c.Timestamp = c.Timestamp.UTC()
	return c, nil
}

// List returns one page of the records matching f, newest first (timestamp
// descending, then id descending), and the number of all matching records.
// A zero limit means MaxLimit; larger limits are capped to it.
func (s *Store) List(ctx context.Context, f Filter, offset, limit int) ([]Change, int64, error) {
	if offset < 0 || limit < 0 {
		return nil, 0, errs.New(errs.InvalidArgument, "Offset and limit may not be negative.")
	}
	if limit == 0 || limit > MaxLimit {
		limit = MaxLimit
	}
	q := s.filtered(ctx, f)
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, fmt.Errorf("changelog: count changes: %w", err)
	}
	out := []Change{}
	if total == 0 || int64(offset) >= total {
		return out, total, nil
	}
	err := s.filtered(ctx, f).Order(listOrder).Offset(offset).Limit(limit).Find(&out).Error
	if err != nil {
		return nil, 0, fmt.Errorf("changelog: list changes: %w", err)
	}
	for i := range out {
		out[i].Timestamp = out[i].Timestamp.UTC()
	}
	return out, total, nil
}

// After lists up to limit records with an id above afterID, in id order,
// the caller sees.
func (s *Store) After(ctx context.Context, afterID int64, limit int, seen Seen) ([]Change, error) {
	if limit <= 0 || limit > MaxLimit {
		limit = MaxLimit
	}
	out := []Change{}
	err := s.filtered(ctx, Filter{Seen: seen}).Where("id > ?", afterID).Order("id").Limit(limit).Find(&out).Error
	for i := range out {
		out[i].Timestamp = out[i].Timestamp.UTC()
	}
	return out, err
}

// listOrder is newest first; id breaks ties between equal timestamps.
const listOrder = "timestamp DESC, id DESC"

// filtered builds the WHERE clause of f. Equality on the leading columns
// lets the engine pick the matching (…, timestamp, id) index.
func (s *Store) filtered(ctx context.Context, f Filter) *gorm.DB {
	q := s.gdb.WithContext(ctx).Model(&Change{})
	eq := []struct {
		col string
		val any
		set bool
	}{
		{"project_slug", f.ProjectSlug, f.ProjectSlug != ""},
		{"component_slug", f.ComponentSlug, f.ComponentSlug != ""},
		{"language_code", f.LanguageCode, f.LanguageCode != ""},
		{"unit_id", f.UnitID, f.UnitID != 0},
		{"user_name", f.User, f.User != ""},
		{"author", f.Author, f.Author != ""},
	}
	for _, e := range eq {
		if e.set {
			q = q.Where(e.col+" = ?", e.val)
		}
	}
	if len(f.Actions) > 0 {
		q = q.Where("action IN ?", f.Actions)
	}
	if f.Seen.Restricted {
		// Records of a project the catalog no longer lists under that
		// slug (renamed, deleted) are not seen either; records of no
		// project are.
		q = q.Where("project_slug = '' OR project_slug IN ?", append([]string{""}, f.Seen.Projects...))
	}
	if !f.After.IsZero() {
		q = q.Where("timestamp >= ?", db.Normalize(f.After))
	}
	if !f.Before.IsZero() {
		q = q.Where("timestamp <= ?", db.Normalize(f.Before))
	}
	return q
}

// columns of one inserted row, in the order of rowValues.
var columns = []string{"event_id", "action", "project_slug", "component_slug", "language_code",
	"unit_id", "user_name", "author", "target", "old", "details_json", "timestamp"}

// batchRows keeps a statement's parameters (12 per row) well under the
// engines' limits (SQLite 32766, PostgreSQL 65535).
const batchRows = 500

// ActionStringRemoved is "String removed": the unit it names no longer
// exists, so Append detaches the unit from every record of it.
var ActionStringRemoved = weblate.ChangeActions.RefOf(typev1.ChangeAction_CHANGE_ACTION_STRING_REMOVE)

// Append stores the records in one transaction, skipping those whose event
// id is already stored (or repeated within cs), and returns how many were
// stored. Timestamps are normalised to UTC microseconds; ids are assigned
// by the database.
//
// A "String removed" record carrying a unit id detaches that unit from the
// log (unit_id set to 0 on its records, itself included), as the reference
// does with its nullable foreign key: the records stay, and no record links
// to a unit that answers 404.
func (s *Store) Append(ctx context.Context, cs []Change) (int64, error) {
	var stored int64
	err := s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		for start := 0; start < len(cs); start += batchRows {
			n, err := insertBatch(tx, cs[start:min(start+batchRows, len(cs))])
			if err != nil {
				return err
			}
			stored += n
		}
		if err := detachRemovedUnits(tx, cs); err != nil {
			return err
		}
		if err := forgetRemovedTranslations(tx, cs); err != nil {
			return err
		}
		return followRenames(tx, cs)
	})
	if err != nil {
		return 0, fmt.Errorf("changelog: append changes: %w", err)
	}
	return stored, nil
}

// detachRemovedUnits clears the unit link of every record of the units
// that cs reports removed.
func detachRemovedUnits(tx *gorm.DB, cs []Change) error {
	var ids []int64
	for _, c := range cs {
		if c.Action == ActionStringRemoved && c.UnitID != 0 {
			ids = append(ids, c.UnitID)
		}
	}
	for start := 0; start < len(ids); start += batchRows {
		batch := ids[start:min(start+batchRows, len(ids))]
		if err := tx.Exec("UPDATE changes SET unit_id = 0 WHERE unit_id IN ?", batch).Error; err != nil {
			return err
		}
	}
	return nil
}

// forgetRemovedTranslations deletes the records of each translation cs
// reports removed, up to the removal, as the reference's records go with
// their translation, and keeps the removal under its component only
// (Weblate records it without a translation): no record links to a
// translation that answers 404. Delivered again, the removal finds
// nothing left to delete.
func forgetRemovedTranslations(tx *gorm.DB, cs []Change) error {
	for _, c := range cs {
		if c.Action != ActionRemoveTranslation || c.LanguageCode == "" {
			continue
		}
		err := tx.Where("project_slug = ? AND component_slug = ? AND language_code = ? AND timestamp <= ? AND event_id <> ?",
			c.ProjectSlug, c.ComponentSlug, c.LanguageCode, db.Normalize(c.Timestamp), c.EventID).Delete(&Change{}).Error
		if err != nil {
			return err
		}
		if err = tx.Model(&Change{}).Where("event_id = ?", c.EventID).Update("language_code", "").Error; err != nil {
			return err
		}
	}
	return nil
}

// Renames, as the catalog records them: the new slug in target, the
// former in old; a component's record names its project.
var (
	ActionRenameProject   = weblate.ChangeActions.RefOf(typev1.ChangeAction_CHANGE_ACTION_RENAME_PROJECT)
	ActionRenameComponent = weblate.ChangeActions.RefOf(typev1.ChangeAction_CHANGE_ACTION_RENAME_COMPONENT)
)

// followRenames files the earlier records of a renamed project or
// component under its new slug, as the reference's records follow their
// object: the log lists, filters and hides records by slug. Only records
// older than the rename move (a project that takes the former slug later
// keeps its own), so a rename delivered again changes nothing.
func followRenames(tx *gorm.DB, cs []Change) error {
	for _, c := range cs {
		if c.Old == "" || c.Target == "" || c.Old == c.Target {
			continue
		}
		var q *gorm.DB
		var col string
		switch c.Action {
		case ActionRenameProject:
			q, col = tx.Model(&Change{}).Where("project_slug = ?", c.Old), "project_slug"
		case ActionRenameComponent:
			q, col = tx.Model(&Change{}).Where("project_slug = ? AND component_slug = ?", c.ProjectSlug, c.Old), "component_slug"
		default:
			continue
		}
		rename := tx.Model(&Change{}).Select("id").Where("event_id = ?", c.EventID)
		if err := q.Where("id < (?)", rename).Update(col, c.Target).Error; err != nil {
			return err
		}
	}
	return nil
}

// insertBatch writes one multi-row INSERT; ON CONFLICT DO NOTHING makes a
// known event id a skip on both engines, and the affected-row count is the
// number of rows actually inserted.
func insertBatch(tx *gorm.DB, cs []Change) (int64, error) {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", len(columns)), ", ") + ")"
	var sql strings.Builder
	sql.WriteString("INSERT INTO changes (" + strings.Join(columns, ", ") + ") VALUES ")
	args := make([]any, 0, len(cs)*len(columns))
	for i, c := range cs {
		if i > 0 {
			sql.WriteString(", ")
		}
		sql.WriteString(row)
		args = append(args, c.EventID, c.Action, c.ProjectSlug, c.ComponentSlug, c.LanguageCode,
			c.UnitID, c.User, c.Author, c.Target, c.Old, c.DetailsJSON, db.Normalize(c.Timestamp))
	}
	sql.WriteString(" ON CONFLICT (event_id) DO NOTHING")
	res := tx.Exec(sql.String(), args...)
	return res.RowsAffected, res.Error
}
