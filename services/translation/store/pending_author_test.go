package store_test

import (
	"maps"
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/services/translation/store"
)

// TestPendingAuthor follows the author of each uncommitted change: set by
// every write that makes a unit pending (edit, accepted suggestion, added
// string) or queues a removal, cleared when the commit or a reset ends it.
func TestPendingAuthor(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		src, err := s.ImportTranslation(ctx, importSpec(7, "en", nil, unit("Hello", "Hello", 100, 1), unit("Close", "Close", 100, 1)))
		if err != nil {
			t.Fatal(err)
		}
		cs, err := s.ImportTranslation(ctx, importSpec(7, "cs", src.IDs, unit("Hello", "", 0, 1), unit("Close", "", 0, 1)))
		if err != nil {
			t.Fatal(err)
		}
		hello, closeID := cs.IDs[unit("Hello", "", 0, 1).IDHash], cs.IDs[unit("Close", "", 0, 1).IDHash]
		authors := func() map[int64]string {
			t.Helper()
			var units []store.Unit
			if findErr := gdb.Where("translation_id = ?", cs.Translation.ID).Find(&units).Error; findErr != nil {
				t.Fatal(findErr)
			}
			out := map[int64]string{}
			for _, u := range units {
				if u.Pending != (u.PendingAuthor != "") {
					t.Errorf("unit %d: pending %v, pending author %q", u.ID, u.Pending, u.PendingAuthor)
				}
				out[u.ID] = u.PendingAuthor
			}
			return out
		}

		_, err = s.EditUnit(ctx, hello, func(store.UnitView) (store.Edit, error) {
			return store.Edit{Target: "Ahoj", State: 20, Author: "ana"}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		sg, err := s.AddSuggestion(ctx, closeID, "Zavřít", "carol")
		if err != nil {
			t.Fatal(err)
		}
		if _, err = s.AcceptSuggestion(ctx, sg.ID, "dave", store.CheckRules{}, nil, nil); err != nil {
			t.Fatal(err)
		}
		added, err := s.CreateUnit(ctx, store.NewString{ComponentID: 7, TranslationID: cs.Translation.ID,
			Source: []string{"Open"}, Target: []string{"Otevřít"}, State: 20, IDHash: 99, ContentHash: 99,
			NumWords: 1, NumChars: 4, User: "bob"}, store.CheckRules{})
		if err != nil {
			t.Fatal(err)
		}
		// The suggestion's author is credited for it, as Weblate does.
		want := map[int64]string{hello: "ana", closeID: "carol", added.ID: "bob"}
		if got := authors(); !maps.Equal(got, want) {
			t.Errorf("pending authors %v, want %v", got, want)
		}
		var source store.Unit
		if err = gdb.Where("source_unit_id IS NULL AND id_hash = ?", 99).Take(&source).Error; err != nil || source.PendingAuthor != "bob" {
			t.Errorf("added source unit: author %q, %v", source.PendingAuthor, err)
		}
		if err = s.DeleteUnit(ctx, closeID, "erin"); err != nil {
			t.Fatal(err)
		}
		work, err := s.PendingWork(ctx, 7)
		if err != nil {
			t.Fatal(err)
		}
		var done []store.Committed
		for _, p := range work {
			c := p.Committed()
			for _, r := range p.Removals {
				if r.Author != "erin" {
					t.Errorf("removal of %q credited to %q", r.Source, r.Author)
				}
			}
			done = append(done, c)
		}
		if len(work) != 2 || len(work[1].Removals) != 1 {
			t.Fatalf("pending work %+v", work)
		}
		if err = s.FinishCommit(ctx, 7, done, nil); err != nil {
			t.Fatal(err)
		}
		if got := authors(); !maps.Equal(got, map[int64]string{hello: "", added.ID: ""}) {
			t.Errorf("after commit: %v", got)
		}
		_, err = s.EditUnit(ctx, hello, func(store.UnitView) (store.Edit, error) {
			return store.Edit{Target: "Nazdar", State: 20, Author: "bob"}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if err := s.DiscardPending(ctx, 7); err != nil {
			t.Fatal(err)
		}
		if got := authors(); got[hello] != "" {
			t.Errorf("after reset: %v", got)
		}
	}, store.Migrations, outbox.Migrations)
}
