package store_test

import (
	"fmt"
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/outbox"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// TestEditUnitsInBatches edits more units than one batch holds, with
// skips and a unit with a suggestion (edited alone) among them: each
// edit lands, the counters equal those recounted from the units, one
// change record per edit is written.
func TestEditUnitsInBatches(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		const n = 700
		cs, units := wordsToTranslate(t, s, n)
		keys, err := s.UnitKeys(ctx, cs.Translation.ID)
		if err != nil || len(keys) != n || keys["\x04word5"] != units[5].ID {
			t.Fatalf("UnitKeys: %d keys, word5 -> %d (want %d), %v", len(keys), keys["\x04word5"], units[5].ID, err)
		}
		withSuggestion := units[450].ID
		if _, err = s.AddSuggestion(ctx, withSuggestion, "návrh", "ann"); err != nil {
			t.Fatal(err)
		}
		before := outboxCount(t, gdb)
		ids := make([]int64, n)
		for i, u := range units {
			ids[i] = u.ID
		}
		skip := map[int]bool{3: true, 299: true, 300: true}
		edited, err := s.EditUnits(ctx, ids, func(i int, u store.UnitView) (store.Edit, error) {
			if skip[i] {
				return store.Edit{}, store.ErrSkipEdit
			}
			return store.Edit{Target: "t" + u.Source, State: 20, Author: "bob",
				Changes: []*changelogv1.Change{{Action: typev1.ChangeAction_CHANGE_ACTION_UPLOAD, ProjectSlug: "p", ComponentSlug: "c", LanguageCode: "cs", UnitId: u.ID}}}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		for i, ok := range edited {
			if ok == skip[i] {
				t.Fatalf("unit %d edited %v", i, ok)
			}
		}
		got, _, err := s.ListUnits(ctx, cs.Translation.ID, 0, n, store.Hidden{})
		if err != nil {
			t.Fatal(err)
		}
		var recount store.Stats
		for i, u := range got {
			recount.Count(u.State, u.NumWords, u.NumChars, 1)
			if want := "t" + u.Source; !skip[i] && (u.Target != want || u.State != 20 || !u.Pending || u.PendingAuthor != "bob") {
				t.Errorf("unit %d: %q state %d pending %v by %q", i, u.Target, u.State, u.Pending, u.PendingAuthor)
			}
		}
		stored, err := s.GetTranslationByID(ctx, cs.Translation.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.Total != recount.Total || stored.Translated != recount.Translated || stored.TranslatedWords != recount.TranslatedWords {
			t.Errorf("counters %+v, recounted from the units %+v", stored.Stats, recount)
		}
		if stored.LastAuthor != "bob" || stored.LastChange == nil {
			t.Errorf("last change %v by %q", stored.LastChange, stored.LastAuthor)
		}
		if records := outboxCount(t, gdb) - before; records != n-int64(len(skip)) {
			t.Errorf("%d change records, want one per edit: %d", records, n-len(skip))
		}
	}, store.Migrations, outbox.Migrations)
}

// wordsToTranslate imports n source strings "word<i>" into component 7
// and their Czech translation, all untranslated, and lists the Czech
// units.
func wordsToTranslate(t *testing.T, s *store.Store, n int) (store.ImportResult, []store.UnitView) {
	t.Helper()
	ctx := t.Context()
	var src, tr []store.Unit
	for i := range n {
		word := fmt.Sprintf("word%d", i)
		u := unit(word, word, 100, 1)
		u.IDHash = int64(i + 1)
		src = append(src, u)
		u = unit(word, "", 0, 1)
		u.IDHash = int64(i + 1)
		tr = append(tr, u)
	}
	source, err := s.ImportTranslation(ctx, importSpec(7, "en", nil, src...))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := s.ImportTranslation(ctx, importSpec(7, "cs", source.IDs, tr...))
	if err != nil {
		t.Fatal(err)
	}
	units, _, err := s.ListUnits(ctx, cs.Translation.ID, 0, int64(n), store.Hidden{})
	if err != nil || len(units) != n {
		t.Fatalf("units: %d %v", len(units), err)
	}
	return cs, units
}
