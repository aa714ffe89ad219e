package store

import (
	"cmp"
	"slices"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/changedetails"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/checks"
)

// Copies of a string: the strings of the same project, language, plural
// rule and source language with the same source and context, in other
// components that take propagated translations (Weblate's
// propagated_units). They are found by id_hash, then compared whole:
// a bilingual string's id_hash hashes its source and context, a keyed
// one's its key, so copies are found among components of one kind.

// inconsistentID is the check that compares a string with its copies.
const inconsistentID = "inconsistent"

// consistency reports whether the component of rules gets the
// inconsistent check: it takes propagated translations and its flags do
// not switch the check off.
func (r CheckRules) consistency() bool {
	if !r.Propagate {
		return false
	}
	var f checks.Flags
	for _, text := range r.Flags {
		f.MergeText(text)
	}
	return !checks.Ignores(f, inconsistentID)
}

// copyKey is what copies share besides their translation's scope.
type copyKey struct {
	hash            int64
	source, context string
}

func keyOf(u *Unit) copyKey { return copyKey{u.IDHash, u.Source, u.Context} }

// member is a string of a copy group, as the inconsistent check reads it.
type member struct {
	ID            int64
	TranslationID int64
	IDHash        int64 `gorm:"column:id_hash"`
	Source        string
	Context       string
	Target        string
	State         int
	Flags         string
	SourceUnitID  *int64
	NumWords      int64
	// HasFailingCheck and HasDismissedCheck are the unit's check marks.
	HasFailingCheck   bool
	HasDismissedCheck bool
}

func (m *member) asCopy() checks.Copy {
	return checks.Copy{Target: m.Target, Translated: m.State >= weblate.StateTranslated}
}

// copyTranslations are the translations whose strings are copies of t's
// (srcLang: its component's source language), whether t's component
// takes propagated translations or not (when it stopped, their checks
// must forget t's strings).
func copyTranslations(tx *gorm.DB, t Translation, srcLang string) ([]Translation, error) {
	if t.IsSource {
		return nil, nil
	}
	var candidates []Translation
	err := tx.Where(copyCandidates, t.ProjectSlug, t.LanguageCode, t.PluralID, true, false, t.ID).Order("id").Find(&candidates).Error
	if err != nil {
		return nil, err
	}
	return sameSourceLanguage(tx, candidates, srcLang)
}

// copyCandidates selects the translations that hold copies of a
// translation's strings if their source language is its.
const copyCandidates = "project_slug = ? AND language_code = ? AND plural_id = ? AND propagate = ? AND is_source = ? AND id <> ?"

// sourceAndCandidates reads, in one statement (an edit's), the source
// translation of t's component and the copyCandidates of t.
func sourceAndCandidates(tx *gorm.DB, t Translation) (src, candidates []Translation, err error) {
	rows, err := findTranslations(tx, "(component_id = ? AND is_source = ?) OR ("+copyCandidates+")", " ORDER BY id", t.ComponentID, true,
		t.ProjectSlug, t.LanguageCode, t.PluralID, true, false, t.ID)
	for _, r := range rows {
		if r.ComponentID == t.ComponentID && r.IsSource {
			src = append(src, r)
		} else {
			candidates = append(candidates, r)
		}
	}
	return src, candidates, err
}

// sameSourceLanguage keeps the candidates whose component's source
// language is srcLang.
func sameSourceLanguage(tx *gorm.DB, candidates []Translation, srcLang string) ([]Translation, error) {
	if len(candidates) == 0 {
		return nil, nil
	}
	comps := make([]int64, len(candidates))
	for i, ct := range candidates {
		comps[i] = ct.ComponentID
	}
	var same []int64
	err := tx.Model(&Translation{}).Where("component_id IN ? AND is_source = ? AND language_code = ?", comps, true, srcLang).
		Pluck("component_id", &same).Error
	out := candidates[:0]
	for _, ct := range candidates {
		if slices.Contains(same, ct.ComponentID) {
			out = append(out, ct)
		}
	}
	return out, err
}

func translationIDs(ts []Translation) []int64 {
	out := make([]int64, len(ts))
	for i, t := range ts {
		out[i] = t.ID
	}
	return out
}

// members reads the strings of translations ids, those of id_hash hashes
// only when hashes is not nil.
func members(tx *gorm.DB, ids, hashes []int64) ([]member, error) {
	var out []member
	if len(ids) == 0 || (hashes != nil && len(hashes) == 0) {
		return nil, nil
	}
	q := tx.Model(&Unit{}).Select("id", "translation_id", "id_hash", "source", "context", "target", "state", "flags",
		"source_unit_id", "num_words", "has_failing_check", "has_dismissed_check").Where("translation_id IN ?", ids)
	for start := 0; start < max(len(hashes), 1); start += 500 {
		part := q
		if hashes != nil {
			part = q.Where("id_hash IN ?", hashes[start:min(start+500, len(hashes))])
		}
		var got []member
		if err := part.Scan(&got).Error; err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

// groupCopies indexes strings by what copies share.
func groupCopies(ms []member) map[copyKey][]*member {
	out := map[copyKey][]*member{}
	for i := range ms {
		m := &ms[i]
		k := copyKey{m.IDHash, m.Source, m.Context}
		out[k] = append(out[k], m)
	}
	return out
}

// copiesOf are the copies of u: preloaded, or read for u alone. nil
// (the check off) when u's component gets no inconsistent check.
func (c *checker) copiesOf(u *Unit) []checks.Copy {
	if !c.t.Consistency {
		return nil
	}
	group := c.copies[keyOf(u)]
	if !c.preloaded && len(c.copyTs) > 0 {
		ms, err := members(c.tx, translationIDs(c.copyTs), []int64{u.IDHash})
		if err != nil {
			c.err = err
			return nil
		}
		group = groupCopies(ms)[keyOf(u)]
	}
	out := make([]checks.Copy, 0, len(group))
	for _, m := range group {
		out = append(out, m.asCopy())
	}
	return out
}

// loadCopies keeps the candidates (sourceAndCandidates) that hold copies
// of t's strings, and with preload reads their strings.
func (c *checker) loadCopies(candidates []Translation, preload bool) error {
	var err error
	if c.copyTs, err = sameSourceLanguage(c.tx, candidates, c.srcLang); err != nil || !preload || !c.t.Consistency {
		return err
	}
	ms, err := members(c.tx, translationIDs(c.copyTs), nil)
	c.copies, c.preloaded = groupCopies(ms), true
	return err
}

// hasCopies reports whether the checker's translation has copies in other
// translations (which reconcile then writes to).
func (c *checker) hasCopies() bool { return c != nil && !c.skipSource && len(c.copyTs) > 0 }

// reconcile is reconcileCopies of the checker's translation.
func (c *checker) reconcile(hashes []int64) error {
	if c == nil || c.skipSource {
		return nil
	}
	return reconcileCopies(c.tx, c.t, c.copyTs, hashes)
}

// reconcileCopies sets the inconsistent check of the copies of t's
// strings (those of id_hash hashes; all when hashes is nil) as t's
// strings now stand: their rows, marks and translations' failing
// counters follow. t's own strings are the checker's. t's strings count
// as copies only while its component takes propagated translations.
func reconcileCopies(tx *gorm.DB, t Translation, copyTs []Translation, hashes []int64) error {
	if len(copyTs) == 0 {
		return nil
	}
	ids := translationIDs(copyTs)
	if t.Propagate {
		ids = append(ids, t.ID)
	}
	ms, err := members(tx, ids, hashes)
	if err != nil {
		return err
	}
	checked := map[int64]bool{}
	for _, ct := range copyTs {
		checked[ct.ID] = ct.Consistency
	}
	groups := groupCopies(ms)
	want := map[int64]bool{}
	var candidates []*member
	for _, group := range groups {
		for _, m := range group {
			if m.TranslationID == t.ID {
				continue
			}
			candidates = append(candidates, m)
			want[m.ID] = checked[m.TranslationID] && checks.Inconsistent(m.Target, m.State, checks.Flags{}, othersOf(group, m))
		}
	}
	return applyInconsistent(tx, candidates, want)
}

// othersOf are the copies of m in its group.
func othersOf(group []*member, m *member) []checks.Copy {
	out := make([]checks.Copy, 0, len(group)-1)
	for _, o := range group {
		if o != m {
			out = append(out, o.asCopy())
		}
	}
	return out
}

// applyInconsistent makes the inconsistent rows of candidates what want
// says (after the strings' own flags, and their source strings' extra
// flags, had their say), moving marks and failing counters.
func applyInconsistent(tx *gorm.DB, candidates []*member, want map[int64]bool) error {
	have, err := checkRowsNamed(tx, inconsistentID, memberIDs(candidates))
	if err != nil {
		return err
	}
	var add, drop []*member
	for _, m := range candidates {
		has := have[m.ID]
		switch {
		case want[m.ID] && !has:
			add = append(add, m)
		case !want[m.ID] && has:
			drop = append(drop, m)
		}
	}
	if add, err = notIgnoring(tx, add); err != nil {
		return err
	}
	if len(add)+len(drop) == 0 {
		return nil
	}
	rows := map[int64][]CheckRow{}
	for _, m := range add {
		rows[m.ID] = []CheckRow{{Name: inconsistentID}}
	}
	if err = insertChecks(tx, rows); err != nil {
		return err
	}
	for part := range slices.Chunk(memberIDs(drop), 500) {
		if err = tx.Exec("DELETE FROM unit_checks WHERE name = ? AND unit_id IN ?", inconsistentID, part).Error; err != nil {
			return err
		}
	}
	return remark(tx, append(add, drop...))
}

func memberIDs(ms []*member) []int64 {
	out := make([]int64, len(ms))
	for i, m := range ms {
		out[i] = m.ID
	}
	return out
}

// checkRowsNamed are the units of ids with a row of check name.
func checkRowsNamed(tx *gorm.DB, name string, ids []int64) (map[int64]bool, error) {
	out := map[int64]bool{}
	for part := range slices.Chunk(ids, 500) {
		var found []int64
		err := tx.Raw("SELECT unit_id FROM unit_checks WHERE name = ? AND unit_id IN ?", name, part).Scan(&found).Error
		if err != nil {
			return nil, err
		}
		for _, id := range found {
			out[id] = true
		}
	}
	return out, nil
}

// notIgnoring keeps the strings whose own flags, and their source
// strings' extra flags, do not switch the inconsistent check off.
func notIgnoring(tx *gorm.DB, ms []*member) ([]*member, error) {
	var srcIDs []int64
	for _, m := range ms {
		if m.SourceUnitID != nil {
			srcIDs = append(srcIDs, *m.SourceUnitID)
		}
	}
	extra := map[int64]string{}
	for part := range slices.Chunk(srcIDs, 500) {
		var flagged []Unit
		if err := tx.Select("id", "extra_flags").Where("id IN ? AND extra_flags <> ''", part).Find(&flagged).Error; err != nil {
			return nil, err
		}
		for _, u := range flagged {
			extra[u.ID] = u.ExtraFlags
		}
	}
	out := ms[:0]
	for _, m := range ms {
		var f checks.Flags
		f.MergeText(m.Flags)
		if m.SourceUnitID != nil {
			f.MergeText(extra[*m.SourceUnitID])
		}
		if !checks.Ignores(f, inconsistentID) {
			out = append(out, m)
		}
	}
	return out, nil
}

// remark sets the check marks of strings whose rows changed from their
// rows, and moves the failing counters of their translations.
func remark(tx *gorm.DB, ms []*member) error {
	rows := map[int64][]CheckRow{}
	for part := range slices.Chunk(memberIDs(ms), 500) {
		var found []struct {
			UnitID int64
			CheckRow
		}
		if err := tx.Raw("SELECT unit_id, name, dismissed FROM unit_checks WHERE unit_id IN ?", part).Scan(&found).Error; err != nil {
			return err
		}
		for _, r := range found {
			rows[r.UnitID] = append(rows[r.UnitID], r.CheckRow)
		}
	}
	deltas := map[int64]*Stats{}
	for _, m := range ms {
		d := cmp.Or(deltas[m.TranslationID], &Stats{})
		deltas[m.TranslationID] = d
		u := Unit{ID: m.ID, NumWords: m.NumWords, HasFailingCheck: m.HasFailingCheck, HasDismissedCheck: m.HasDismissedCheck}
		if _, err := setMarks(tx, &u, marksOfRows(rows[m.ID]), d); err != nil {
			return err
		}
	}
	for id, d := range deltas {
		if err := moveCountersOnly(tx, id, *d, nil); err != nil {
			return err
		}
	}
	return nil
}

// forgetCopy sets the inconsistent check of the copies of u, removed
// from t.
func forgetCopy(tx *gorm.DB, t Translation, u Unit) error {
	if !t.Propagate || t.IsSource {
		return nil
	}
	c, err := newChecker(tx, t, false)
	if err != nil {
		return err
	}
	return c.reconcile([]int64{u.IDHash})
}

// goneCopies are the checkers of translations about to be removed: once
// they are, the copies of their strings follow.
type goneCopies []*checker

// copiesOfTranslations readies goneCopies for ts.
func copiesOfTranslations(tx *gorm.DB, ts []Translation) (goneCopies, error) {
	var out goneCopies
	for _, t := range ts {
		if !t.Propagate || t.IsSource {
			continue
		}
		c, err := newChecker(tx, t, false)
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// reconcile sets the inconsistent check of the copies of the removed
// translations' strings.
func (g goneCopies) reconcile() error {
	for _, c := range g {
		if err := c.reconcile(nil); err != nil {
			return err
		}
	}
	return nil
}

// syncPropagation stores on the translations of t's component whether
// they take propagated translations and get the inconsistent check, as
// rules (the component's, as they now are) say; t follows.
func syncPropagation(tx *gorm.DB, t *Translation, rules CheckRules) error {
	if t.IsSource {
		return nil
	}
	prop, cons := rules.Propagate, rules.consistency()
	t.Propagate, t.Consistency = prop, cons
	return tx.Model(&Translation{}).Where("component_id = ? AND is_source = ? AND (propagate <> ? OR consistency <> ?)",
		t.ComponentID, false, prop, cons).Updates(map[string]any{"propagate": prop, "consistency": cons}).Error
}

// dismissCopies dismisses (or restores) the checks done of t's strings
// on their copies, as Weblate's set_dismiss recurses to the propagated
// units: each copy's row of the same check, where it has one, is
// recorded as the copy's change by actor, with marks and counters
// following. It returns the number of rows changed.
func dismissCopies(tx *gorm.DB, t Translation, done []checkOf, dismiss bool, actor string) (int, error) {
	c, err := newChecker(tx, t, false)
	if err != nil || len(c.copyTs) == 0 || c.skipSource {
		return 0, err
	}
	hashes := make([]int64, 0, len(done))
	for _, x := range done {
		hashes = append(hashes, x.unit.IDHash)
	}
	ms, err := members(tx, translationIDs(c.copyTs), hashes)
	if err != nil {
		return 0, err
	}
	groups := groupCopies(ms)
	action := typev1.ChangeAction_CHANGE_ACTION_CHECK_RESTORED
	if dismiss {
		action = typev1.ChangeAction_CHANGE_ACTION_CHECK_DISMISSED
	}
	byT := map[int64]Translation{}
	for _, ct := range c.copyTs {
		byT[ct.ID] = ct
	}
	units, deltas := map[int64]*Unit{}, map[int64]*Stats{}
	changed := 0
	for _, x := range done {
		for _, m := range groups[keyOf(&x.unit)] {
			res := tx.Exec("UPDATE unit_checks SET dismissed = ? WHERE unit_id = ? AND name = ? AND dismissed <> ?", dismiss, m.ID, x.name, dismiss)
			if res.Error != nil {
				return 0, res.Error
			}
			if res.RowsAffected == 0 {
				continue
			}
			changed++
			u := units[m.ID]
			if u == nil {
				u = &Unit{ID: m.ID, TranslationID: m.TranslationID, NumWords: m.NumWords, HasFailingCheck: m.HasFailingCheck,
					HasDismissedCheck: m.HasDismissedCheck}
				units[m.ID], deltas[m.TranslationID] = u, cmp.Or(deltas[m.TranslationID], &Stats{})
			}
			if err = refreshCheckMarks(tx, u, deltas[m.TranslationID]); err != nil {
				return 0, err
			}
			ch := unitChange(action, *u, byT[m.TranslationID], actor, actor)
			ch.Details = changedetails.FromMap(map[string]any{"check": x.name})
			if err = recordChanges(tx, now(), []*changelogv1.Change{ch}); err != nil {
				return 0, err
			}
		}
	}
	for id, d := range deltas {
		if err = moveCountersOnly(tx, id, *d, nil); err != nil {
			return 0, err
		}
	}
	return changed, nil
}
