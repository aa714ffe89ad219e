package store_test

import (
	"slices"
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/outbox"
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
// with their counters; a component that takes no propagated translations,
// another project, and an ignore flag stay out of it.
func TestInconsistentCopies(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		f := &copiesFixture{t: t, s: store.New(gdb), gdb: gdb, ids: map[int64]map[string]int64{}, trs: map[int64]store.Translation{}}
		f.importCopies(1, "p", propagating, [][2]string{{"One", "Jeden"}, {"Two", "Dva"}, {"Three", "Tři"}, {"Four", "Čtyři"}})
		f.want("alone", nil)
		f.importCopies(2, "p", propagating, [][2]string{{"One", "Jedna"}, {"Two", ""}, {"Three", "Tři"}, {"Four", "Čtyry"}})
		f.importCopies(3, "p", store.CheckRules{}, [][2]string{{"One", "Jedno"}, {"Three", "Třii"}})
		f.importCopies(4, "q", propagating, [][2]string{{"One", "Jedno"}, {"Three", "3"}})
		f.importCopies(5, "p", store.CheckRules{Propagate: true, Flags: []string{"ignore-inconsistent"}}, [][2]string{{"Three", "3"}})
		f.want("imported", map[int64][]string{1: {"Four", "One", "Three", "Two"}, 2: {"Four", "One", "Three", "Two"}})

		f.edit(2, "One", "Jeden", 20)
		f.want("one copy fixed", map[int64][]string{1: {"Four", "Three", "Two"}, 2: {"Four", "Three", "Two"}})
		if _, err := f.s.EditUnits(t.Context(), []int64{f.ids[2]["Two"], f.ids[2]["Four"]}, func(i int, u store.UnitView) (store.Edit, error) {
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
