package store_test

import (
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/services/translation/store"
)

// TestCreateUnits: many strings in one transaction, added to every
// translation; a string the translation has is skipped, and a failure
// anywhere leaves nothing behind.
func TestCreateUnits(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		src, err := s.ImportTranslation(ctx, importSpec(7, "en", nil, unit("Hello", "Hello", 100, 1)))
		if err != nil {
			t.Fatal(err)
		}
		cs, err := s.ImportTranslation(ctx, importSpec(7, "cs", src.IDs, unit("Hello", "Ahoj", 20, 1)))
		if err != nil {
			t.Fatal(err)
		}
		str := func(source string, translation int64) store.NewString {
			return store.NewString{ComponentID: 7, TranslationID: translation, Source: []string{source},
				Target: []string{source + " (cs)"}, State: 20, IDHash: int64(len(source)*1000 + int(source[0])), // as unit() hashes
				ContentHash: 1, NumWords: 1, NumChars: int64(len(source)), User: "ana"}
		}
		id := cs.Translation.ID
		created, err := s.CreateUnits(ctx, 7, store.CheckRules{}, []store.NewString{str("Open file", id), str("Hello", id), str("Save file", id)})
		if err != nil || len(created) != 3 || !created[0] || created[1] || !created[2] {
			t.Fatalf("created %v, %v", created, err)
		}
		for _, tr := range []int64{src.Translation.ID, id} {
			if _, n, _ := s.ListUnits(ctx, tr, 0, 10, store.Hidden{}); n != 3 {
				t.Errorf("translation %d has %d units, want 3", tr, n)
			}
		}
		got, _ := s.GetTranslation(ctx, 7, "cs")
		if got.Total != 3 || got.Translated != 3 {
			t.Errorf("cs counters: %+v", got.Stats)
		}
		// A string for a translation of another component fails the batch:
		// the string before it is not kept.
		if _, err := s.CreateUnits(ctx, 7, store.CheckRules{}, []store.NewString{str("Close file", id), str("Quit", id+100)}); err == nil {
			t.Fatal("a batch with a string for an unknown translation succeeded")
		}
		if _, n, _ := s.ListUnits(ctx, id, 0, 10, store.Hidden{}); n != 3 {
			t.Errorf("after the failed batch cs has %d units, want 3", n)
		}
	}, store.Migrations, outbox.Migrations)
}
