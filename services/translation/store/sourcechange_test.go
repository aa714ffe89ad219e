package store_test

import (
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/outbox"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// keyed is a unit of key in a monolingual component.
func keyed(key, src, target string, state int, previous string) store.Unit {
	u := unit(src, target, state, int64(len(src)/4+1))
	u.Context, u.PreviousSource, u.IDHash = key, previous, int64(len(key))
	return u
}

// TestSourceEditReachesTranslations edits English strings of a
// monolingual component: the other translations' units of the key take
// the new source; translated ones need editing with the old source kept,
// a fuzzy one the edit reverts is translated again, empty ones only follow
// the text; every counter equals the one recounted from the units.
func TestSourceEditReachesTranslations(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		spec := importSpec(9, "en", nil, keyed("hello", "Hello", "Hello", 20, ""), keyed("bye", "Bye", "Bye", 20, ""))
		spec.Translation.IsTemplate = true
		en, err := s.ImportTranslation(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		de, err := s.ImportTranslation(ctx, importSpec(9, "de", en.IDs,
			keyed("hello", "Hello", "Hallo", 20, ""), keyed("bye", "Bye", "Tschüss", 10, "Good bye")))
		if err != nil {
			t.Fatal(err)
		}
		fr, err := s.ImportTranslation(ctx, importSpec(9, "fr", en.IDs,
			keyed("hello", "Hello", "", 0, ""), keyed("bye", "Bye", "Au revoir", 30, "")))
		if err != nil {
			t.Fatal(err)
		}
		before := outboxCount(t, gdb)
		edit := func(key, text string) {
			t.Helper()
			_, err := s.EditUnit(ctx, en.IDs[int64(len(key))], func(u store.UnitView) (store.Edit, error) {
				return store.Edit{Target: text, State: 20, Author: "ann", Changes: []*changelogv1.Change{{Action: 2, UnitId: u.ID}}}, nil
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		edit("hello", "Hello there, dear world")
		edit("bye", "Good bye")
		for _, tc := range []struct {
			name, key string
			tr        int64
			source    string
			previous  string
			state     int
		}{
			{"translated needs editing", "hello", de.Translation.ID, "Hello there, dear world", "Hello", 10},
			{"reverted fuzzy is translated", "bye", de.Translation.ID, "Good bye", "", 20},
			{"empty follows the text", "hello", fr.Translation.ID, "Hello there, dear world", "", 0},
			{"approved needs editing", "bye", fr.Translation.ID, "Good bye", "Bye", 10},
			{"source unit", "hello", en.Translation.ID, "Hello there, dear world", "", 20},
		} {
			t.Run(tc.name, func(t *testing.T) {
				u, err := s.UnitByHash(ctx, tc.tr, int64(len(tc.key)))
				if err != nil {
					t.Fatal(err)
				}
				if u.Source != tc.source || u.PreviousSource != tc.previous || u.State != tc.state || u.NumWords != 4 && tc.key == "hello" {
					t.Errorf("source %q previous %q state %d words %d", u.Source, u.PreviousSource, u.State, u.NumWords)
				}
			})
		}
		for _, tr := range []store.ImportResult{en, de, fr} {
			expectRecounted(t, s, tr.Translation.ID)
		}
		if n := outboxCount(t, gdb) - before; n != 2+4 {
			t.Errorf("%d change records, want 2 edits and 4 source changes", n)
		}
	}, store.Migrations, outbox.Migrations)
}

// expectRecounted compares a translation's counters with those recounted
// from its units.
func expectRecounted(t *testing.T, s *store.Store, id int64) {
	t.Helper()
	units, _, err := s.ListUnits(t.Context(), id, 0, 0, store.Hidden{})
	if err != nil {
		t.Fatal(err)
	}
	var recount store.Stats
	for _, u := range units {
		recount.Count(u.State, u.NumWords, u.NumChars, 1)
		if u.HasFailingCheck {
			recount.Failing++
			recount.FailingWords += u.NumWords
			recount.FailingChars += u.NumChars
		}
	}
	stored, err := s.GetTranslationByID(t.Context(), id)
	if err != nil {
		t.Fatal(err)
	}
	if stored.Stats != recount {
		t.Errorf("translation %d: counters %+v, recounted %+v", id, stored.Stats, recount)
	}
}

// TestReimportChangedTemplate re-imports a monolingual translation whose
// template source changed under an unchanged target: the unit needs
// editing and keeps the stored source as previous_source.
func TestReimportChangedTemplate(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		en, err := s.ImportTranslation(ctx, importSpec(9, "en", nil, keyed("hello", "Hello", "Hello", 20, "")))
		if err != nil {
			t.Fatal(err)
		}
		for _, src := range []string{"Hello", "Hello you"} {
			spec := importSpec(9, "de", en.IDs, keyed("hello", src, "Hallo", 20, ""))
			spec.Monolingual = true
			if _, err = s.ImportTranslation(ctx, spec); err != nil {
				t.Fatal(err)
			}
		}
		de, err := s.GetTranslation(ctx, 9, "de")
		if err != nil {
			t.Fatal(err)
		}
		u, err := s.UnitByHash(ctx, de.ID, int64(len("hello")))
		if err != nil || u.State != 10 || u.PreviousSource != "Hello" || u.Source != "Hello you" {
			t.Errorf("unit %+v, %v", u.Unit, err)
		}
		expectRecounted(t, s, de.ID)
	}, store.Migrations, outbox.Migrations)
}
