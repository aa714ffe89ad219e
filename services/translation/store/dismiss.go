package store

import (
	"context"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/changedetails"
	"github.com/tmsproject/tms/pkg/errs"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/checks"
)

// ReportedCheck is a check of a unit as a reader sees it: what fails and
// whether it was dismissed.
type ReportedCheck struct {
	Name      string
	Message   string
	Dismissed bool
}

// UnitChecks reports the checks of unit id that fail, dismissed or not,
// in Weblate's order. The stored rows say which fail; the checks run
// again (under rules) for the message of each. A stored failure the run
// no longer finds (flags changed, a recheck under way) is reported with
// the check's description.
func (s *Store) UnitChecks(ctx context.Context, id int64, rules CheckRules) (UnitView, []ReportedCheck, error) {
	var view UnitView
	var out []ReportedCheck
	err := s.q(ctx).Transaction(func(tx *gorm.DB) error {
		us, err := findUnits(tx.Where("id = ?", id))
		if err == nil && len(us) == 0 {
			err = gorm.ErrRecordNotFound
		}
		if err = notFound(err, "unit"); err != nil {
			return err
		}
		var t Translation
		if err = notFound(tx.Where("id = ?", us[0].TranslationID).Take(&t).Error, "translation"); err != nil {
			return err
		}
		view = UnitView{Unit: us[0], Translation: t}
		var rows []CheckRow
		err = tx.Raw("SELECT name, dismissed FROM unit_checks WHERE unit_id = ?", id).Scan(&rows).Error
		if err != nil || len(rows) == 0 {
			return err
		}
		c, err := newChecker(tx, t, false)
		if err != nil {
			return err
		}
		out = reportChecks(rows, c.run(&us[0], rules))
		return nil
	})
	return view, out, err
}

// reportChecks orders rows as Weblate lists checks, each with the message
// of its failure in fails.
func reportChecks(rows []CheckRow, fails []checks.Failure) []ReportedCheck {
	msg := make(map[string]string, len(fails))
	for _, f := range fails {
		msg[f.ID] = f.Message
	}
	stored := make(map[string]bool, len(rows))
	for _, r := range rows {
		stored[r.Name] = r.Dismissed
	}
	out := make([]ReportedCheck, 0, len(rows))
	for _, id := range checks.IDs() {
		dismissed, ok := stored[id]
		if !ok {
			continue
		}
		m := msg[id]
		if m == "" {
			m = checks.Description(id)
		}
		out = append(out, ReportedCheck{Name: id, Message: m, Dismissed: dismissed})
		delete(stored, id)
	}
	for name, dismissed := range stored { // a check no longer built
		out = append(out, ReportedCheck{Name: name, Message: name, Dismissed: dismissed})
	}
	return out
}

// dismissBatch is the number of units one statement of DismissChecks
// reads or writes.
const dismissBatch = 500

// DismissChecks dismisses (dismiss) or restores the failing check name
// ("" for every check) of the units ids of translation translationID, in
// one transaction, and returns the number of checks it changed. A check
// already as asked is left alone; each change is recorded ("Check
// dismissed" or "Check restored", by actor). The units' has_failing_check
// and the translation's failing counters follow: a dismissed check no
// longer counts as failing. As in Weblate, the check follows on the
// strings' copies in the project's components that take propagated
// translations (dismissCopies).
func (s *Store) DismissChecks(ctx context.Context, translationID int64, ids []int64, name string, dismiss bool, actor string) (int, error) {
	changed := 0
	err := s.q(ctx).Transaction(func(tx *gorm.DB) error {
		var t Translation
		if err := notFound(s.forUpdate(tx).Where("id = ?", translationID).Take(&t).Error, "translation"); err != nil {
			return err
		}
		var d Stats
		var done []checkOf
		for start := 0; start < len(ids); start += dismissBatch {
			n, err := dismissBatchOf(tx, t, ids[start:min(start+dismissBatch, len(ids))], name, dismiss, actor, &d)
			if err != nil {
				return err
			}
			done = append(done, n...)
		}
		if len(done) == 0 {
			return nil
		}
		if err := moveCountersOnly(tx, t.ID, d, nil); err != nil {
			return err
		}
		copied, err := dismissCopies(tx, t, done, dismiss, actor)
		changed = len(done) + copied
		return err
	})
	return changed, err
}

// checkOf is a check of a unit.
type checkOf struct {
	unit Unit
	name string
}

// dismissBatchOf is DismissChecks of some units of t; it returns the
// checks it changed.
func dismissBatchOf(tx *gorm.DB, t Translation, ids []int64, name string, dismiss bool, actor string, d *Stats) ([]checkOf, error) {
	q := tx.Table("unit_checks").Where("unit_id IN ? AND dismissed <> ?", ids, dismiss).
		Where("unit_id IN (?)", tx.Model(&Unit{}).Select("id").Where("translation_id = ?", t.ID))
	if name != "" {
		q = q.Where("name = ?", name)
	}
	var rows []struct {
		UnitID int64
		Name   string
	}
	if err := q.Select("unit_id", "name").Order("unit_id, name").Scan(&rows).Error; err != nil || len(rows) == 0 {
		return nil, err
	}
	touched := make([]int64, 0, len(rows))
	changes := make([]*changelogv1.Change, 0, len(rows))
	units, err := findUnits(tx.Where("id IN ?", ids))
	if err != nil {
		return nil, err
	}
	byID := make(map[int64]Unit, len(units))
	for _, u := range units {
		byID[u.ID] = u
	}
	action := typev1.ChangeAction_CHANGE_ACTION_CHECK_RESTORED
	if dismiss {
		action = typev1.ChangeAction_CHANGE_ACTION_CHECK_DISMISSED
	}
	done := make([]checkOf, 0, len(rows))
	for _, r := range rows {
		err := tx.Exec("UPDATE unit_checks SET dismissed = ? WHERE unit_id = ? AND name = ?", dismiss, r.UnitID, r.Name).Error
		if err != nil {
			return nil, err
		}
		done = append(done, checkOf{byID[r.UnitID], r.Name})
		if len(touched) == 0 || touched[len(touched)-1] != r.UnitID {
			touched = append(touched, r.UnitID)
		}
		c := unitChange(action, byID[r.UnitID], t, actor, actor)
		c.Details = changedetails.FromMap(map[string]any{"check": r.Name})
		changes = append(changes, c)
	}
	for _, id := range touched {
		u := byID[id]
		if err := refreshCheckMarks(tx, &u, d); err != nil {
			return nil, err
		}
	}
	return done, recordChanges(tx, now(), changes)
}

// refreshCheckMarks sets u's has_failing_check and has_dismissed_check
// from its rows, adding the move of the failing counters to d.
func refreshCheckMarks(tx *gorm.DB, u *Unit, d *Stats) error {
	var rows []CheckRow
	if err := tx.Raw("SELECT name, dismissed FROM unit_checks WHERE unit_id = ?", u.ID).Scan(&rows).Error; err != nil {
		return err
	}
	_, err := setMarks(tx, u, marksOfRows(rows), d)
	return err
}

// HasCheck reports whether unit id has a row of check name (failing,
// dismissed or not): dismissing a check that does not fail is NotFound.
func (s *Store) HasCheck(ctx context.Context, id int64, name string) error {
	var n int64
	err := s.q(ctx).Table("unit_checks").Where("unit_id = ? AND name = ?", id, name).Count(&n).Error
	if err == nil && n == 0 {
		return errs.NotFoundf("The string has no failing check %s.", name)
	}
	return err
}

// CheckCount is the number of units of a scope failing one check.
type CheckCount struct {
	Name string
	// Failing counts units where the check fails, not dismissed;
	// Dismissed those where it was dismissed.
	Failing, Dismissed int64
}

// CheckSummary counts, per check, the units of the translations ids that
// fail it and those where it was dismissed, in Weblate's order of checks.
func (s *Store) CheckSummary(ctx context.Context, translationIDs []int64) ([]CheckCount, error) {
	if len(translationIDs) == 0 {
		return nil, nil
	}
	var rows []struct {
		Name      string
		Dismissed bool
		N         int64
	}
	err := s.q(ctx).Table("unit_checks").Select("unit_checks.name, unit_checks.dismissed, COUNT(*) AS n").
		Joins("JOIN units ON units.id = unit_checks.unit_id").Where("units.translation_id IN ?", translationIDs).
		Group("unit_checks.name, unit_checks.dismissed").Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	by := map[string]*CheckCount{}
	for _, r := range rows {
		c := by[r.Name]
		if c == nil {
			c = &CheckCount{Name: r.Name}
			by[r.Name] = c
		}
		if r.Dismissed {
			c.Dismissed += r.N
		} else {
			c.Failing += r.N
		}
	}
	out := make([]CheckCount, 0, len(by))
	for _, id := range checks.IDs() {
		if c := by[id]; c != nil {
			out = append(out, *c)
			delete(by, id)
		}
	}
	for _, c := range by {
		out = append(out, *c)
	}
	return out, nil
}
