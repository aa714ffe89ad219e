package store

import (
	"context"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// SuggestionView is a suggestion with its unit and the unit's translation.
type SuggestionView struct {
	Suggestion
	Unit        Unit
	Translation Translation
}

// lockUnit loads a unit and its translation for update.
func (s *Store) lockUnit(tx *gorm.DB, id int64) (Unit, Translation, error) {
	us, err := findUnits(s.forUpdate(tx).Where("id = ?", id))
	if err == nil && len(us) == 0 {
		err = gorm.ErrRecordNotFound
	}
	if err = notFound(err, "unit"); err != nil {
		return Unit{}, Translation{}, err
	}
	u := us[0]
	t, err := takeTranslation(tx, s.rowLock(), "id = ?", u.TranslationID)
	return u, t, notFound(err, "translation")
}

// AddSuggestion stores a suggestion for a unit, flags the unit and records
// "Suggestion added". A suggestion equal to the current target or to an
// existing suggestion is refused.
func (s *Store) AddSuggestion(ctx context.Context, unitID int64, target, user string) (SuggestionView, error) {
	var out SuggestionView
	err := s.q(ctx).Transaction(func(tx *gorm.DB) (err error) {
		out, err = s.addSuggestionTx(tx, unitID, target, user)
		return err
	})
	return out, err
}

// NewSuggestion is one suggestion of AddSuggestions.
type NewSuggestion struct {
	UnitID int64
	Target string
}

// AddSuggestions stores many suggestions in one transaction, as
// AddSuggestion stores one: all of them or, on a failure, none. One that
// AddSuggestion refuses (the unit's text, a duplicate) is skipped (added
// false).
func (s *Store) AddSuggestions(ctx context.Context, sgs []NewSuggestion, user string) (added []bool, err error) {
	err = s.AddSuggestionBatches(ctx, user, func(apply func([]NewSuggestion) ([]bool, error)) error {
		added, err = apply(sgs)
		return err
	})
	return added, err
}

// AddSuggestionBatches is AddSuggestions for suggestions that come in
// batches (an upload's): feed calls apply with each, all in ONE
// transaction, not a savepoint each.
func (s *Store) AddSuggestionBatches(ctx context.Context, user string, feed func(apply func([]NewSuggestion) ([]bool, error)) error) error {
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		return feed(func(sgs []NewSuggestion) ([]bool, error) {
			added := make([]bool, len(sgs))
			for i, sg := range sgs {
				_, aerr := s.addSuggestionTx(tx, sg.UnitID, sg.Target, user)
				switch {
				case errs.KindOf(aerr) == errs.InvalidArgument:
				case aerr != nil:
					return nil, aerr
				default:
					added[i] = true
				}
			}
			return added, nil
		})
	})
}

func (s *Store) addSuggestionTx(tx *gorm.DB, unitID int64, target, user string) (SuggestionView, error) {
	u, t, err := s.lockUnit(tx, unitID)
	if err != nil {
		return SuggestionView{}, err
	}
	if target == u.Target {
		return SuggestionView{}, errs.Invalid("target", "invalid", "The suggestion is the same as the current translation.")
	}
	var dup int64
	if err := tx.Model(&Suggestion{}).Where("unit_id = ? AND target = ?", u.ID, target).Count(&dup).Error; err != nil {
		return SuggestionView{}, err
	}
	if dup > 0 {
		return SuggestionView{}, errs.Invalid("target", "invalid", "This suggestion already exists.")
	}
	at := now()
	sg := Suggestion{UnitID: u.ID, Target: target, UserName: user, CreatedAt: at}
	if err := tx.Create(&sg).Error; err != nil {
		return SuggestionView{}, err
	}
	if err := s.refreshCounters(tx, &u, &t); err != nil {
		return SuggestionView{}, err
	}
	c := unitChange(ActionSuggestion, u, t, user, user)
	c.Target, c.Old, c.Details = target, u.Target, UnitDetails(u.State, u.State, u)
	return SuggestionView{Suggestion: sg, Unit: u, Translation: t}, record(tx, at, c)
}

// refreshCounters recomputes the unit's flags and moves the translation's
// counters accordingly.
func (s *Store) refreshCounters(tx *gorm.DB, u *Unit, t *Translation) error {
	d, err := refreshUnitFlags(tx, u)
	if err != nil {
		return err
	}
	return moveCounters(tx, t, d, nil)
}

// GetSuggestion loads a suggestion with its unit.
func (s *Store) GetSuggestion(ctx context.Context, id int64) (SuggestionView, error) {
	var sg Suggestion
	if err := notFound(s.q(ctx).Where("id = ?", id).Take(&sg).Error, "suggestion"); err != nil {
		return SuggestionView{}, err
	}
	views, err := s.suggestionViews(ctx, []Suggestion{sg})
	if err != nil {
		return SuggestionView{}, err
	}
	return views[0], nil
}

// ListSuggestions pages the suggestions of a unit (0: of all units) by id.
func (s *Store) ListSuggestions(ctx context.Context, unitID, offset, limit int64, hidden Hidden) ([]SuggestionView, int64, error) {
	q := hidden.byUnit(s.q(ctx), s.q(ctx).Model(&Suggestion{}), "unit_id")
	if unitID != 0 {
		q = q.Where("unit_id = ?", unitID)
	}
	var total int64
	if err := q.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var list []Suggestion
	q = page(q, offset, limit)
	if err := q.Find(&list).Error; err != nil {
		return nil, 0, err
	}
	views, err := s.suggestionViews(ctx, list)
	return views, total, err
}

func (s *Store) suggestionViews(ctx context.Context, list []Suggestion) ([]SuggestionView, error) {
	ids := make([]int64, len(list))
	for i, sg := range list {
		ids[i] = sg.UnitID
	}
	units, err := s.unitsByID(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]SuggestionView, len(list))
	for i, sg := range list {
		v := units[sg.UnitID]
		out[i] = SuggestionView{Suggestion: sg, Unit: v.Unit, Translation: v.Translation}
	}
	return out, nil
}

// unitsByID loads units with their translations.
func (s *Store) unitsByID(ctx context.Context, ids []int64) (map[int64]UnitView, error) {
	var list []int64
	seen := map[int64]bool{}
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			list = append(list, id)
		}
	}
	out := map[int64]UnitView{}
	if len(list) == 0 {
		return out, nil
	}
	var units []Unit
	if err := s.q(ctx).Where("id IN ?", list).Find(&units).Error; err != nil {
		return nil, err
	}
	views, err := s.attach(ctx, units)
	if err != nil {
		return nil, err
	}
	for _, v := range views {
		out[v.ID] = v
	}
	return out, nil
}

// DeleteSuggestion removes a suggestion and records "Suggestion removed"
// with the rejection reason.
func (s *Store) DeleteSuggestion(ctx context.Context, id int64, user, reason string) error {
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		var sg Suggestion
		if err := notFound(s.forUpdate(tx).Where("id = ?", id).Take(&sg).Error, "suggestion"); err != nil {
			return err
		}
		u, t, err := s.lockUnit(tx, sg.UnitID)
		if err != nil {
			return err
		}
		if err := tx.Delete(&Suggestion{}, sg.ID).Error; err != nil {
			return err
		}
		if err := s.refreshCounters(tx, &u, &t); err != nil {
			return err
		}
		c := unitChange(ActionSuggestionDelete, u, t, user, user)
		c.Target, c.Details = sg.Target, details(map[string]any{"rejection_reason": reason})
		return record(tx, now(), c)
	})
}

// AcceptSuggestion makes the suggestion the unit's translation (state
// translated, "Suggestion accepted" credited to the suggestion's author)
// and removes it; check may refuse after seeing the locked rows. The
// quality checks of the result follow rules; propagate is the edit's
// (Edit.Propagate).
func (s *Store) AcceptSuggestion(ctx context.Context, id int64, user string, rules CheckRules,
	propagate func(UnitView, string, int) (Edit, bool), check func(SuggestionView) error) (UnitView, error) {
	var out UnitView
	err := s.q(ctx).Transaction(func(tx *gorm.DB) error {
		var sg Suggestion
		if err := notFound(s.forUpdate(tx).Where("id = ?", id).Take(&sg).Error, "suggestion"); err != nil {
			return err
		}
		if err := tx.Delete(&Suggestion{}, sg.ID).Error; err != nil {
			return err
		}
		if err := s.lockCopies(tx, sg.UnitID); err != nil {
			return err
		}
		var err error
		out, err = s.editTx(tx, sg.UnitID, func(v UnitView) (Edit, error) {
			if check != nil {
				if cerr := check(SuggestionView{Suggestion: sg, Unit: v.Unit, Translation: v.Translation}); cerr != nil {
					return Edit{}, cerr
				}
			}
			c := unitChange(ActionAccept, v.Unit, v.Translation, user, sg.UserName)
			c.Target, c.Old = sg.Target, v.Target
			c.Details = UnitDetails(weblate.StateTranslated, v.State, v.Unit)
			return Edit{Target: sg.Target, State: weblate.StateTranslated, Author: sg.UserName,
				Checks: rules, Changes: []*changelogv1.Change{c}, Propagate: propagate}, nil
		}, nil)
		return err
	})
	return out, err
}

// VoteSuggestion records (or replaces) a user's vote and returns the
// suggestion with its new total.
func (s *Store) VoteSuggestion(ctx context.Context, id int64, user string, value int64) (SuggestionView, error) {
	err := s.q(ctx).Transaction(func(tx *gorm.DB) error {
		var sg Suggestion
		if err := notFound(s.forUpdate(tx).Where("id = ?", id).Take(&sg).Error, "suggestion"); err != nil {
			return err
		}
		vote := suggestionVote{SuggestionID: id, UserName: user, Value: value}
		err := tx.Clauses(clause.OnConflict{
			Columns:   []clause.Column{{Name: "suggestion_id"}, {Name: "user_name"}},
			DoUpdates: clause.AssignmentColumns([]string{"value"}),
		}).Create(&vote).Error
		if err != nil {
			return err
		}
		var total int64
		err = tx.Model(&suggestionVote{}).Select("COALESCE(SUM(value), 0)").Where("suggestion_id = ?", id).Scan(&total).Error
		if err != nil {
			return err
		}
		return tx.Model(&Suggestion{}).Where("id = ?", id).Update("votes", total).Error
	})
	if err != nil {
		return SuggestionView{}, err
	}
	return s.GetSuggestion(ctx, id)
}
