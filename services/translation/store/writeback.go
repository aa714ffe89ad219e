package store

import (
	"context"
	"strings"
	"time"

	"gorm.io/gorm"

	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// Removal is a string deleted through the API whose file entry the next
// commit drops (table unit_removals).
type Removal struct {
	ID            int64 `gorm:"primaryKey"`
	TranslationID int64
	Context       string
	Source        string
	// Author removed the string; a commit credits it.
	Author    string
	CreatedAt time.Time
}

// TableName is the unit_removals table.
func (Removal) TableName() string { return "unit_removals" }

// Pending is the uncommitted work of one translation.
type Pending struct {
	Translation Translation
	Units       []Unit
	Removals    []Removal
}

// PendingWork lists the translations of a component with pending units or
// removals, and the moment of reading: FinishCommit clears only what was
// edited before it, so an edit made during the commit stays pending.
func (s *Store) PendingWork(ctx context.Context, componentID int64) ([]Pending, error) {
	var ts []Translation
	if err := s.q(ctx).Where("component_id = ?", componentID).Order("id").Find(&ts).Error; err != nil {
		return nil, err
	}
	// Two queries for the component rather than two per translation.
	var units []Unit
	err := s.q(ctx).Where("pending = ? AND translation_id IN (?)", true, componentTranslations(s.q(ctx), componentID)).
		Order("position, id").Find(&units).Error
	if err != nil {
		return nil, err
	}
	var removals []Removal
	err = s.q(ctx).Where("translation_id IN (?)", componentTranslations(s.q(ctx), componentID)).Order("id").Find(&removals).Error
	if err != nil {
		return nil, err
	}
	byT := make(map[int64]*Pending, len(ts))
	for _, t := range ts {
		byT[t.ID] = &Pending{Translation: t}
	}
	for _, u := range units {
		if p := byT[u.TranslationID]; p != nil {
			p.Units = append(p.Units, u)
		}
	}
	for _, r := range removals {
		if p := byT[r.TranslationID]; p != nil {
			p.Removals = append(p.Removals, r)
		}
	}
	var out []Pending
	for _, t := range ts {
		if p := byT[t.ID]; len(p.Units)+len(p.Removals) > 0 {
			out = append(out, *p)
		}
	}
	return out, nil
}

// scopeTranslations selects the ids of the translations of components,
// limited to one language when code is set.
func (s *Store) scopeTranslations(ctx context.Context, componentIDs []int64, code string) *gorm.DB {
	q := s.q(ctx).Model(&Translation{}).Select("id").Where("component_id IN ?", componentIDs)
	if code != "" {
		q = q.Where("language_code = ?", code)
	}
	return q
}

// NeedsCommit reports pending units or removals in the scope.
func (s *Store) NeedsCommit(ctx context.Context, componentIDs []int64, code string) (bool, error) {
	if len(componentIDs) == 0 {
		return false, nil
	}
	var n int64
	sub := s.scopeTranslations(ctx, componentIDs, code)
	if err := s.q(ctx).Model(&Unit{}).Where("pending = ? AND translation_id IN (?)", true, sub).Limit(1).Count(&n).Error; err != nil {
		return false, err
	}
	if n > 0 {
		return true, nil
	}
	err := s.q(ctx).Model(&Removal{}).Where("translation_id IN (?)", s.scopeTranslations(ctx, componentIDs, code)).Limit(1).Count(&n).Error
	return n > 0, err
}

// PendingSince returns, per component with uncommitted work, the time of
// its oldest pending edit or removal.
func (s *Store) PendingSince(ctx context.Context) (map[int64]time.Time, error) {
	type row struct {
		ComponentID int64
		Oldest      time.Time
	}
	out := map[int64]time.Time{}
	add := func(rows []row) {
		for _, r := range rows {
			if o, ok := out[r.ComponentID]; !ok || r.Oldest.Before(o) {
				out[r.ComponentID] = r.Oldest
			}
		}
	}
	// MIN over a timestamp comes back as text on SQLite: read the rows
	// instead and fold them here.
	var units []row
	err := s.q(ctx).Table("units").Select("translations.component_id, units.last_updated AS oldest").
		Joins("JOIN translations ON translations.id = units.translation_id").
		Where("units.pending = ?", true).Scan(&units).Error
	if err != nil {
		return nil, err
	}
	add(units)
	var removals []row
	err = s.q(ctx).Table("unit_removals").Select("translations.component_id, unit_removals.created_at AS oldest").
		Joins("JOIN translations ON translations.id = unit_removals.translation_id").Scan(&removals).Error
	if err != nil {
		return nil, err
	}
	add(removals)
	return out, nil
}

// Committed is what a commit wrote for one translation.
type Committed struct {
	TranslationID int64
	UnitIDs       []int64
	// UnitVersions are the units' last_updated as read, one per UnitIDs:
	// a unit edited since keeps its pending flag.
	UnitVersions []time.Time
	RemovalIDs   []int64
	// Revision is the blob hash of the written file; empty keeps it.
	Revision string
}

// Committed is what committing p covers: its units as read and its
// removals (Revision is the caller's to set).
func (p Pending) Committed() Committed {
	c := Committed{TranslationID: p.Translation.ID}
	for _, u := range p.Units {
		c.UnitIDs = append(c.UnitIDs, u.ID)
		c.UnitVersions = append(c.UnitVersions, u.LastUpdated)
	}
	for _, r := range p.Removals {
		c.RemovalIDs = append(c.RemovalIDs, r.ID)
	}
	return c
}

// FinishCommit clears the pending flags of the committed units (those not
// edited again since they were read), drops the applied removals, stores
// the new file revisions, records the changes and updates needs_commit, in
// one transaction.
//
// A unit is matched by its last_updated as read, not by a time: an edit
// stamps last_updated before its transaction commits, so one that commits
// while the commit reads may carry an earlier stamp than the read and yet
// not have been read. Its value was not written to the file, and it stays
// pending.
func (s *Store) FinishCommit(ctx context.Context, componentID int64, done []Committed, changes []*changelogv1.Change) error {
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		for _, d := range done {
			if err := clearCommitted(tx, d); err != nil {
				return err
			}
			if len(d.RemovalIDs) > 0 {
				if err := tx.Where("id IN ?", d.RemovalIDs).Delete(&Removal{}).Error; err != nil {
					return err
				}
			}
			if d.Revision != "" {
				if err := tx.Model(&Translation{}).Where("id = ?", d.TranslationID).Update("revision", d.Revision).Error; err != nil {
					return err
				}
			}
		}
		if err := record(tx, now(), changes...); err != nil {
			return err
		}
		return syncNeedsCommit(tx, componentID)
	})
}

// clearCommitted clears the pending flags of d's units still as read, in
// batches of (id, last_updated) pairs.
func clearCommitted(tx *gorm.DB, d Committed) error {
	const pairs = 200
	for start := 0; start < len(d.UnitIDs); start += pairs {
		end := min(start+pairs, len(d.UnitIDs))
		var cond strings.Builder
		args := make([]any, 0, 2*(end-start))
		for i := start; i < end; i++ {
			if i > start {
				cond.WriteString(" OR ")
			}
			cond.WriteString("(id = ? AND last_updated = ?)")
			args = append(args, d.UnitIDs[i], d.UnitVersions[i])
		}
		if err := tx.Model(&Unit{}).Where(cond.String(), args...).Updates(notPending()).Error; err != nil {
			return err
		}
	}
	return nil
}

// notPending are the column values of a unit with nothing to commit.
func notPending() map[string]any { return map[string]any{"pending": false, "pending_author": ""} }

// syncNeedsCommit sets repositories.needs_commit from the pending rows.
func syncNeedsCommit(tx *gorm.DB, componentID int64) error {
	var n, m int64
	err := tx.Model(&Unit{}).Where("pending = ? AND translation_id IN (?)", true, componentTranslations(tx, componentID)).Count(&n).Error
	if err != nil {
		return err
	}
	if err := tx.Model(&Removal{}).Where("translation_id IN (?)", componentTranslations(tx, componentID)).Count(&m).Error; err != nil {
		return err
	}
	return tx.Model(&Repository{}).Where("component_id = ?", componentID).Update("needs_commit", n+m > 0).Error
}

// DiscardPending forgets the uncommitted work of a component (a reset
// to the remote): units stop being pending, so the re-import overwrites
// them, and queued removals are dropped.
func (s *Store) DiscardPending(ctx context.Context, componentID int64) error {
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Model(&Unit{}).Where("pending = ? AND translation_id IN (?)", true, componentTranslations(tx, componentID)).
			Updates(notPending()).Error
		if err != nil {
			return err
		}
		if err := tx.Where("translation_id IN (?)", componentTranslations(tx, componentID)).Delete(&Removal{}).Error; err != nil {
			return err
		}
		return syncNeedsCommit(tx, componentID)
	})
}

// RecordChanges writes change records in one transaction.
func (s *Store) RecordChanges(ctx context.Context, changes ...*changelogv1.Change) error {
	if len(changes) == 0 {
		return nil
	}
	return s.q(ctx).Transaction(func(tx *gorm.DB) error { return record(tx, now(), changes...) })
}

// SetMergeFailure stores (or, with "", clears) the merge failure of a
// component's working copy, together with the change records.
func (s *Store) SetMergeFailure(ctx context.Context, componentID int64, failure string, changes ...*changelogv1.Change) error {
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		err := tx.Model(&Repository{}).Where("component_id = ?", componentID).Update("merge_failure", failure).Error
		if err != nil {
			return err
		}
		if failure == "" { // a merge succeeded: its alert ends
			if err := tx.Where("component_id = ? AND name = ?", componentID, "MergeFailure").Delete(&Alert{}).Error; err != nil {
				return err
			}
		}
		return record(tx, now(), changes...)
	})
}

// MergeFailure returns the first stored merge failure among components.
func (s *Store) MergeFailure(ctx context.Context, componentIDs []int64) (string, error) {
	var failures []string
	err := s.q(ctx).Model(&Repository{}).Where("component_id IN ? AND merge_failure <> ''", componentIDs).
		Order("component_id").Pluck("merge_failure", &failures).Error
	if err != nil || len(failures) == 0 {
		return "", err
	}
	return failures[0], nil
}
