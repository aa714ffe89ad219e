package store_test

import (
	"fmt"
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/services/translation/store"
)

// TestDismissChecks dismisses a check of more units than one statement
// takes, on both engines: the failing counters fall to what the units
// say, a dismissal survives a re-import and a recheck while its check
// fails, an edit that fixes the string drops it, and restoring counts the
// check as failing again.
func TestDismissChecks(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		const n = 700
		var src, tr []store.Unit
		for i := range n {
			u := unit(fmt.Sprintf("Word %d.", i), "", 100, 2)
			u.IDHash = int64(i + 1)
			src = append(src, u)
			u = unit(u.Source, fmt.Sprintf("Slovo %d", i), 20, 2) // no full stop: end_stop
			u.IDHash = int64(i + 1)
			tr = append(tr, u)
		}
		source, err := s.ImportTranslation(ctx, importSpec(7, "en", nil, src...))
		if err != nil {
			t.Fatal(err)
		}
		spec := importSpec(7, "cs", source.IDs, tr...)
		cs, err := s.ImportTranslation(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		wantFailing := func(when string, units, words int64) {
			t.Helper()
			got, gerr := s.GetTranslationByID(ctx, cs.Translation.ID)
			if gerr != nil || got.Failing != units || got.FailingWords != words {
				t.Errorf("%s: failing %d (%d words), want %d (%d): %v", when, got.Failing, got.FailingWords, units, words, gerr)
			}
		}
		wantFailing("imported", n, 2*n)
		ids := make([]int64, 0, n)
		for _, id := range cs.IDs {
			ids = append(ids, id)
		}
		changed, err := s.DismissChecks(ctx, cs.Translation.ID, ids, "end_stop", true, "rita")
		if err != nil || changed != n {
			t.Fatalf("dismissed %d, %v", changed, err)
		}
		if again, aerr := s.DismissChecks(ctx, cs.Translation.ID, ids, "end_stop", true, "rita"); aerr != nil || again != 0 {
			t.Errorf("dismissing again changed %d, %v", again, aerr)
		}
		wantFailing("dismissed", 0, 0)
		if _, err = s.ImportTranslation(ctx, spec); err != nil {
			t.Fatal(err)
		}
		wantFailing("re-imported", 0, 0)
		if _, err = s.RecheckTranslation(ctx, cs.Translation.ID, store.CheckRules{}); err != nil {
			t.Fatal(err)
		}
		wantFailing("rechecked", 0, 0)
		sum, err := s.CheckSummary(ctx, []int64{cs.Translation.ID})
		if err != nil || len(sum) != 1 || sum[0] != (store.CheckCount{Name: "end_stop", Failing: 0, Dismissed: n}) {
			t.Errorf("summary %+v, %v", sum, err)
		}
		first := ids[0]
		if _, err = s.EditUnit(ctx, first, func(u store.UnitView) (store.Edit, error) {
			return store.Edit{Target: u.Target + ".", State: 20, Author: "bob"}, nil
		}); err != nil {
			t.Fatal(err)
		}
		if u, uerr := s.GetUnit(ctx, first); uerr != nil || u.HasFailingCheck || u.HasDismissedCheck {
			t.Errorf("a fixed string: failing %v, dismissed %v, %v", u.HasFailingCheck, u.HasDismissedCheck, uerr)
		}
		restored, err := s.DismissChecks(ctx, cs.Translation.ID, ids, "", false, "rita")
		if err != nil || restored != n-1 {
			t.Fatalf("restored %d, %v", restored, err)
		}
		wantFailing("restored", n-1, 2*(n-1))
	}, store.Migrations, outbox.Migrations)
}

// TestTranslatedAtImport: a file that empties a translated string makes
// it fail "translated" (it keeps the text it had, on both engines); the
// file translating it again clears both.
func TestTranslatedAtImport(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		src := unit("Word.", "", 100, 1)
		source, err := s.ImportTranslation(ctx, importSpec(7, "en", nil, src))
		if err != nil {
			t.Fatal(err)
		}
		step := func(target string, state int, wantKept string, wantFailing bool) {
			t.Helper()
			tr := unit("Word.", target, state, 1)
			cs, err := s.ImportTranslation(ctx, importSpec(7, "cs", source.IDs, tr))
			if err != nil {
				t.Fatal(err)
			}
			u, err := s.GetUnit(ctx, cs.IDs[tr.IDHash])
			if err != nil || u.TranslatedTarget != wantKept || u.HasFailingCheck != wantFailing {
				t.Errorf("%q (%d): kept %q, failing %v, want %q, %v: %v", target, state, u.TranslatedTarget, u.HasFailingCheck, wantKept, wantFailing, err)
			}
		}
		step("Slovo.", 20, "", false)
		step("", 0, "Slovo.", true)
		step("Slovo.", 20, "", false)
	}, store.Migrations, outbox.Migrations)
}
