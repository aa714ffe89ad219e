package store_test

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
	"testing"
	"testing/fstest"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/services/translation/search"
	"github.com/tmsproject/tms/services/translation/store"
)

// indexTexts are source and target pairs that test the index's edges:
// case, words across a plural separator, quotes, characters lower() or
// FTS5 fold into ASCII (Kelvin sign, dotted capital I, long s), other
// alphabets, and values shorter than a trigram.
var indexTexts = [][2]string{
	{"Delete cookies", "Cookies löschen"},
	{"COOKIES and cache", "Cache und COOKIES"},
	{"Backup the files", "Restore the files"},
	{"backup\x1e\x1ebackups", "Sicherung\x1e\x1eSicherungen"},
	{`Say "hello"`, `Sag "hallo"`},
	{"\u212aelvin scale", "\u212aelvin-Skala"},
	{"\u0130stanbul", "İstanbul"},
	{"Cla\u017fs of cookie\u017f", "Klasse"},
	{"Größe ändern", "Resize"},
	{"ab", "xy"},
	{"Temporary data", "Temporäre Daten"},
	{"temporary\tdata", "Daten"},
}

// indexQueries are searches the index answers, in part or not at all.
var indexQueries = []string{
	"cookies", "COOKIE", "kelvin", "istanbul", "classs", "source:cookies", "target:cookies",
	`source:"temporary data"`, "source:backup AND target:restore", "source:backup AND state:>=translated",
	"target:proxy OR target:cookies", "cookies OR ab", "NOT cookies", "größe", "ÄNDERN", "ab", "xylophone",
	`"say ""hello"""`, `hello"`, "backups", "context:cookies", "note:cookies", "files AND NOT restore",
	"source:r\"^Back\"", "target:=Resize", "cookies AND (kelvin OR größe)",
	// AND of terms only of the source or context, and with others
	"source:cookies AND context:ctx", "target:cookies AND source:delete", "context:ctx1 AND (cookies OR target:resize)",
	"(target:files OR source:cache) AND source:backup AND context:ctx2", "source:backup AND target:files AND NOT cookies",
}

// TestTextIndexAgreesWithScan: a search looked up in the trigram index
// answers exactly the units and count a scan answers, on both engines, for
// the queries above, over one translation and over all: once indexed,
// after edits, deletions (of a unit, and of a translation with its units)
// and additions below and above the index's mark, and with part of the
// units not yet indexed.
func TestTextIndexAgreesWithScan(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		cs, units := importIndexTexts(t, s, 1)
		agree := func(step string) {
			t.Helper()
			checkTextIndex(t, gdb, step)
			for _, tr := range []int64{0, cs} {
				for _, qs := range indexQueries {
					q, err := search.Parse(qs)
					if err != nil {
						t.Fatalf("%q: %v", qs, err)
					}
					scanned := scanIDs(t, gdb, tr, q)
					indexed := indexedIDs(t, gdb, s, tr, q)
					if !slices.Equal(scanned, indexed) {
						t.Errorf("%s, translation %d, %q: indexed %v, scanned %v", step, tr, qs, indexed, scanned)
					}
					for _, hidden := range []store.Hidden{{}, {Components: []int64{1}}, {Restricted: true}} {
						pagesAgree(t, gdb, s, step, tr, qs, hidden)
					}
				}
			}
		}
		agree("before indexing")
		if _, err := s.IndexText(ctx, 5); err != nil { // part of the units
			t.Fatal(err)
		}
		agree("partly indexed")
		catchUp(t, s)
		agree("indexed")
		for i, target := range map[int]string{0: "Kekse löschen", 2: "Restore COOKIES", 5: "\u212aelvin backup"} {
			editTarget(t, s, units[i].ID, target)
		}
		if err := s.DeleteUnit(ctx, units[1].ID, "admin"); err != nil {
			t.Fatal(err)
		}
		agree("after edits and a deletion")
		catchUp(t, s)
		agree("with the edits and the deletion indexed")
		moreID, more := importIndexTexts(t, s, 2) // above the mark
		agree("with new units above the mark")
		editTarget(t, s, more[0].ID, "no more biscuits")
		catchUp(t, s)
		editTarget(t, s, more[2].ID, "cookies restored")
		agree("re-indexed and edited")
		if err := s.DeleteTranslation(ctx, moreID); err != nil { // its units go by the foreign key's cascade
			t.Fatal(err)
		}
		agree("after a translation's deletion")
	}, store.Migrations, outbox.Migrations)
}

// TestTextIndexReplicas: two replicas' indexers, running at once over
// the same database, leave an index that covers every unit as it is
// (PostgreSQL: each claims its own queued units).
func TestTextIndexReplicas(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		a, b := store.New(gdb), store.New(gdb)
		for comp := range int64(4) {
			importIndexTexts(t, a, comp+1)
		}
		errs := make(chan error, 2)
		for _, s := range []*store.Store{a, b} {
			go func() {
				for {
					done, err := s.IndexText(t.Context(), 3)
					if err != nil || done {
						errs <- err
						return
					}
				}
			}()
		}
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		checkTextIndex(t, gdb, "indexed by two replicas")
		indexAgrees(t, gdb, a)
		if db.Dialect(gdb) == db.Postgres {
			var queued int64
			if err := gdb.Raw(`SELECT COUNT(*) FROM unit_text_queue`).Scan(&queued).Error; err != nil || queued != 0 {
				t.Errorf("%d units still queued, %v", queued, err)
			}
		}
	}, store.Migrations, outbox.Migrations)
}

// checkTextIndex checks that unit_text holds what searches take it to
// hold. On SQLite it runs FTS5's integrity check: the index's structure,
// and, once it covers every unit as it is, that it holds exactly the
// units' text (no entry left behind by an edit or deletion). On
// PostgreSQL, every unit not queued has its text copied, no copy is left
// of a deleted unit, and each pair counts the copies that refer to it.
func checkTextIndex(t *testing.T, gdb *gorm.DB, step string) {
	t.Helper()
	if db.Dialect(gdb) == db.Postgres {
		var wrong, orphans, miscounted int64
		if err := gdb.Raw(`SELECT
			(SELECT COUNT(*) FROM units u LEFT JOIN unit_text x ON x.unit_id = u.id LEFT JOIN source_text st ON st.id = x.source_text_id
				WHERE u.id NOT IN (SELECT unit_id FROM unit_text_queue)
				AND (x.translation_id, st.source, CASE WHEN x.target_is_source THEN st.source ELSE x.target END, st.context,
					x.target_is_source AND x.target = '') IS DISTINCT FROM
					(u.translation_id, COALESCE(u.source, ''), COALESCE(u.target, ''), COALESCE(u.context, ''),
					COALESCE(u.source, '') = COALESCE(u.target, ''))),
			(SELECT COUNT(*) FROM unit_text x WHERE NOT EXISTS (SELECT 1 FROM units u WHERE u.id = x.unit_id)),
			(SELECT COUNT(*) FROM source_text st WHERE st.copies <> (SELECT COUNT(*) FROM unit_text x WHERE x.source_text_id = st.id))`).
			Row().Scan(&wrong, &orphans, &miscounted); err != nil {
			t.Fatal(err)
		}
		if wrong != 0 || orphans != 0 || miscounted != 0 {
			t.Errorf("%s: unit_text: %d units neither queued nor indexed as they are, %d copies of deleted units, "+
				"%d pairs whose count of copies is wrong", step, wrong, orphans, miscounted)
		}
		return
	}
	covered, err := store.New(gdb).TextIndexCovered(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	against := 0 // the content table holds text the index does not yet
	if covered {
		against = 1
	}
	if err := gdb.Exec(`INSERT INTO unit_text (unit_text, rank) VALUES ('integrity-check', ?)`, against).Error; err != nil {
		t.Fatalf("%s: unit_text: %v", step, err)
	}
}

// importIndexTexts imports indexTexts as component comp (source and a
// German translation) and answers the translation's id and units.
func importIndexTexts(t *testing.T, s *store.Store, comp int64) (int64, []store.UnitView) {
	t.Helper()
	var src, tr []store.Unit
	for i, p := range indexTexts {
		u := unit(p[0], p[0], 100, 1)
		u.IDHash, u.Context = int64(i+1), fmt.Sprintf("ctx%d", i)
		src = append(src, u)
		u = unit(p[0], p[1], 20, 1)
		u.IDHash, u.Context = int64(i+1), fmt.Sprintf("ctx%d", i)
		tr = append(tr, u)
	}
	source, err := s.ImportTranslation(t.Context(), importSpec(comp, "en", nil, src...))
	if err != nil {
		t.Fatal(err)
	}
	de, err := s.ImportTranslation(t.Context(), importSpec(comp, "de", source.IDs, tr...))
	if err != nil {
		t.Fatal(err)
	}
	units, _, err := s.ListUnits(t.Context(), de.Translation.ID, 0, 100, store.Hidden{})
	if err != nil {
		t.Fatal(err)
	}
	return de.Translation.ID, units
}

func editTarget(t *testing.T, s *store.Store, id int64, target string) {
	t.Helper()
	if _, err := s.EditUnit(t.Context(), id, func(store.UnitView) (store.Edit, error) {
		return store.Edit{Target: target, State: 20, Author: "admin"}, nil
	}); err != nil {
		t.Fatal(err)
	}
}

func catchUp(t *testing.T, s *store.Store) {
	t.Helper()
	for {
		done, err := s.IndexText(t.Context(), 7)
		if err != nil {
			t.Fatal(err)
		}
		if done {
			return
		}
	}
}

// scanIDs is the search's answer without the index.
func scanIDs(t *testing.T, gdb *gorm.DB, translationID int64, q *search.Query) []int64 {
	t.Helper()
	var ids []int64
	var err error
	store.Scanned(func() { ids, err = store.New(gdb).SearchUnitIDs(t.Context(), translationID, q, store.Hidden{}) })
	if err != nil {
		t.Fatal(err)
	}
	return ids
}

// indexedIDs is the search's answer through the index.
func indexedIDs(t *testing.T, gdb *gorm.DB, s *store.Store, translationID int64, q *search.Query) []int64 {
	t.Helper()
	var ids []int64
	throughIndex(t, gdb, s, func(s *store.Store) (err error) {
		ids, err = s.SearchUnitIDs(t.Context(), translationID, q, store.Hidden{})
		return err
	})
	return ids
}

// throughIndex runs fn with s; on PostgreSQL, with a store of a
// transaction with sequential and plain index scans turned off, so that
// a table this small is read through bitmaps of its GIN indexes (and
// JIT off: the cost of a plan without them would have it compile each).
func throughIndex(t *testing.T, gdb *gorm.DB, s *store.Store, fn func(*store.Store) error) {
	t.Helper()
	if db.Dialect(gdb) != db.Postgres {
		if err := fn(s); err != nil {
			t.Fatal(err)
		}
		return
	}
	err := gdb.Transaction(func(tx *gorm.DB) error {
		for _, o := range []string{"enable_seqscan", "enable_indexscan", "jit"} {
			if err := tx.Exec("SET LOCAL " + o + " = off").Error; err != nil {
				return err
			}
		}
		return fn(store.New(tx))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// pagesAgree: SearchUnits (from the index where q allows it, its
// matches listed or counted) answers the scan's count and its pages: all
// matches, two from the second on, and the empty page past the last.
func pagesAgree(t *testing.T, gdb *gorm.DB, s *store.Store, step string, translationID int64, qs string, hidden store.Hidden) {
	t.Helper()
	q, err := search.Parse(qs)
	if err != nil {
		t.Fatal(err)
	}
	var want []int64
	store.Scanned(func() { want, err = store.New(gdb).SearchUnitIDs(t.Context(), translationID, q, hidden) })
	if err != nil {
		t.Fatal(err)
	}
	n := int64(len(want))
	for _, page := range [][2]int64{{0, 0}, {1, 2}, {n, 5}} {
		offset, limit := page[0], page[1]
		wantPage := want[min(offset, n):]
		if limit > 0 {
			wantPage = wantPage[:min(limit, int64(len(wantPage)))]
		}
		for _, how := range []func(func()){func(fn func()) { fn() }, store.Counted} {
			var views []store.UnitView
			var total int64
			how(func() {
				throughIndex(t, gdb, s, func(s *store.Store) (err error) {
					views, total, err = s.SearchUnits(t.Context(), translationID, q, offset, limit, hidden)
					return err
				})
			})
			got := make([]int64, len(views))
			for i, v := range views {
				got[i] = v.ID
			}
			if total != n || !slices.Equal(got, wantPage) {
				t.Errorf("%s, translation %d, %q, hidden %v, offset %d, limit %d: %v of %d, scanned %v of %d",
					step, translationID, qs, hidden, offset, limit, got, total, wantPage, n)
			}
		}
	}
}

// TestTextIndexPlans: the planners read the trigram indexes for a
// substring search: unit_text on SQLite, the pg_trgm GIN index of the
// sources (source_text) on
// PostgreSQL (sequential and plain index scans off, as on a table too
// small to prefer them otherwise).
func TestTextIndexPlans(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		s := store.New(gdb)
		importIndexTexts(t, s, 1)
		catchUp(t, s)
		q, err := search.Parse("source:cookies OR target:restore")
		if err != nil {
			t.Fatal(err)
		}
		plan := store.SearchPlan(t, s, q)
		want := "unit_text VIRTUAL TABLE INDEX"
		if db.Dialect(gdb) == db.Postgres {
			want = "source_text_source_trgm"
		}
		if !strings.Contains(plan, want) {
			t.Errorf("the plan does not name %q:\n%s", want, plan)
		}
	}, store.Migrations, outbox.Migrations)
}

// TestTextIndexWaitsForDeletion: on PostgreSQL, the indexer waits for a
// deletion of a unit it copies under way, and then leaves no copy of the
// deleted unit, which a search counted from the index would count.
func TestTextIndexWaitsForDeletion(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		if db.Dialect(gdb) != db.Postgres {
			t.Skip("SQLite has one writer: the indexer and a deletion never overlap")
		}
		s := store.New(gdb)
		id, _ := untranslatedUnit(t, s) // queued by its import
		waitsForDeletion(t, gdb, id, func() error { _, err := s.IndexText(t.Context(), 100); return err })
		checkTextIndex(t, gdb, "after the deletion")
	}, store.Migrations, outbox.Migrations)
}

// TestUnusedSourcesDropped: on PostgreSQL, the pairs of source and
// context no copy refers to any more (their units deleted, or their
// source changed) are removed, the others kept, and searches still
// answer what a scan does.
func TestUnusedSourcesDropped(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		s := pairsIndexed(t, gdb, 1)
		pairs := func() (n int64) {
			if err := gdb.Raw(`SELECT COUNT(*) FROM source_text`).Scan(&n).Error; err != nil {
				t.Fatal(err)
			}
			return n
		}
		before := pairs()
		if before != int64(len(indexTexts)) {
			t.Fatalf("%d pairs for %d source strings", before, len(indexTexts))
		}
		for _, q := range []string{`DELETE FROM units WHERE context = 'ctx0'`,
			`UPDATE units SET source = source || ' (changed)' WHERE context = 'ctx1'`} {
			if err := gdb.Exec(q).Error; err != nil {
				t.Fatal(err)
			}
		}
		catchUp(t, s)
		if err := store.DropUnusedSources(t.Context(), s); err != nil {
			t.Fatal(err)
		}
		var left int64
		if err := gdb.Raw(`SELECT COUNT(*) FROM source_text WHERE context IN ('ctx0', 'ctx1') AND source NOT LIKE '% (changed)'`).
			Scan(&left).Error; err != nil || left != 0 {
			t.Errorf("%d unused pairs left, %v", left, err)
		}
		if after := pairs(); after != before-1 {
			t.Errorf("%d pairs, want %d", after, before-1)
		}
		checkTextIndex(t, gdb, "tidied")
		indexAgrees(t, gdb, s)
	}, store.Migrations, outbox.Migrations)
}

// TestCopyUpkeep: on PostgreSQL, a large catch-up analyzes the copies and
// vacuums them before its last chunk, so that searches right after it
// plan by current statistics and count from the index alone.
func TestCopyUpkeep(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		if db.Dialect(gdb) != db.Postgres {
			t.Skip("SQLite's index needs no upkeep")
		}
		store.CatchUpInChunksOf(t, 2) // the units of indexTexts are 12 chunks
		s := store.New(gdb)
		importIndexTexts(t, s, 1)
		if err := store.CatchUpText(t.Context(), s); err != nil {
			t.Fatal(err)
		}
		checkTextIndex(t, gdb, "caught up")
		// The statistics counters, not the visibility map: a transaction
		// of a test running beside this one can keep a vacuum from
		// marking pages all visible.
		var vacuums, analyses int64
		if err := gdb.Raw(`SELECT vacuum_count, analyze_count FROM pg_stat_user_tables WHERE relid = to_regclass('unit_text')`).
			Row().Scan(&vacuums, &analyses); err != nil {
			t.Fatal(err)
		}
		if vacuums != 1 || analyses != 2 { // analyzed after 8 chunks, vacuumed and analyzed before the 12th
			t.Errorf("the copies were vacuumed %d times and analyzed %d times, want 1 and 2", vacuums, analyses)
		}
		indexAgrees(t, gdb, s)
	}, store.Migrations, outbox.Migrations)
}

// indexAgrees checks that every query of indexQueries over all units
// finds through the index what a scan finds.
func indexAgrees(t *testing.T, gdb *gorm.DB, s *store.Store) {
	t.Helper()
	for _, qs := range indexQueries {
		q, err := search.Parse(qs)
		if err != nil {
			t.Fatal(err)
		}
		if scanned, indexed := scanIDs(t, gdb, 0, q), indexedIDs(t, gdb, s, 0, q); !slices.Equal(scanned, indexed) {
			t.Errorf("%q: indexed %v, scanned %v", qs, indexed, scanned)
		}
	}
}

// TestSourceCountsMigrated: on PostgreSQL, migration 0026 gives the pairs
// of a database indexed before it their counts of copies, and searches
// counted from them answer what a scan does.
func TestSourceCountsMigrated(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		s := pairsIndexed(t, gdb, 2)
		if err := db.Migrate(t.Context(), gdb, store.Migrations, outbox.Migrations); err != nil {
			t.Fatal(err)
		}
		checkTextIndex(t, gdb, "after migration 0026")
		indexAgrees(t, gdb, s)
	}, migrationsBefore(t, "postgres/0026_source_text_copies.sql"), outbox.Migrations)
}

// migrationsBefore is the store's migrations without file and those
// after it.
func migrationsBefore(t *testing.T, file string) db.Source {
	t.Helper()
	before := fstest.MapFS{}
	err := fs.WalkDir(store.Migrations.FS, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || name >= file && path.Dir(name) == path.Dir(file) {
			return err
		}
		data, err := fs.ReadFile(store.Migrations.FS, name)
		before[name] = &fstest.MapFile{Data: data}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return db.Source{Name: store.Migrations.Name, FS: before}
}

// pairsIndexed imports indexTexts as components 1 to comps and indexes
// them, on PostgreSQL; it skips the test on SQLite, whose index holds
// each unit's text, not pairs.
func pairsIndexed(t *testing.T, gdb *gorm.DB, comps int64) *store.Store {
	t.Helper()
	if db.Dialect(gdb) != db.Postgres {
		t.Skip("SQLite's index holds each unit's text, not pairs")
	}
	s := store.New(gdb)
	for comp := range comps {
		importIndexTexts(t, s, comp+1)
	}
	catchUp(t, s)
	return s
}
