package store

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// NewString is a string added through the API to a bilingual component.
type NewString struct {
	ComponentID int64
	// TranslationID is the translation the request named; it gets Target
	// and State, the source translation gets the source (read-only), every
	// other translation an empty target.
	TranslationID int64
	Context       string
	Source        []string
	Target        []string
	State         int
	IDHash        int64
	ContentHash   int64
	NumWords      int64
	NumChars      int64
	User          string
}

var errDuplicateString = errs.Invalid("non_field_errors", "invalid", "This string seems to already exist.")

// CreateUnit adds a string to every translation of a component in one
// transaction: units pending (the committer writes them to the files), one
// "String added" record per unit, counters and last change of every
// translation, and the working copy flagged for commit. A translation that
// already has the string keeps it; the requested one having it is a
// duplicate. The new strings of the translations are checked under rules
// (the component's), and their copies in other components follow.
func (s *Store) CreateUnit(ctx context.Context, ns NewString, rules CheckRules) (UnitView, error) {
	var out UnitView
	err := s.q(ctx).Transaction(func(tx *gorm.DB) error {
		b, err := s.newStringBatch(tx, ns.ComponentID, rules)
		if err != nil {
			return err
		}
		if out, err = b.add(tx, ns); err != nil {
			return err
		}
		return setNeedsCommit(tx, ns.ComponentID)
	})
	if db.IsDuplicate(err) {
		return UnitView{}, errDuplicateString
	}
	return out, err
}

// CreateUnits adds strings to every translation of a component in one
// transaction, as CreateUnit adds one: all of them or, on an error, none.
// A string the requested translation already has is not added (created
// false), as an upload with method=add skips it.
func (s *Store) CreateUnits(ctx context.Context, componentID int64, rules CheckRules, strs []NewString) (created []bool, err error) {
	err = s.CreateUnitBatches(ctx, componentID, rules, func(apply func([]NewString) ([]bool, error)) error {
		created, err = apply(strs)
		return err
	})
	return created, err
}

// CreateUnitBatches is CreateUnits for strings that come in batches (an
// upload's): feed calls apply with each, all in ONE transaction, not a
// savepoint each (SQLite journals a savepoint's writes twice).
func (s *Store) CreateUnitBatches(ctx context.Context, componentID int64, rules CheckRules, feed func(apply func([]NewString) ([]bool, error)) error) error {
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		b, berr := s.newStringBatch(tx, componentID, rules)
		if berr != nil {
			return berr
		}
		added := false
		err := feed(func(strs []NewString) ([]bool, error) {
			created := make([]bool, len(strs))
			for i, ns := range strs {
				_, addErr := b.add(tx, ns)
				switch {
				case errors.Is(addErr, errDuplicateString):
				case addErr != nil:
					return nil, addErr
				default:
					created[i], added = true, true
				}
			}
			return created, nil
		})
		if err != nil || !added {
			return err
		}
		return setNeedsCommit(tx, componentID)
	})
}

// stringBatch adds strings to the translations of a component, locked for
// the transaction, keeping each translation's last position in memory.
type stringBatch struct {
	s    *Store
	ts   []Translation
	last map[int64]int64 // translation id → last position
	// rules are the component's checks', checkers each translation's.
	rules    CheckRules
	checkers map[int64]*checker
}

func (s *Store) newStringBatch(tx *gorm.DB, componentID int64, rules CheckRules) (*stringBatch, error) {
	b := &stringBatch{s: s, last: map[int64]int64{}, rules: rules, checkers: map[int64]*checker{}}
	err := s.forUpdate(tx).Where("component_id = ?", componentID).Order("is_source DESC, id").Find(&b.ts).Error
	if err != nil {
		return nil, err
	}
	for _, t := range b.ts {
		var last int64
		if err := tx.Model(&Unit{}).Select("COALESCE(MAX(position), 0)").Where("translation_id = ?", t.ID).Scan(&last).Error; err != nil {
			return nil, err
		}
		b.last[t.ID] = last
	}
	return b, nil
}

// add inserts one string into every translation that lacks it and
// returns the requested translation's unit; errDuplicateString when that
// translation has it already.
func (b *stringBatch) add(tx *gorm.DB, ns NewString) (UnitView, error) {
	// The id_hash is the hash of context and source: the unique index
	// answers at once where comparing texts would read every unit.
	var dup int64
	err := tx.Model(&Unit{}).Where("translation_id = ? AND id_hash = ?", ns.TranslationID, ns.IDHash).Count(&dup).Error
	if err != nil {
		return UnitView{}, err
	}
	if dup > 0 {
		return UnitView{}, errDuplicateString
	}
	at := now()
	var sourceID *int64
	var out UnitView
	for i := range b.ts {
		u, err := b.addStringTo(tx, &b.ts[i], ns, sourceID, at)
		if err != nil {
			return UnitView{}, err
		}
		if b.ts[i].IsSource {
			id := u.ID
			sourceID = &id
		}
		if b.ts[i].ID == ns.TranslationID {
			out = UnitView{Unit: u, Translation: b.ts[i]}
		}
	}
	if out.ID == 0 {
		return UnitView{}, errs.NotFoundf("Not found.")
	}
	return out, nil
}

// addStringTo inserts the new string into one translation unless it has it.
func (b *stringBatch) addStringTo(tx *gorm.DB, t *Translation, ns NewString, sourceID *int64, at time.Time) (Unit, error) {
	var existing Unit
	err := tx.Where("translation_id = ? AND id_hash = ?", t.ID, ns.IDHash).Take(&existing).Error
	if err == nil {
		return existing, nil
	}
	if !errors.Is(err, gorm.ErrRecordNotFound) {
		return Unit{}, err
	}
	b.last[t.ID]++
	u := Unit{TranslationID: t.ID, Source: Join(ns.Source), Context: ns.Context, IDHash: ns.IDHash,
		ContentHash: ns.ContentHash, Position: b.last[t.ID], NumWords: ns.NumWords, NumChars: ns.NumChars,
		Priority: 100, Pending: true, PendingAuthor: ns.User, Timestamp: at, LastUpdated: at}
	switch {
	case t.IsSource && t.IsTemplate: // a monolingual source string: editable
		u.Target, u.State = u.Source, weblate.StateTranslated
	case t.IsSource:
		u.Target, u.State = u.Source, weblate.StateReadOnly
	case t.ID == ns.TranslationID:
		u.Target, u.State, u.SourceUnitID = Join(ns.Target), ns.State, sourceID
	default:
		forms := 1
		if len(ns.Source) > 1 {
			forms = max(t.PluralNumber, 1)
		}
		u.Target, u.State, u.SourceUnitID = Join(make([]string, forms)), weblate.StateEmpty, sourceID
	}
	if err := tx.Create(&u).Error; err != nil {
		return Unit{}, err
	}
	var delta Stats
	delta.Count(u.State, u.NumWords, u.NumChars, 1)
	if err := b.check(tx, *t, &u, &delta); err != nil {
		return Unit{}, err
	}
	if err := applyDelta(tx, t, delta, at, ns.User); err != nil {
		return Unit{}, err
	}
	if err := noteContentChange(tx, t.ID, at); err != nil {
		return Unit{}, err
	}
	c := unitChange(ActionNewUnit, u, *t, ns.User, ns.User)
	c.Target, c.Details = u.Target, UnitDetails(u.State, -1, u)
	return u, record(tx, at, c)
}

// check runs the checks of u, new in t, adding the move of t's failing
// counters to d; its copies in other components follow.
func (b *stringBatch) check(tx *gorm.DB, t Translation, u *Unit, d *Stats) error {
	if t.IsSource {
		return nil
	}
	c := b.checkers[t.ID]
	if c == nil {
		var err error
		if c, err = newChecker(tx, t, false); err != nil {
			return err
		}
		b.checkers[t.ID] = c
	}
	fails := c.run(u, b.rules)
	if c.err != nil {
		return c.err
	}
	if err := storeChecks(tx, u, fails, d); err != nil || !t.Propagate {
		return err
	}
	return c.reconcile([]int64{u.IDHash})
}

// DeleteUnit removes a string (by id_hash) from every translation of the
// unit's component: counters follow, later positions close the gap, each
// translation records "String removed" (after a cleanup record for each
// suggestion that goes with the string) and queues the file entry's removal
// in unit_removals for the committer.
func (s *Store) DeleteUnit(ctx context.Context, id int64, user string) error {
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		u, t, err := s.lockUnit(tx, id)
		if err != nil {
			return err
		}
		var units []Unit
		err = s.forUpdate(tx).Where("translation_id IN (?) AND id_hash = ?", componentTranslations(tx, t.ComponentID), u.IDHash).
			Find(&units).Error
		if err != nil {
			return err
		}
		at := now()
		for _, x := range units {
			if err := s.removeString(tx, x, user, at); err != nil {
				return err
			}
		}
		return setNeedsCommit(tx, t.ComponentID)
	})
}

func (s *Store) removeString(tx *gorm.DB, u Unit, user string, at time.Time) error {
	var t Translation
	if err := s.forUpdate(tx).Where("id = ?", u.TranslationID).Take(&t).Error; err != nil {
		return err
	}
	// The suggestions go with the string, each with a cleanup record
	// without a unit, as those of a string a repository update removes.
	var suggestions []Suggestion
	if err := tx.Where("unit_id = ?", u.ID).Order("id").Find(&suggestions).Error; err != nil {
		return err
	}
	cleanup, err := dropSuggestions(tx, suggestions, t, nil)
	if err != nil {
		return err
	}
	if err = tx.Delete(&Unit{}, u.ID).Error; err != nil {
		return err
	}
	err = tx.Model(&Unit{}).Where("translation_id = ? AND position > ?", t.ID, u.Position).
		Update("position", gorm.Expr("position - 1")).Error
	if err != nil {
		return err
	}
	var delta Stats
	delta.Count(u.State, u.NumWords, u.NumChars, -1)
	delta.Suggestions, delta.Comments = flagMove(u.HasSuggestion, false), flagMove(u.HasComment, false)
	failingMove(&delta, &u, false)
	if err := applyDelta(tx, &t, delta, at, user); err != nil {
		return err
	}
	if err := forgetCopy(tx, t, u); err != nil {
		return err
	}
	rm := Removal{TranslationID: t.ID, Context: u.Context, Source: u.Source, Author: user, CreatedAt: at}
	if err := tx.Create(&rm).Error; err != nil {
		return err
	}
	// The unit id lets the changelog detach the removed unit from its
	// records; the stored record itself ends up without a unit.
	c := &changelogv1.Change{Action: ActionStringRemove, ProjectSlug: t.ProjectSlug, UnitId: u.ID,
		ComponentSlug: t.ComponentSlug, LanguageCode: t.LanguageCode, User: user, Author: user,
		Target: u.Target, Details: details(map[string]any{"source": u.Source, "target": u.Target})}
	return record(tx, at, append(cleanup, c)...)
}

// UnitTranslations returns the other units of a unit's string (sharing its
// source unit), by id.
func (s *Store) UnitTranslations(ctx context.Context, id int64) ([]UnitView, error) {
	var u Unit
	if err := notFound(s.q(ctx).Where("id = ?", id).Take(&u).Error, "unit"); err != nil {
		return nil, err
	}
	src := u.ID
	if u.SourceUnitID != nil {
		src = *u.SourceUnitID
	}
	var units []Unit
	err := s.q(ctx).Where("(id = ? OR source_unit_id = ?) AND id <> ?", src, src, u.ID).Order("id").Find(&units).Error
	if err != nil {
		return nil, err
	}
	return s.attach(ctx, units)
}
