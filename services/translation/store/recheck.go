package store

import (
	"context"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// RecheckTranslation runs the checks of every unit of a translation again
// (rules: the component's, as they now are),
// in one transaction, and returns the number of units whose failing
// state changed. A dismissal survives while its check still fails;
// has_failing_check, has_dismissed_check and the translation's failing
// counters follow.
func (s *Store) RecheckTranslation(ctx context.Context, translationID int64, rules CheckRules) (int, error) {
	changed := 0
	err := s.q(ctx).Transaction(func(tx *gorm.DB) error {
		var t Translation
		if err := notFound(s.forUpdate(tx).Where("id = ?", translationID).Take(&t).Error, "translation"); err != nil {
			return err
		}
		if err := syncPropagation(tx, &t, rules); err != nil {
			return err
		}
		units, err := findUnits(tx.Where("translation_id = ?", t.ID).Order("id"))
		if err != nil {
			return err
		}
		c, err := newChecker(tx, t, true)
		if err != nil {
			return err
		}
		dismissed, err := translationDismissals(tx, t.ID)
		if err != nil {
			return err
		}
		found := c.runAll(units, nil, rules)
		rows := make(map[int64][]CheckRow)
		var d Stats
		for i := range units {
			u := &units[i]
			r := rowsOf(found[i], dismissed[u.ID])
			if len(r) > 0 {
				rows[u.ID] = r
			}
			moved, serr := setMarks(tx, u, marksOfRows(r), &d)
			if serr != nil {
				return serr
			}
			if moved {
				changed++
			}
		}
		err = tx.Exec("DELETE FROM unit_checks WHERE unit_id IN (SELECT id FROM units WHERE translation_id = ?)", t.ID).Error
		if err != nil {
			return err
		}
		if err = insertChecks(tx, rows); err != nil {
			return err
		}
		if err = moveCountersOnly(tx, t.ID, d, nil); err != nil {
			return err
		}
		return c.reconcile(nil)
	})
	return changed, err
}

// EnforcedFailures are the ids of the translated and approved units of a
// translation that fail one of the checks names, dismissed or not.
func (s *Store) EnforcedFailures(ctx context.Context, translationID int64, names []string) ([]int64, error) {
	var ids []int64
	if len(names) == 0 {
		return nil, nil
	}
	err := s.q(ctx).Raw(`SELECT DISTINCT u.id FROM units u JOIN unit_checks uc ON uc.unit_id = u.id
		WHERE u.translation_id = ? AND u.state IN ? AND uc.name IN ? ORDER BY u.id`,
		translationID, []int{weblate.StateTranslated, weblate.StateApproved}, names).Scan(&ids).Error
	return ids, err
}

// ScopeTranslations lists the translations of a scope, by id.
func (s *Store) ScopeTranslations(ctx context.Context, sc Scope) ([]Translation, error) {
	var out []Translation
	err := sc.apply(s.q(ctx).Model(&Translation{})).Order("id").Find(&out).Error
	return out, err
}

// SetExtraFlags sets the additional flags of source string id (a unit of
// its component's source translation), records "Extra flags updated" by
// actor, and runs the checks of the string's translations again (under
// rules), their counters following.
// Flags as they are change nothing.
func (s *Store) SetExtraFlags(ctx context.Context, id int64, extra, actor string, rules CheckRules) (UnitView, error) {
	var out UnitView
	err := s.q(ctx).Transaction(func(tx *gorm.DB) error {
		u, t, err := s.lockUnit(tx, id)
		if err != nil {
			return err
		}
		out = UnitView{Unit: u, Translation: t}
		if u.ExtraFlags == extra {
			return nil
		}
		if err = tx.Exec("UPDATE units SET extra_flags = ? WHERE id = ?", extra, id).Error; err != nil {
			return err
		}
		c := unitChange(typev1.ChangeAction_CHANGE_ACTION_EXTRA_FLAGS, u, t, actor, actor)
		c.Details = details(map[string]any{"old": u.ExtraFlags, "target": extra})
		if err = recordChanges(tx, now(), []*changelogv1.Change{c}); err != nil {
			return err
		}
		out.ExtraFlags = extra
		return recheckTranslations(tx, id, rules)
	})
	return out, err
}

// SetExplanation sets the explanation of source string id (what it
// means or where it is used). As in Weblate, no change is recorded, and
// a repository update keeps it (files carry none).
func (s *Store) SetExplanation(ctx context.Context, id int64, text string) (UnitView, error) {
	if err := s.q(ctx).Model(&Unit{}).Where("id = ?", id).Update("explanation", text).Error; err != nil {
		return UnitView{}, err
	}
	return s.GetUnit(ctx, id)
}

// recheckTranslations runs the checks of the translations of source unit
// id again, within tx.
func recheckTranslations(tx *gorm.DB, id int64, rules CheckRules) error {
	units, err := findUnits(tx.Where("source_unit_id = ?", id).Order("id"))
	if err != nil {
		return err
	}
	for i := range units {
		u := &units[i]
		var t Translation
		if err := tx.Where("id = ?", u.TranslationID).Take(&t).Error; err != nil {
			return err
		}
		c, err := newChecker(tx, t, false)
		if err != nil {
			return err
		}
		var d Stats
		fails := c.run(u, rules)
		if c.err != nil {
			return c.err
		}
		if err := storeChecks(tx, u, fails, &d); err != nil {
			return err
		}
		if err := moveCountersOnly(tx, t.ID, d, nil); err != nil {
			return err
		}
		if t.Propagate { // a source change moves the string between groups of copies
			if err := c.reconcile([]int64{u.IDHash}); err != nil {
				return err
			}
		}
	}
	return nil
}
