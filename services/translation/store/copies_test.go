package store_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/services/translation/search"
	"github.com/tmsproject/tms/services/translation/store"
)

// copiesFixture is a project's components holding copies of the same
// strings in Czech, each imported under its rules.
type copiesFixture struct {
	t   *testing.T
	s   *store.Store
	gdb *gorm.DB
	// ids[component][source] is the Czech unit of a string.
	ids map[int64]map[string]int64
	// trs[component] is the Czech translation.
	trs map[int64]store.Translation
}

var propagating = store.CheckRules{Propagate: true}

func newCopiesFixture(t *testing.T, gdb *gorm.DB) *copiesFixture {
	return &copiesFixture{t: t, s: store.New(gdb), gdb: gdb, ids: map[int64]map[string]int64{}, trs: map[int64]store.Translation{}}
}

// importCopies imports component's source and Czech translation
// (project, rules; targets by source, "" untranslated).
func (f *copiesFixture) importCopies(component int64, project string, rules store.CheckRules, targets [][2]string) {
	f.t.Helper()
	var src, cs []store.Unit
	for _, st := range targets { // id_hash: of the source (unit)
		u := unit(st[0], "", 100, 1)
		src = append(src, u)
		state := 20
		if st[1] == "" {
			state = 0
		}
		u = unit(st[0], st[1], state, 1)
		cs = append(cs, u)
	}
	specs := []store.ImportSpec{importSpec(component, "en", nil, src...), {}}
	specs[0].Translation.ProjectSlug = project
	source, err := f.s.ImportTranslation(f.t.Context(), specs[0])
	if err != nil {
		f.t.Fatal(err)
	}
	specs[1] = importSpec(component, "cs", source.IDs, cs...)
	specs[1].Translation.ProjectSlug, specs[1].Checks = project, rules
	res, err := f.s.ImportTranslation(f.t.Context(), specs[1])
	if err != nil {
		f.t.Fatal(err)
	}
	f.trs[component] = res.Translation
	f.ids[component] = map[string]int64{}
	for _, u := range cs {
		f.ids[component][u.Source] = res.IDs[u.IDHash]
	}
}

// want asserts which of the strings fail inconsistent, per component,
// and that the failing counters agree with the units.
func (f *copiesFixture) want(when string, failing map[int64][]string) {
	f.t.Helper()
	for comp, ids := range f.ids {
		var got []string
		for src, id := range ids {
			var names []string
			if err := f.gdb.Raw("SELECT name FROM unit_checks WHERE unit_id = ? AND dismissed = ?", id, false).Scan(&names).Error; err != nil {
				f.t.Fatal(err)
			}
			if slices.Contains(names, "inconsistent") {
				got = append(got, src)
			}
			u, err := f.s.GetUnit(f.t.Context(), id)
			if err != nil || u.HasFailingCheck != (len(names) > 0) {
				f.t.Errorf("%s: component %d %q: has_failing_check %v with %v, %v", when, comp, src, u.HasFailingCheck, names, err)
			}
		}
		slices.Sort(got)
		if !slices.Equal(got, failing[comp]) {
			f.t.Errorf("%s: component %d inconsistent %v, want %v", when, comp, got, failing[comp])
		}
		var recount int64
		f.gdb.Raw("SELECT COUNT(*) FROM units WHERE translation_id = ? AND has_failing_check = ?", f.trs[comp].ID, true).Scan(&recount)
		tr, err := f.s.GetTranslationByID(f.t.Context(), f.trs[comp].ID)
		if err != nil || tr.Failing != recount {
			f.t.Errorf("%s: component %d failing %d, units say %d: %v", when, comp, tr.Failing, recount, err)
		}
	}
}

func (f *copiesFixture) edit(comp int64, src, target string, state int) {
	f.t.Helper()
	_, err := f.s.EditUnit(f.t.Context(), f.ids[comp][src], func(store.UnitView) (store.Edit, error) {
		return store.Edit{Target: target, State: state, Author: "rita", Checks: propagating}, nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
}

// TestInconsistentCopies runs Weblate's inconsistent check across the
// components of a project, on both engines: imports, edits (one and in a
// batch) and rechecks move the check on the copies in other components
// with their counters, and so does a dismissal; a component that takes no propagated translations,
// another project, and an ignore flag stay out of it.
func TestInconsistentCopies(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		f := newCopiesFixture(t, gdb)
		f.importCopies(1, "p", propagating, [][2]string{{"One", "Jeden"}, {"Two", "Dva"}, {"Three", "Tři"}, {"Four", "Čtyři"}})
		f.want("alone", nil)
		f.importCopies(2, "p", propagating, [][2]string{{"One", "Jedna"}, {"Two", ""}, {"Three", "Tři"}, {"Four", "Čtyry"}})
		f.importCopies(3, "p", store.CheckRules{}, [][2]string{{"One", "Jedno"}, {"Three", "Třii"}})
		f.importCopies(4, "q", propagating, [][2]string{{"One", "Jedno"}, {"Three", "3"}})
		f.importCopies(5, "p", store.CheckRules{Propagate: true, Flags: []string{"ignore-inconsistent"}}, [][2]string{{"Three", "3"}})
		f.want("imported", map[int64][]string{1: {"Four", "One", "Three", "Two"}, 2: {"Four", "One", "Three", "Two"}})
		for _, dismiss := range []bool{true, false} { // a dismissal follows on the copies, as in Weblate
			n, err := f.s.DismissChecks(t.Context(), f.trs[1].ID, []int64{f.ids[1]["One"]}, "inconsistent", dismiss, "rita")
			if err != nil || n != 2 {
				t.Fatalf("dismiss %v: %d changed, %v", dismiss, n, err)
			}
			if dismiss {
				f.want("dismissed", map[int64][]string{1: {"Four", "Three", "Two"}, 2: {"Four", "Three", "Two"}})
			}
		}
		f.want("restored", map[int64][]string{1: {"Four", "One", "Three", "Two"}, 2: {"Four", "One", "Three", "Two"}})

		f.edit(2, "One", "Jeden", 20)
		f.want("one copy fixed", map[int64][]string{1: {"Four", "Three", "Two"}, 2: {"Four", "Three", "Two"}})
		if _, err := f.s.EditUnits(t.Context(), []int64{f.ids[2]["Two"], f.ids[2]["Four"]}, func(i int, _ store.UnitView) (store.Edit, error) {
			return store.Edit{Target: []string{"Dva", "Čtyři"}[i], State: 20, Author: "rita", Checks: propagating}, nil
		}); err != nil {
			t.Fatal(err)
		}
		f.want("a batch fixed", map[int64][]string{1: {"Three"}, 2: {"Three"}})
		f.edit(5, "Three", "Tři", 20)
		f.want("the ignoring copy agrees", nil)
		f.edit(1, "One", "Jedno", 10)
		f.want("needs editing, the copy translated", map[int64][]string{1: {"One"}, 2: {"One"}})
		f.edit(2, "One", "", 0)
		f.want("both not translated", nil)

		f.edit(1, "Two", "Dvě", 20)
		f.want("edited apart", map[int64][]string{1: {"Two"}, 2: {"Two"}})
		if _, err := f.s.RecheckTranslation(t.Context(), f.trs[2].ID, store.CheckRules{}); err != nil {
			t.Fatal(err)
		}
		f.want("propagation off in 2", nil)
		if _, err := f.s.RecheckTranslation(t.Context(), f.trs[2].ID, propagating); err != nil {
			t.Fatal(err)
		}
		f.want("propagation on again", map[int64][]string{1: {"Two"}, 2: {"Two"}})
	}, store.Migrations, outbox.Migrations)
}

// TestPropagatedEdits propagates edits to the copies in other components
// that take propagated translations, on both engines: each copy the
// caller's decision allows gets the target and state as its own pending
// edit with the caller's change, in one transaction with the edit; a
// refused copy, a component without propagation and another project keep
// theirs; no copy is left inconsistent with another.
func TestPropagatedEdits(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		f := newCopiesFixture(t, gdb)
		f.importCopies(1, "p", propagating, [][2]string{{"One", "Jeden"}, {"Two", "Dva"}})
		f.importCopies(2, "p", propagating, [][2]string{{"One", ""}, {"Two", "Dva"}})
		f.importCopies(3, "p", store.CheckRules{}, [][2]string{{"One", "Jedno"}})
		f.importCopies(4, "q", propagating, [][2]string{{"One", "Jedno"}})
		f.importCopies(5, "p", propagating, [][2]string{{"One", "Jedna"}})
		f.want("imported", map[int64][]string{1: {"One"}, 2: {"One"}, 5: {"One"}})
		var asked []int64
		propagate := func(cp store.UnitView, target string, state int) (store.Edit, bool) {
			asked = append(asked, cp.Translation.ComponentID)
			return store.Edit{Target: target, State: state, Author: "rita", Checks: propagating}, cp.Translation.ComponentID != 5
		}
		_, err := f.s.EditUnit(ctx, f.ids[1]["One"], func(store.UnitView) (store.Edit, error) {
			return store.Edit{Target: "Jedna", State: 20, Author: "rita", Checks: propagating, Propagate: propagate}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		slices.Sort(asked)
		if !slices.Equal(asked, []int64{2}) { // 5 holds the text already
			t.Errorf("asked about the copies of %v, want [2]", asked)
		}
		for comp, want := range map[int64]string{1: "Jedna", 2: "Jedna", 3: "Jedno", 4: "Jedno", 5: "Jedna"} {
			u, uerr := f.s.GetUnit(ctx, f.ids[comp]["One"])
			edited := comp == 1 || comp == 2 // pending, by rita
			if uerr != nil || u.Target != want || u.Pending != edited || edited && (u.PendingAuthor != "rita" || u.State != 20) {
				t.Errorf("component %d: %q state %d pending %v (%s), want %q: %v", comp, u.Target, u.State, u.Pending, u.PendingAuthor, want, uerr)
			}
		}
		f.want("propagated", nil)
		tr, err := f.s.GetTranslationByID(ctx, f.trs[2].ID)
		if err != nil || tr.Translated != 2 {
			t.Errorf("component 2 translated %d, want 2: %v", tr.Translated, err)
		}

		// A refused copy keeps its text, and the check tells.
		_, err = f.s.EditUnit(ctx, f.ids[2]["One"], func(store.UnitView) (store.Edit, error) {
			return store.Edit{Target: "Jeden", State: 20, Author: "rita", Checks: propagating, Propagate: propagate}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		f.want("5 refused", map[int64][]string{1: {"One"}, 2: {"One"}, 5: {"One"}})
		if u, _ := f.s.GetUnit(ctx, f.ids[1]["One"]); u.Target != "Jeden" {
			t.Errorf("component 1 holds %q, want Jeden", u.Target)
		}

		// An enforced inconsistent sees the copies after they took the
		// edit: it needs editing only where a copy was refused.
		enforced := store.CheckRules{Propagate: true, Enforced: []string{"inconsistent"}}
		for _, tc := range []struct {
			src, target string
			state       int
		}{{"Two", "Dvě", 20}, {"One", "Jedno", 10}} {
			_, err = f.s.EditUnit(ctx, f.ids[1][tc.src], func(store.UnitView) (store.Edit, error) {
				return store.Edit{Target: tc.target, State: 20, Author: "rita", Checks: enforced, Propagate: propagate}, nil
			})
			if u, uerr := f.s.GetUnit(ctx, f.ids[1][tc.src]); err != nil || uerr != nil || u.State != tc.state {
				t.Errorf("%s edited to %q under an enforced inconsistent: state %d, want %d (%v, %v)", tc.src, tc.target, u.State, tc.state, err, uerr)
			}
		}
	}, store.Migrations, outbox.Migrations)
}

// TestCopiesOfNewAndRemovedStrings: a string added to a component is
// checked with its copies, and theirs follow; removing it clears them.
func TestCopiesOfNewAndRemovedStrings(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		f := newCopiesFixture(t, gdb)
		f.importCopies(1, "p", propagating, [][2]string{{"One", "Jeden"}})
		f.importCopies(2, "p", propagating, [][2]string{{"Two", "Dva"}})
		one := unit("One", "", 0, 1)
		added, err := f.s.CreateUnit(ctx, store.NewString{ComponentID: 2, TranslationID: f.trs[2].ID, Source: []string{"One"},
			Target: []string{""}, IDHash: one.IDHash, ContentHash: 1, NumWords: 1, NumChars: 3, User: "rita"}, propagating)
		if err != nil {
			t.Fatal(err)
		}
		f.ids[2]["One"] = added.ID
		f.want("added untranslated", map[int64][]string{1: {"One"}, 2: {"One"}})
		if err = f.s.DeleteUnit(ctx, added.ID, "rita"); err != nil {
			t.Fatal(err)
		}
		delete(f.ids[2], "One")
		f.want("removed", nil)
	}, store.Migrations, outbox.Migrations)
}

// TestCopiesOfRemovedComponents: removing a translation, or a whole
// component, clears the check its strings caused on their copies.
func TestCopiesOfRemovedComponents(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		f := newCopiesFixture(t, gdb)
		f.importCopies(1, "p", propagating, [][2]string{{"One", "Jeden"}})
		f.importCopies(2, "p", propagating, [][2]string{{"One", "Jedna"}})
		f.importCopies(3, "p", propagating, [][2]string{{"One", "Jedno"}})
		f.want("imported", map[int64][]string{1: {"One"}, 2: {"One"}, 3: {"One"}})
		if err := f.s.DeleteTranslation(ctx, f.trs[3].ID); err != nil {
			t.Fatal(err)
		}
		delete(f.ids, 3)
		f.want("translation removed", map[int64][]string{1: {"One"}, 2: {"One"}})
		if err := f.s.ForgetComponent(ctx, 2); err != nil {
			t.Fatal(err)
		}
		delete(f.ids, 2)
		f.want("component removed", nil)
	}, store.Migrations, outbox.Migrations)
}

// TestConcurrentPropagation edits two components at once, each edit
// propagating to the other (their translations locked in opposite
// orders), on both engines: every edit succeeds, and the copies end
// consistent with their counters.
func TestConcurrentPropagation(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		f := newCopiesFixture(t, gdb)
		f.importCopies(1, "p", propagating, [][2]string{{"One", ""}, {"Two", ""}})
		f.importCopies(2, "p", propagating, [][2]string{{"One", ""}, {"Two", ""}})
		propagate := func(_ store.UnitView, target string, state int) (store.Edit, bool) {
			return store.Edit{Target: target, State: state, Author: "rita", Checks: propagating}, true
		}
		var wg sync.WaitGroup
		errs := make(chan error, 2)
		for comp, src := range map[int64]string{1: "One", 2: "Two"} {
			wg.Go(func() {
				for i := range 20 {
					_, err := f.s.EditUnit(ctx, f.ids[comp][src], func(store.UnitView) (store.Edit, error) {
						return store.Edit{Target: fmt.Sprintf("%s %d", src, i), State: 20, Author: "rita", Checks: propagating, Propagate: propagate}, nil
					})
					if err != nil {
						errs <- err
						return
					}
				}
			})
		}
		wg.Wait()
		close(errs)
		for err := range errs {
			t.Fatal(err)
		}
		f.want("after concurrent edits", nil)
	}, store.Migrations, outbox.Migrations)
}

// TestSearchUnitFields runs the search fields that read more than the
// unit's text on both engines: the source string's explanation, an edit
// not yet committed (is:pending), and the unit's numbers.
func TestSearchUnitFields(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		f := newCopiesFixture(t, gdb)
		f.importCopies(1, "p", propagating, [][2]string{{"One", "Jeden"}, {"Two", ""}})
		var srcOne int64
		if err := gdb.Raw("SELECT source_unit_id FROM units WHERE id = ?", f.ids[1]["One"]).Scan(&srcOne).Error; err != nil {
			t.Fatal(err)
		}
		if _, err := f.s.SetExplanation(ctx, srcOne, "The first of a list"); err != nil {
			t.Fatal(err)
		}
		f.edit(1, "Two", "Dva", 20)
		for q, want := range map[string][]int64{
			"has:explanation":                   {f.ids[1]["One"]},
			"explanation:LIST":                  {f.ids[1]["One"]},
			"is:pending":                        {f.ids[1]["Two"]},
			"NOT is:pending":                    {f.ids[1]["One"]},
			"priority:100":                      {f.ids[1]["One"], f.ids[1]["Two"]},
			"id:" + fmt.Sprint(f.ids[1]["Two"]): {f.ids[1]["Two"]},
			"position:>1":                       {f.ids[1]["Two"]},
		} {
			parsed, err := search.Parse(q)
			if err != nil {
				t.Fatal(err)
			}
			ids, err := f.s.SearchUnitIDs(ctx, f.trs[1].ID, parsed, store.Hidden{})
			slices.Sort(want)
			if err != nil || !slices.Equal(ids, want) {
				t.Errorf("q=%s: %v, want %v (%v)", q, ids, want, err)
			}
		}
	}, store.Migrations, outbox.Migrations)
}

// TestEditGroupCopies: edits committed together (SQLite) answer their
// translation as it stands after each, also when an edit of another
// translation changed it in between (the check of its copies).
func TestEditGroupCopies(t *testing.T) {
	gdb := dbtest.SQLite(t, store.Migrations, outbox.Migrations)
	f := newCopiesFixture(t, gdb)
	f.importCopies(1, "p", propagating, [][2]string{{"One", "Jeden"}, {"Two", ""}})
	f.importCopies(2, "p", propagating, [][2]string{{"One", "Jeden"}, {"Two", ""}, {"Three", ""}})
	refuse := func(store.UnitView, string, int) (store.Edit, bool) { return store.Edit{}, false }
	edits := []struct {
		comp        int64
		src, target string
		// the translation's translated and failing counts the edit answers
		translated, failing int64
	}{
		{1, "Two", "Dva", 2, 1},   // alone (it waits for the writer, the others queue behind it); its copy is untranslated
		{2, "Two", "Dva", 2, 0},   // the group's first edit of component 2; it mends the copy
		{1, "One", "Jedna", 2, 1}, // its copy in component 2 refuses it: both inconsistent
		{2, "Three", "Tři", 3, 1}, // sees its copy's check
	}
	release := holdWriter(t, gdb)
	got := make([][2]int64, len(edits))
	var wg sync.WaitGroup
	for i, e := range edits {
		wg.Go(func() {
			v, err := f.s.EditUnit(t.Context(), f.ids[e.comp][e.src], func(store.UnitView) (store.Edit, error) {
				return store.Edit{Target: e.target, State: 20, Author: "rita", Checks: propagating, Propagate: refuse}, nil
			})
			if err != nil {
				t.Errorf("edit %d: %v", i, err)
			}
			got[i] = [2]int64{v.Translation.Translated, v.Translation.Failing}
		})
		time.Sleep(50 * time.Millisecond) // queued in this order
	}
	release()
	wg.Wait()
	for i, e := range edits {
		if want := [2]int64{e.translated, e.failing}; got[i] != want {
			t.Errorf("edit %d (%d %q) answered translated, failing %v, want %v", i, e.comp, e.src, got[i], want)
		}
	}
	f.want("edited together", map[int64][]string{1: {"One"}, 2: {"One"}})
}
