package store_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/outbox"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// TestConcurrentEdits: many edits at once (committed together on SQLite)
// each answer their own outcome. The refused ones, one whose caller is
// already gone and those failing after they began writing (a change
// record without an action; on SQLite their group rolls back and runs
// again, each edit in a savepoint) change nothing; the others land with
// one change record each, and the counters equal those recounted from the
// units.
func TestConcurrentEdits(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		const n = 200
		cs, units := wordsToTranslate(t, s, n)
		before := outboxCount(t, gdb)
		rowsBefore := changeRows(t, gdb)
		gone, cancel := context.WithCancel(ctx)
		cancel()
		refused := func(i int) bool { return i%7 == 3 }
		failing := func(i int) bool { return i%31 == 4 }
		results := make([]error, n)
		answered := make([]int64, n) // the translation's translated count each edit answered
		var wg sync.WaitGroup
		for i, u := range units {
			wg.Go(func() {
				callCtx := ctx
				if i == 5 {
					callCtx = gone
				}
				var out store.UnitView
				out, results[i] = s.EditUnit(callCtx, u.ID, func(v store.UnitView) (store.Edit, error) {
					if refused(i) {
						return store.Edit{}, errs.New(errs.PermissionDenied, "no")
					}
					action := typev1.ChangeAction_CHANGE_ACTION_NEW
					if failing(i) {
						action = typev1.ChangeAction_CHANGE_ACTION_UNSPECIFIED
					}
					return store.Edit{Target: "t" + v.Source, State: 20, Author: "bob",
						Changes: []*changelogv1.Change{{Action: action, ProjectSlug: "p", ComponentSlug: "c", LanguageCode: "cs", UnitId: v.ID}}}, nil
				})
				answered[i] = out.Translation.Translated
			})
		}
		wg.Wait()
		landed := map[int]bool{}
		for i, err := range results {
			switch {
			case i == 5:
				if err == nil {
					t.Errorf("the edit of a caller that is gone answered no error")
				}
			case refused(i):
				if !errs.Is(err, errs.PermissionDenied) {
					t.Errorf("refused edit %d: %v", i, err)
				}
			case failing(i):
				if err == nil {
					t.Errorf("edit %d without a change action answered no error", i)
				}
			case err != nil:
				t.Errorf("edit %d: %v", i, err)
			default:
				landed[i] = true
			}
		}
		got, _, err := s.ListUnits(ctx, cs.Translation.ID, 0, n, store.Hidden{})
		if err != nil {
			t.Fatal(err)
		}
		var recount store.Stats
		for i, u := range got {
			recount.Count(u.State, u.NumWords, u.NumChars, 1)
			if edited := u.Target != ""; edited != landed[i] {
				t.Errorf("unit %d: target %q, edit landed: %v", i, u.Target, landed[i])
			}
		}
		stored, err := s.GetTranslationByID(ctx, cs.Translation.ID)
		if err != nil {
			t.Fatal(err)
		}
		if stored.Translated != recount.Translated || stored.TranslatedWords != recount.TranslatedWords {
			t.Errorf("counters %+v, recounted from the units %+v", stored.Stats, recount)
		}
		// Each landed edit answered the translation as it left it: the
		// counts after one edit, after two, ... (an edit of a group reads
		// it as the group's earlier edits left it).
		seen := map[int64]bool{}
		for i := range landed {
			if c := answered[i]; seen[c] || c < 1 || c > stored.Translated {
				t.Errorf("edit %d answered %d translated (repeated: %v); %d landed", i, c, seen[c], len(landed))
			}
			seen[answered[i]] = true
		}
		if records := outboxCount(t, gdb) - before; records != int64(len(landed)) {
			t.Errorf("%d change records, want one per landed edit: %d", records, len(landed))
		}
		rowsAfter := changeRows(t, gdb)
		for i, table := range []string{"unit_changes", "content_changes"} {
			if added := rowsAfter[i] - rowsBefore[i]; added != int64(len(landed)) {
				t.Errorf("%d rows added to %s, want one per landed edit: %d", added, table, len(landed))
			}
		}
		// The memory holds the translations of the landed edits, and
		// only theirs, once their queue is drained (in batches of 3 here).
		for empty := false; !empty; {
			if empty, err = s.RememberQueued(ctx, 3); err != nil {
				t.Fatal(err)
			}
		}
		memory, _, err := s.ListMemory(ctx, store.MemoryFilter{}, 0, 2*n)
		if err != nil {
			t.Fatal(err)
		}
		remembered := map[string]bool{}
		for _, m := range memory {
			remembered[m.Target] = true
		}
		for i, u := range got {
			if remembered["t"+u.Source] != landed[i] {
				t.Errorf("unit %d: in the memory %v, edit landed %v", i, remembered["t"+u.Source], landed[i])
			}
		}
		if len(memory) != len(landed) {
			t.Errorf("%d memory entries, want %d", len(memory), len(landed))
		}
	}, store.Migrations, outbox.Migrations)
}

// TestEditGroupDeadline: an edit whose caller runs out of time while it
// waits answers the deadline and does not stop the edits beside it.
func TestEditGroupDeadline(t *testing.T) {
	gdb := dbtest.SQLite(t, store.Migrations, outbox.Migrations)
	ctx := t.Context()
	s := store.New(gdb)
	source, err := s.ImportTranslation(ctx, importSpec(7, "en", nil, unit("a", "a", 100, 1), unit("bb", "bb", 100, 1)))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := s.ImportTranslation(ctx, importSpec(7, "cs", source.IDs, unit("a", "", 0, 1), unit("bb", "", 0, 1)))
	if err != nil {
		t.Fatal(err)
	}
	units, _, err := s.ListUnits(ctx, cs.Translation.ID, 0, 2, store.Hidden{})
	if err != nil || len(units) != 2 {
		t.Fatalf("units: %d %v", len(units), err)
	}
	edit := func(v store.UnitView) (store.Edit, error) {
		return store.Edit{Target: "x" + v.Source, State: 20, Author: "bob"}, nil
	}
	// Hold the writer so that both edits queue behind it.
	release := holdWriter(t, gdb)
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	errShort := make(chan error, 1)
	go func() { _, err := s.EditUnit(short, units[0].ID, edit); errShort <- err }()
	errLong := make(chan error, 1)
	go func() { _, err := s.EditUnit(ctx, units[1].ID, edit); errLong <- err }()
	<-short.Done()
	release()
	if err := <-errLong; err != nil {
		t.Errorf("the edit beside one out of time: %v", err)
	}
	if err := <-errShort; err == nil {
		t.Errorf("an edit out of time while it waited answered no error")
	}
}

// changeRows counts the rows of unit_changes and content_changes.
func changeRows(t *testing.T, gdb *gorm.DB) [2]int64 {
	t.Helper()
	var n [2]int64
	if err := gdb.Raw(`SELECT (SELECT COUNT(*) FROM unit_changes), (SELECT COUNT(*) FROM content_changes)`).
		Row().Scan(&n[0], &n[1]); err != nil {
		t.Fatal(err)
	}
	return n
}

// holdWriter holds SQLite's writer until release is called, so that the
// edits made meanwhile queue behind it.
func holdWriter(t *testing.T, gdb *gorm.DB) (release func()) {
	t.Helper()
	hold, held := make(chan struct{}), make(chan struct{})
	go func() {
		_ = gdb.Transaction(func(tx *gorm.DB) error {
			if err := tx.Exec(`UPDATE units SET priority = priority WHERE id = (SELECT MIN(id) FROM units)`).Error; err != nil {
				return err
			}
			close(held)
			<-hold
			return nil
		})
	}()
	<-held
	return func() { close(hold) }
}
