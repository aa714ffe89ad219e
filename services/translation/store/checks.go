package store

import (
	"runtime"
	"slices"
	"strings"
	"sync"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/weblate"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/checks"
)

// checker runs the quality checks (package checks) on the units of one
// translation: it knows the translation's language and plural and those
// of its component's source. The source translation's own strings get no
// target checks (Weblate runs source checks there, not built yet).
type checker struct {
	tx         *gorm.DB
	t          Translation
	srcLang    string
	srcPlural  checks.Plural
	skipSource bool
	// srcFlags are the extra_flags of the source strings that have some
	// (Weblate's "additional flags" of a source string reach every
	// language), by source unit id.
	srcFlags map[int64]string
	// copyTs hold the copies of t's strings in other components, and
	// copies those copies when preloaded (copies.go).
	copyTs    []Translation
	copies    map[copyKey][]*member
	preloaded bool
	err       error // of a read for one unit's copies
}

// defaultSourcePlural is English's, for a component whose source
// translation is not stored yet.
var defaultSourcePlural = checks.Plural{Number: 2, Formula: "n != 1"}

// newChecker reads what the checks of t's units need; with preload, the
// extra flags of every source string at once (for many units), else each
// when a unit needs it (for one edit).
func newChecker(tx *gorm.DB, t Translation, preload bool) (*checker, error) {
	c := &checker{tx: tx, t: t, srcLang: "en", srcPlural: defaultSourcePlural, skipSource: t.IsSource}
	if preload { // never a query per unit (runAll runs on several goroutines)
		c.srcFlags = map[int64]string{}
	}
	if t.IsSource {
		return c, nil
	}
	src, candidates, err := sourceAndCandidates(tx, t)
	if err != nil || len(src) == 0 {
		return c, err
	}
	c.srcLang = src[0].LanguageCode
	if src[0].PluralNumber > 0 && src[0].PluralFormula != "" {
		c.srcPlural = checks.Plural{Number: src[0].PluralNumber, Formula: src[0].PluralFormula}
	}
	if err = c.loadCopies(candidates, preload); err != nil || !preload {
		return c, err
	}
	var flagged []Unit
	err = tx.Select("id", "extra_flags").Where("translation_id = ? AND extra_flags <> ''", src[0].ID).Find(&flagged).Error
	c.srcFlags = make(map[int64]string, len(flagged))
	for _, u := range flagged {
		c.srcFlags[u.ID] = u.ExtraFlags
	}
	return c, err
}

// run returns the failing checks of u as it stands under rules.
func (c *checker) run(u *Unit, rules CheckRules) []checks.Failure {
	if c == nil || c.skipSource {
		return nil
	}
	in := checks.Unit{Sources: Split(u.Source), Targets: Split(u.Target), Lang: c.t.LanguageCode, SourceLang: c.srcLang,
		SourcePlural: c.srcPlural, TargetPlural: checks.Plural{Number: c.t.PluralNumber, Formula: c.t.PluralFormula}, State: u.State,
		Note: u.Note, Names: rules.Names, TranslatedTarget: u.TranslatedTarget, Copies: c.copiesOf(u)}
	// The project's and component's flags, the file's (comma-separated),
	// the source string's extra flags, then the string's own, as Weblate
	// merges them.
	for _, f := range rules.Flags {
		in.Flags.MergeText(f)
	}
	in.Flags.MergeText(u.Flags)
	switch {
	case u.sourceFlags != nil:
		in.Flags.MergeText(*u.sourceFlags)
	case u.SourceUnitID != nil:
		in.Flags.MergeText(c.sourceFlags(*u.SourceUnitID))
	}
	in.Flags.MergeText(u.ExtraFlags)
	return checks.Run(in)
}

// runAll runs the checks of an import's units on all cores: each as the
// import will store it (a stored unit's extra flags, and an uncommitted
// edit's text kept; old by id_hash).
func (c *checker) runAll(units []Unit, old map[int64]*Unit, rules CheckRules) [][]checks.Failure {
	out := make([][]checks.Failure, len(units))
	if c == nil || c.skipSource {
		return out
	}
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(units); i += workers {
				u := units[i]
				if prev := old[u.IDHash]; prev != nil {
					u.ExtraFlags = prev.ExtraFlags
					if prev.Pending {
						u.Target, u.State = prev.Target, prev.State
					}
					u.TranslatedTarget = translatedTarget(prev, u.Source, u.Target, u.State)
				}
				out[i] = c.run(&u, rules)
			}
		})
	}
	wg.Wait()
	return out
}

// sourceFlags are the extra flags of the source string id.
func (c *checker) sourceFlags(id int64) string {
	if c.srcFlags != nil {
		return c.srcFlags[id]
	}
	var flags []string
	_ = c.tx.Model(&Unit{}).Where("id = ?", id).Pluck("extra_flags", &flags).Error // none: no flags
	if len(flags) == 0 {
		return ""
	}
	return flags[0]
}

// CheckRules are what the checks of a component's strings read besides
// the strings: the flags texts before the strings' own (the project's and
// component's check_flags), the component's enforced checks, the
// project's and component's names (words the same check ignores), and
// whether it takes propagated translations.
type CheckRules struct {
	Flags, Enforced, Names []string
	// Propagate is the component's allow_translation_propagation.
	Propagate bool
}

// translatedTarget is what a string keeps of its last translation when
// it becomes source, target and state (prev: as it was): the target it
// had while translated, once it is emptied or needs editing with another
// text. Weblate's "translated" check finds it in the string's history,
// which a mark for edit (the same text) or a source change ends.
func translatedTarget(prev *Unit, source, target string, state int) string {
	switch {
	case prev == nil || state >= weblate.StateTranslated || prev.Source != source:
		return ""
	case prev.State >= weblate.StateTranslated:
		if target != prev.Target {
			return prev.Target
		}
		return ""
	}
	return prev.TranslatedTarget
}

// checkMarks are what a unit's check rows tell without reading them:
// whether one not dismissed (has_failing_check) and one dismissed
// (has_dismissed_check) exist.
type checkMarks struct{ failing, dismissed bool }

func marksOf(u *Unit) checkMarks { return checkMarks{u.HasFailingCheck, u.HasDismissedCheck} }

// saveChecks stores the failing checks of a unit whose rows were as was,
// as Weblate's run_checks does: the row of a check that still fails is
// kept with its dismissal, the row of one that passes now is dropped (a
// dismissal does not outlive its failure), and a new failure is added not
// dismissed. A unit without rows that passes costs no statement.
func saveChecks(tx *gorm.DB, unitID int64, was checkMarks, fails []checks.Failure) (checkMarks, error) {
	if !was.failing && !was.dismissed {
		if len(fails) == 0 {
			return checkMarks{}, nil
		}
		return checkMarks{failing: true}, insertChecks(tx, map[int64][]CheckRow{unitID: rowsOf(fails, nil)})
	}
	dismissed, err := dismissedChecks(tx, unitID)
	if err != nil {
		return was, err
	}
	if err = tx.Exec("DELETE FROM unit_checks WHERE unit_id = ?", unitID).Error; err != nil {
		return was, err
	}
	rows := rowsOf(fails, dismissed)
	return marksOfRows(rows), insertChecks(tx, map[int64][]CheckRow{unitID: rows})
}

// dismissedChecks are the names of the unit's dismissed checks.
func dismissedChecks(tx *gorm.DB, unitID int64) (map[string]bool, error) {
	var names []string
	err := tx.Raw("SELECT name FROM unit_checks WHERE unit_id = ? AND dismissed = ?", unitID, true).Scan(&names).Error
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[n] = true
	}
	return out, err
}

// CheckRow is a unit_checks row of a unit: a check that fails, dismissed
// or not.
type CheckRow struct {
	Name      string
	Dismissed bool
}

// rowsOf are the rows of fails, those named in dismissed dismissed.
func rowsOf(fails []checks.Failure, dismissed map[string]bool) []CheckRow {
	out := make([]CheckRow, len(fails))
	for i, f := range fails {
		out[i] = CheckRow{Name: f.ID, Dismissed: dismissed[f.ID]}
	}
	return out
}

func marksOfRows(rows []CheckRow) checkMarks {
	var m checkMarks
	for _, r := range rows {
		m.failing = m.failing || !r.Dismissed
		m.dismissed = m.dismissed || r.Dismissed
	}
	return m
}

// insertChecks writes the check rows of units, many per statement.
func insertChecks(tx *gorm.DB, byUnit map[int64][]CheckRow) error {
	var args []any
	for id, rows := range byUnit {
		for _, r := range rows {
			args = append(args, id, r.Name, r.Dismissed)
		}
	}
	return insertRows(tx, "INSERT INTO unit_checks (unit_id, name, dismissed)", 3, 200, args)
}

// insertRows runs head VALUES (?, …), … over args, a flat list of rows of
// cols values each, at most batch rows a statement: one plain statement
// per batch, where the ORM's batch insert cost more than a few rows.
func insertRows(tx *gorm.DB, head string, cols, batch int, args []any) error {
	row := "(" + strings.TrimSuffix(strings.Repeat("?, ", cols), ", ") + ")"
	for len(args) > 0 {
		n := min(len(args)/cols, batch)
		values := strings.TrimSuffix(strings.Repeat(row+", ", n), ", ")
		if err := tx.Exec(head+" VALUES "+values, args[:n*cols]...).Error; err != nil {
			return err
		}
		args = args[n*cols:]
	}
	return nil
}

// enforce runs the checks of u as edit e leaves it and returns the
// failing ones; a translated edit failing an enforced check (dismissed or
// not, as in Weblate) becomes one that needs editing (e.State), recorded
// as "Applied enforced check" after the edit.
func (c *checker) enforce(u *Unit, e *Edit) []checks.Failure {
	edited := *u
	edited.Target, edited.State = e.Target, e.State
	edited.TranslatedTarget = translatedTarget(u, u.Source, e.Target, e.State)
	fails := c.run(&edited, e.Checks)
	if e.State >= weblate.StateTranslated && e.State != weblate.StateReadOnly {
		for _, f := range fails {
			if slices.Contains(e.Checks.Enforced, f.ID) {
				e.State = weblate.StateFuzzy
				e.Changes = append(e.Changes, unitChange(typev1.ChangeAction_CHANGE_ACTION_ENFORCED_CHECK, *u, c.t, e.Author, e.Author))
				break
			}
		}
	}
	return fails
}

// storeChecks stores the failing checks of u (as edited) and adds the
// move of the translation's failing counters to d.
func storeChecks(tx *gorm.DB, u *Unit, fails []checks.Failure, d *Stats) error {
	now, err := saveChecks(tx, u.ID, marksOf(u), fails)
	if err != nil {
		return err
	}
	_, err = setMarks(tx, u, now, d)
	return err
}

// saveEditChecks is storeChecks of an edit, before the edit's own write
// of the unit's row, which takes the marks (u's, after it).
func saveEditChecks(tx *gorm.DB, u *Unit, fails []checks.Failure, d *Stats) error {
	m, err := saveChecks(tx, u.ID, marksOf(u), fails)
	if err == nil && m != marksOf(u) {
		failingMove(d, u, m.failing)
		u.HasFailingCheck, u.HasDismissedCheck = m.failing, m.dismissed
	}
	return err
}

// setMarks gives u the check marks m, when they differ from its own:
// the translation's failing counters move in d and the unit's row is
// written. It reports whether they differed.
func setMarks(tx *gorm.DB, u *Unit, m checkMarks, d *Stats) (bool, error) {
	if m == marksOf(u) {
		return false, nil
	}
	failingMove(d, u, m.failing)
	u.HasFailingCheck, u.HasDismissedCheck = m.failing, m.dismissed
	return true, tx.Exec("UPDATE units SET has_failing_check = ?, has_dismissed_check = ? WHERE id = ?", m.failing, m.dismissed, u.ID).Error
}

// failingMove adds to d the move of the failing counters when u goes from
// its has_failing_check to has.
func failingMove(d *Stats, u *Unit, has bool) {
	m := flagMove(u.HasFailingCheck, has)
	d.Failing += m
	d.FailingWords += m * u.NumWords
	d.FailingChars += m * u.NumChars
}
