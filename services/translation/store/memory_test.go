package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// TestMemory: on both engines, an import remembers its translated strings
// once, an edit remembers the new translation, lookups find exact and
// fuzzy matches within the projects allowed, and renames and deletions
// follow the project.
func TestMemory(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		src, err := s.ImportTranslation(ctx, importSpec(7, "en", nil, unit("Delete the file", "Delete the file", 100, 3),
			unit("Open", "Open", 100, 1), unit("Quit the program", "Quit the program", 100, 3)))
		if err != nil {
			t.Fatal(err)
		}
		cs := importSpec(7, "cs", src.IDs, unit("Delete the file", "Smazat soubor", 20, 3), unit("Open", "", 0, 1),
			unit("Quit the program", "Ukončit program", 10, 3))
		imported, err := s.ImportTranslation(ctx, cs)
		if err != nil {
			t.Fatal(err)
		}
		// The import queued its translated unit; the memory takes it in a batch.
		if _, none, lerr := s.ListMemory(ctx, store.MemoryFilter{}, 0, 10); lerr != nil || none != 0 {
			t.Fatalf("before the queue's batch: %d entries, %v; want none", none, lerr)
		}
		rememberQueued(t, s)
		if _, err = s.ImportTranslation(ctx, cs); err != nil { // again: nothing new
			t.Fatal(err)
		}
		if empty, qerr := s.MemoryQueueEmpty(ctx); qerr != nil || !empty {
			t.Fatalf("the same import again queued units (empty %v, %v); want none", empty, qerr)
		}
		all, n, err := s.ListMemory(ctx, store.MemoryFilter{}, 0, 10)
		if err != nil || n != 1 || all[0].Source != "Delete the file" || all[0].Target != "Smazat soubor" ||
			all[0].Origin != "p/c" || all[0].SourceLanguage != "en" || all[0].TargetLanguage != "cs" {
			t.Fatalf("after the imports: %d %+v %v; want the one translated string", n, all, err)
		}
		units, _, _ := s.ListUnits(ctx, imported.Translation.ID, 0, 10, store.Hidden{})
		open := units[1]
		_, err = s.EditUnit(ctx, open.ID, func(store.UnitView) (store.Edit, error) {
			return store.Edit{Target: "Otevřít", State: weblate.StateTranslated, Author: "ann",
				Changes: []*changelogv1.Change{{Action: typev1.ChangeAction_CHANGE_ACTION_CHANGE, UnitId: open.ID}}}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		// The edit queued its unit; the memory takes it in a batch.
		if _, n, err = s.ListMemory(ctx, store.MemoryFilter{}, 0, 10); err != nil || n != 1 {
			t.Fatalf("before the queue's batch: %d entries, %v; want the imported one", n, err)
		}
		rememberQueued(t, s)
		q := store.MemoryQuery{Filter: store.MemoryFilter{SourceLanguage: "en", TargetLanguage: "cs"}, Threshold: 80}
		got, err := s.LookupMemory(ctx, q, []string{"Open", "Delete the files", "Delete", "Something else entirely"})
		if err != nil {
			t.Fatal(err)
		}
		want := []struct {
			found   bool
			target  string
			quality int
		}{{true, "Otevřít", 100}, {true, "Smazat soubor", 96}, {false, "", 0}, {false, "", 0}}
		for i, w := range want {
			if got[i].Found != w.found || got[i].Entry.Target != w.target || got[i].Quality != w.quality {
				t.Errorf("lookup %d: %+v, want %+v", i, got[i], w)
			}
		}
		hidden := q
		hidden.Filter.Restricted, hidden.Filter.Seen = true, []string{"other"}
		if got, err = s.LookupMemory(ctx, hidden, []string{"Open", "Delete the files"}); err != nil || got[0].Found || got[1].Found {
			t.Errorf("a caller seeing no project found %+v, %v", got, err)
		}
		if err = s.RenameComponents(ctx, []store.ComponentName{{ComponentID: 7, ProjectSlug: "p2", ComponentSlug: "c2"}}); err != nil {
			t.Fatal(err)
		}
		all, n, err = s.ListMemory(ctx, store.MemoryFilter{Project: "p2", Origin: "p2/c2"}, 0, 10)
		if err != nil || n != 2 {
			t.Errorf("after the rename: %d %+v %v", n, all, err)
		}
		if err = s.ForgetMemoryProjects(ctx, []string{"p2"}); err != nil {
			t.Fatal(err)
		}
		if _, n, _ = s.ListMemory(ctx, store.MemoryFilter{}, 0, 10); n != 0 {
			t.Errorf("%d entries left of a deleted project", n)
		}
	}, store.Migrations, outbox.Migrations)
}

// TestMemoryFuzzyAmongMany: with many entries holding the common
// trigrams, the fuzzy lookup still finds the near one through the rare
// trigrams, on both engines.
func TestMemoryFuzzyAmongMany(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		var entries []store.MemoryEntry
		for i := range 2000 {
			entries = append(entries, store.MemoryEntry{ProjectSlug: "p", SourceLanguage: "en", TargetLanguage: "de",
				Source: fmt.Sprintf("Save the document number %d", i), Target: fmt.Sprintf("Dokument %d speichern", i), Origin: "f.tmx", FromFile: true})
		}
		entries = append(entries, store.MemoryEntry{ProjectSlug: "p", SourceLanguage: "en", TargetLanguage: "de",
			Source: "Synchronize the bookmarks with the server", Target: "Lesezeichen mit dem Server abgleichen", Origin: "f.tmx"})
		if n, err := s.Remember(ctx, entries); err != nil || n != int64(len(entries)) {
			t.Fatalf("remember: %d, %v", n, err)
		}
		// What a TMX import does at its end (PostgreSQL: merge the GIN
		// pending list, ANALYZE); lookups answer the same after it.
		if err := s.AnalyzeMemory(ctx); err != nil {
			t.Fatal(err)
		}
		q := store.MemoryQuery{Filter: store.MemoryFilter{SourceLanguage: "en", TargetLanguage: "de"}, Threshold: 80}
		got, err := s.LookupMemory(ctx, q, []string{"Synchronise the bookmarks with the server", "Save the document number 1234"})
		if err != nil {
			t.Fatal(err)
		}
		if !got[0].Found || got[0].Entry.Target != "Lesezeichen mit dem Server abgleichen" || got[0].Quality != 97 {
			t.Errorf("near match: %+v", got[0])
		}
		if !got[1].Found || got[1].Entry.Target != "Dokument 1234 speichern" || got[1].Quality != 100 {
			t.Errorf("exact match: %+v", got[1])
		}
	}, store.Migrations, outbox.Migrations)
}

// TestMemorySharedFilter: on both engines, a lookup with Shared reads the
// project's own entries and the other projects' entries that translations
// made, not their files, exactly and fuzzily.
func TestMemorySharedFilter(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		s := store.New(gdb)
		entry := func(project, source string, file bool) store.MemoryEntry {
			return store.MemoryEntry{ProjectSlug: project, SourceLanguage: "en", TargetLanguage: "cs", Source: source,
				Target: "T:" + source, Origin: project + "/c", FromFile: file}
		}
		if _, err := s.Remember(t.Context(), []store.MemoryEntry{entry("p", "Own imported file entry", true),
			entry("q", "Shared translated entry", false), entry("q", "Imported file of another", true),
			entry("r", "Entry of an outside project", false)}); err != nil {
			t.Fatal(err)
		}
		texts := []string{"Own imported file entry", "Shared translated entries", "Imported file of another", "Entry of an outside project"}
		for _, tc := range []struct {
			name   string
			filter store.MemoryFilter
			want   string
		}{
			{"own only", store.MemoryFilter{Project: "p"}, "true false false false"},
			{"with q shared", store.MemoryFilter{Project: "p", Shared: []string{"q"}}, "true true false false"},
			{"with q and r shared", store.MemoryFilter{Project: "p", Shared: []string{"q", "r"}}, "true true false true"},
			{"restricted to p", store.MemoryFilter{Project: "p", Shared: []string{"q", "r"}, Restricted: true, Seen: []string{"p"}}, "true false false false"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				f := tc.filter
				f.SourceLanguage, f.TargetLanguage = "en", "cs"
				got, err := s.LookupMemory(t.Context(), store.MemoryQuery{Filter: f, Threshold: 80}, texts)
				if err != nil {
					t.Fatal(err)
				}
				var found []string
				for _, m := range got {
					found = append(found, fmt.Sprint(m.Found))
				}
				if strings.Join(found, " ") != tc.want {
					t.Errorf("found %v, want %s", found, tc.want)
				}
			})
		}
	}, store.Migrations, outbox.Migrations)
}

// TestMemoryQueueClaims: on PostgreSQL, a batch of the memory's queue
// claims its rows, so that another replica's batch skips them, and an
// edit made while a batch holds its unit's row queues a row of its own,
// which outlives that batch: the edit's translation is not lost.
func TestMemoryQueueClaims(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		if gdb.Dialector.Name() != "postgres" {
			t.Skip("SQLite has one writer: batches never overlap")
		}
		ctx := t.Context()
		s := store.New(gdb)
		_, edit := untranslatedUnit(t, s)
		edit("Otevřít")
		var err error
		batch := gdb.Begin()
		defer batch.Rollback()
		var claimed []int64
		if err = batch.Raw(`SELECT id FROM memory_queue FOR UPDATE`).Scan(&claimed).Error; err != nil || len(claimed) != 1 {
			t.Fatalf("claim: %v, %v", claimed, err)
		}
		// Without SKIP LOCKED the second batch would wait for the first.
		beside, cancel := context.WithTimeout(ctx, 5*time.Second)
		defer cancel()
		var empty bool
		if empty, err = s.RememberQueued(beside, 10); err != nil || !empty {
			t.Fatalf("a second batch beside the first: empty %v, %v", empty, err)
		}
		var n int64
		if _, n, err = s.ListMemory(ctx, store.MemoryFilter{}, 0, 10); err != nil || n != 0 {
			t.Fatalf("the second batch took claimed rows: %d entries, %v", n, err)
		}
		edit("Otevřete")
		if err = batch.Exec(`DELETE FROM memory_queue WHERE id IN ?`, claimed).Commit().Error; err != nil {
			t.Fatal(err)
		}
		if empty, err = s.RememberQueued(ctx, 10); err != nil || !empty {
			t.Fatalf("after the first batch: empty %v, %v", empty, err)
		}
		all, _, err := s.ListMemory(ctx, store.MemoryFilter{}, 0, 10)
		if err != nil || len(all) != 1 || all[0].Target != "Otevřete" {
			t.Fatalf("memory %+v, %v; want the later edit's translation", all, err)
		}
	}, store.Migrations, outbox.Migrations)
}

// TestMemoryQueueWaitsForDeletion: on PostgreSQL, a batch of the memory's
// queue waits for a deletion of a unit it reads under way, and then does
// not remember the deleted unit: the forgetting of a deleted project's
// memory, which follows the deletion of its units, leaves nothing behind.
func TestMemoryQueueWaitsForDeletion(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		if gdb.Dialector.Name() != "postgres" {
			t.Skip("SQLite has one writer: a batch and a deletion never overlap")
		}
		ctx := t.Context()
		s := store.New(gdb)
		id, edit := untranslatedUnit(t, s)
		edit("Otevřít")
		waitsForDeletion(t, gdb, id, func() error { _, err := s.RememberQueued(ctx, 10); return err })
		if _, n, err := s.ListMemory(ctx, store.MemoryFilter{}, 0, 10); err != nil || n != 0 {
			t.Fatalf("%d entries of a deleted unit, %v", n, err)
		}
	}, store.Migrations, outbox.Migrations)
}

// waitsForDeletion deletes unit id in a transaction, checks that batch,
// run meanwhile, waits for it, and commits the deletion.
func waitsForDeletion(t *testing.T, gdb *gorm.DB, id int64, batch func() error) {
	t.Helper()
	deletion := gdb.Begin()
	defer deletion.Rollback()
	err := deletion.Exec(`DELETE FROM units WHERE id = ?`, id).Error
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- batch() }()
	select {
	case err = <-done:
		t.Fatalf("the batch did not wait for the deletion: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err = deletion.Commit().Error; err != nil {
		t.Fatal(err)
	}
	if err = <-done; err != nil {
		t.Fatal(err)
	}
}

// untranslatedUnit imports a source string and its untranslated Czech
// unit, and answers that unit's id and a function that translates it.
func untranslatedUnit(t *testing.T, s *store.Store) (int64, func(target string)) {
	t.Helper()
	ctx := t.Context()
	src, err := s.ImportTranslation(ctx, importSpec(7, "en", nil, unit("Open", "Open", 100, 1)))
	if err != nil {
		t.Fatal(err)
	}
	cs, err := s.ImportTranslation(ctx, importSpec(7, "cs", src.IDs, unit("Open", "", 0, 1)))
	if err != nil {
		t.Fatal(err)
	}
	units, _, err := s.ListUnits(ctx, cs.Translation.ID, 0, 1, store.Hidden{})
	if err != nil || len(units) != 1 {
		t.Fatalf("units: %v, %v", units, err)
	}
	id := units[0].ID
	return id, func(target string) {
		t.Helper()
		if _, err := s.EditUnit(ctx, id, func(store.UnitView) (store.Edit, error) {
			return store.Edit{Target: target, State: weblate.StateTranslated, Author: "ann",
				Changes: []*changelogv1.Change{{Action: typev1.ChangeAction_CHANGE_ACTION_CHANGE, UnitId: id}}}, nil
		}); err != nil {
			t.Fatal(err)
		}
	}
}

// rememberQueued runs the memory's batches until its queue is empty, as
// RunMemoryQueue does once edits and imports pause.
func rememberQueued(t *testing.T, s *store.Store) {
	t.Helper()
	for range 2 { // the second finds the queue empty
		if empty, err := s.RememberQueued(t.Context(), 10); err != nil || !empty {
			t.Fatalf("remember the queue: empty %v, %v", empty, err)
		}
	}
}
