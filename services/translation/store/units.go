package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/tmsproject/tms/pkg/changefeed"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	"google.golang.org/protobuf/types/known/timestamppb"
	"gorm.io/gorm"
)

// UnitView is a unit with the translation it belongs to.
type UnitView struct {
	Unit
	Translation Translation
}

// ListUnits pages units by id: of one translation, or of all when
// translationID is 0. The total comes from the maintained counters.
func (s *Store) ListUnits(ctx context.Context, translationID, offset, limit int64, hidden Hidden) ([]UnitView, int64, error) {
	q := hidden.byTranslation(s.q(ctx), s.q(ctx).Model(&Unit{}), "translation_id")
	if translationID == 0 {
		var total int64
		if err := hidden.translations(s.q(ctx).Model(&Translation{})).Select("COALESCE(SUM(total), 0)").Scan(&total).Error; err != nil {
			return nil, 0, err
		}
		units, err := s.pageUnits(ctx, q, offset, limit)
		if err != nil {
			return nil, 0, err
		}
		views, err := s.attach(ctx, units)
		return views, total, err
	}
	t, err := s.GetTranslationByID(ctx, translationID)
	if err != nil {
		return nil, 0, err
	}
	units, err := s.pageUnits(ctx, q.Where("translation_id = ?", translationID), offset, limit)
	if err != nil {
		return nil, 0, err
	}
	views := make([]UnitView, len(units)) // all of t: no second lookup
	for i, u := range units {
		views[i] = UnitView{Unit: u, Translation: t}
	}
	return views, t.Total, nil
}

// directPageOffset is the offset below which a page is read in one
// statement: the rows passed on the way cost less than a second one.
const directPageOffset = 1000

// pageUnits reads one page of the units q selects, ordered by id. A deep
// page takes two steps: the ids of the page first (the offset is skipped
// in an index, without reading the rows it passes), then the rows of those
// ids only.
func (s *Store) pageUnits(ctx context.Context, q *gorm.DB, offset, limit int64) ([]Unit, error) {
	var units []Unit
	if limit <= 0 || offset < directPageOffset { // one pass
		err := page(q, "id", offset, limit).Find(&units).Error
		return units, err
	}
	var ids []int64
	if err := page(q.Select("id"), "id", offset, limit).Pluck("id", &ids).Error; err != nil {
		return nil, err
	}
	if len(ids) == 0 {
		return units, nil
	}
	err := s.q(ctx).Where("id IN ?", ids).Order("id").Find(&units).Error
	return units, err
}

// attach loads the translations of units.
func (s *Store) attach(ctx context.Context, units []Unit) ([]UnitView, error) {
	seen := map[int64]bool{}
	var ids []int64
	for _, u := range units {
		if !seen[u.TranslationID] {
			seen[u.TranslationID] = true
			ids = append(ids, u.TranslationID)
		}
	}
	ts := map[int64]Translation{}
	if len(ids) > 0 {
		var err error
		if ts, err = s.translationsByID(ctx, ids); err != nil {
			return nil, err
		}
	}
	out := make([]UnitView, len(units))
	for i, u := range units {
		out[i] = UnitView{Unit: u, Translation: ts[u.TranslationID]}
	}
	return out, nil
}

// GetUnit loads one unit with its translation.
func (s *Store) GetUnit(ctx context.Context, id int64) (UnitView, error) {
	return s.unitWhere(ctx, "id = ?", id)
}

// UnitByHash loads the unit of a translation with the given id_hash.
func (s *Store) UnitByHash(ctx context.Context, translationID, idHash int64) (UnitView, error) {
	return s.unitWhere(ctx, "translation_id = ? AND id_hash = ?", translationID, idHash)
}

// UnitScope is where a unit lives and its state: what an edit's
// permission checks need before its transaction.
type UnitScope struct {
	ComponentID  int64
	LanguageCode string
	State        int
}

// GetUnitScope reads a unit's scope in one small statement (an edit reads
// the whole unit again under lock).
func (s *Store) GetUnitScope(ctx context.Context, id int64) (UnitScope, error) {
	var out []UnitScope
	err := s.q(ctx).Raw(`SELECT t.component_id, t.language_code, u.state FROM units u
		JOIN translations t ON t.id = u.translation_id WHERE u.id = ?`, id).Scan(&out).Error
	if err != nil {
		return UnitScope{}, err
	}
	if len(out) == 0 {
		return UnitScope{}, notFound(gorm.ErrRecordNotFound, "unit")
	}
	return out[0], nil
}

func (s *Store) unitWhere(ctx context.Context, where string, args ...any) (UnitView, error) {
	var u Unit
	if err := notFound(s.q(ctx).Where(where, args...).Take(&u).Error, "unit"); err != nil {
		return UnitView{}, err
	}
	views, err := s.attach(ctx, []Unit{u})
	if err != nil {
		return UnitView{}, err
	}
	return views[0], nil
}

// Edit is what a unit edit changes, decided by the caller from the locked
// current row.
type Edit struct {
	Target  string
	State   int
	Author  string
	Changes []*changelogv1.Change
}

// EditUnit changes a unit's target and state. decide sees the current unit
// and translation under lock (FOR UPDATE on PostgreSQL; SQLite has one
// writer) and either refuses or returns the edit. The unit becomes pending,
// the translation counters move by the difference of the unit's buckets,
// last_change/last_author are set and the changes are recorded, all in one
// transaction. When the edit completes the translation (every unit
// translated), a "Translation completed" record follows.
func (s *Store) EditUnit(ctx context.Context, id int64, decide func(UnitView) (Edit, error)) (UnitView, error) {
	var out UnitView
	err := s.q(ctx).Transaction(func(tx *gorm.DB) error {
		var err error
		out, err = s.editTx(tx, id, decide)
		return err
	})
	return out, err
}

// ErrSkipEdit, returned by a decide function of EditUnits, leaves that
// unit alone without failing the others.
var ErrSkipEdit = errors.New("skip this edit")

// EditUnits applies the edits of ids in ONE transaction, as an upload does:
// all of them or none, and one commit instead of one per unit. decide gets
// the index of the id; edited[i] tells whether unit i was changed.
func (s *Store) EditUnits(ctx context.Context, ids []int64, decide func(i int, u UnitView) (Edit, error)) (edited []bool, err error) {
	edited = make([]bool, len(ids))
	err = s.q(ctx).Transaction(func(tx *gorm.DB) error {
		for i, id := range ids {
			_, err := s.editTx(tx, id, func(u UnitView) (Edit, error) { return decide(i, u) })
			switch {
			case errors.Is(err, ErrSkipEdit):
			case err != nil:
				return err
			default:
				edited[i] = true
			}
		}
		return nil
	})
	return edited, err
}

// editTx is EditUnit within tx. After the edit, suggestions equal to the
// new target are cleaned up (action 29) and the unit's has_suggestion and
// the translation's counters follow.
func (s *Store) editTx(tx *gorm.DB, id int64, decide func(UnitView) (Edit, error)) (UnitView, error) {
	u, t, err := s.lockUnit(tx, id)
	if err != nil {
		return UnitView{}, err
	}
	e, err := decide(UnitView{Unit: u, Translation: t})
	if err != nil {
		return UnitView{}, err
	}
	at := now()
	var delta Stats
	delta.Count(u.State, u.NumWords, u.NumChars, -1)
	delta.Count(e.State, u.NumWords, u.NumChars, 1)
	wasComplete := t.Translated == t.Total
	u.Target, u.State, u.Pending, u.PendingAuthor, u.LastUpdated = e.Target, e.State, true, e.Author, at
	err = tx.Model(&Unit{}).Where("id = ?", u.ID).
		Select("target", "state", "pending", "pending_author", "last_updated").Updates(&u).Error
	if err != nil {
		return UnitView{}, err
	}
	changes := e.Changes
	if u.HasSuggestion { // an edit changes suggestions only by this cleanup, comments never
		if u.State >= StateTranslated {
			cleanup, err := cleanupSuggestions(tx, u, t)
			if err != nil {
				return UnitView{}, err
			}
			changes = append(changes, cleanup...)
		}
		flags, err := refreshUnitFlags(tx, &u)
		if err != nil {
			return UnitView{}, err
		}
		delta.Suggestions, delta.Comments = flags.Suggestions, flags.Comments
		if err := applyDelta(tx, &t, delta, at, e.Author); err != nil {
			return UnitView{}, err
		}
	} else if err := applyLockedDelta(tx, &t, delta, at, e.Author); err != nil {
		return UnitView{}, err
	}
	if err := noteContentChange(tx, t.ID, at); err != nil {
		return UnitView{}, err
	}
	if err := setNeedsCommit(tx, t.ComponentID); err != nil {
		return UnitView{}, err
	}
	if !wasComplete && t.Translated == t.Total && len(e.Changes) > 0 {
		changes = append(changes, completed(e.Changes[0]))
	}
	if err := record(tx, at, changes...); err != nil {
		return UnitView{}, err
	}
	return UnitView{Unit: u, Translation: t}, nil
}

// record writes change records, stamping those without a timestamp.
func record(tx *gorm.DB, at time.Time, changes ...*changelogv1.Change) error {
	for _, c := range changes {
		if c.Timestamp == nil {
			c.Timestamp = timestamp(at)
		}
		if err := changefeed.Record(tx, c); err != nil {
			return err
		}
	}
	return nil
}

// completed is the "Translation completed" record following an edit.
func completed(edit *changelogv1.Change) *changelogv1.Change {
	return &changelogv1.Change{
		Action: actionCompleted, ProjectSlug: edit.ProjectSlug, ComponentSlug: edit.ComponentSlug,
		LanguageCode: edit.LanguageCode, User: edit.User, Author: edit.Author, Timestamp: edit.Timestamp,
	}
}

// applyDelta moves the counters of t by delta in SQL (so concurrent edits
// of other units add up), sets the last change, and mirrors the result in t.
func applyDelta(tx *gorm.DB, t *Translation, d Stats, at time.Time, author string) error {
	return moveCounters(tx, t, d, map[string]any{"last_change": at, "last_author": author})
}

// applyLockedDelta is applyDelta for a t read in this transaction under
// lock, nothing having moved its counters since: t follows in memory
// instead of being read again.
func applyLockedDelta(tx *gorm.DB, t *Translation, d Stats, at time.Time, author string) error {
	if err := moveCountersOnly(tx, t.ID, d, map[string]any{"last_change": at, "last_author": author}); err != nil {
		return err
	}
	t.Stats.add(d)
	t.LastChange, t.LastAuthor = &at, author
	return nil
}

// moveCounters adds d to the counters of t together with the other
// updates, then reloads t.
func moveCounters(tx *gorm.DB, t *Translation, d Stats, updates map[string]any) error {
	if err := moveCountersOnly(tx, t.ID, d, updates); err != nil {
		return err
	}
	return tx.Where("id = ?", t.ID).Take(t).Error
}

// moveCountersOnly adds d to the counters of translation id together with
// the other updates.
func moveCountersOnly(tx *gorm.DB, id int64, d Stats, updates map[string]any) error {
	cols := statColumns()
	vals := d.values()
	if updates == nil {
		updates = map[string]any{}
	}
	for i, c := range cols {
		if vals[i] != 0 {
			updates[c] = gorm.Expr(c+" + ?", vals[i])
		}
	}
	if len(updates) == 0 {
		return nil
	}
	if err := tx.Model(&Translation{}).Where("id = ?", id).Updates(updates).Error; err != nil {
		return fmt.Errorf("update counters: %w", err)
	}
	return nil
}

// noteContentChange remembers a content change for recent_changes and
// forgets those too old to count for any scope containing the translation.
func noteContentChange(tx *gorm.DB, translationID int64, at time.Time) error {
	if err := tx.Create(&contentChange{TranslationID: translationID, At: at}).Error; err != nil {
		return err
	}
	return tx.Where("translation_id = ? AND at < ?", translationID, at.Add(-recentWindow)).Delete(&contentChange{}).Error
}

func timestamp(t time.Time) *timestamppb.Timestamp { return timestamppb.New(t) }
