package store_test

import (
	"testing"

	"gorm.io/gorm"

	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// testProjection: each write to a project records its snapshot event and
// a newer revision; Snapshot reads the project at its revision, and a
// deleted one as removed; SeedProjection records, once, the projects
// stored before the projection existed.
func testProjection(t *testing.T, s *store.Store, gdb *gorm.DB) {
	ctx := t.Context()
	seed(t, s)
	if err := gdb.Exec("DELETE FROM projection_events").Error; err != nil { // the seeded languages'
		t.Fatal(err)
	}
	events := func() int64 {
		t.Helper()
		var n int64
		if err := gdb.Table("projection_events").Count(&n).Error; err != nil {
			t.Fatal(err)
		}
		return n
	}
	p := newProject("hello")
	if err := s.CreateProject(ctx, p, "", nil); err != nil {
		t.Fatal(err)
	}
	c := &store.Component{ProjectID: p.ID, Name: "App", Slug: "app", SourceLanguageCode: "en", FileFormat: "po",
		Filemask: "po/*.po", Repo: "https://example.com/r.git"}
	if err := s.CreateComponent(ctx, c, nil); err != nil {
		t.Fatal(err)
	}
	snap, err := s.Snapshot(ctx, p.ID)
	if err != nil || snap.Revision != 2 || snap.Project == nil || snap.Project.Slug != "hello" || len(snap.Components) != 1 || snap.Components[0].ProjectSlug != "hello" {
		t.Fatalf("snapshot after two writes: %+v, %v", snap, err)
	}
	if n := events(); n != 2 {
		t.Errorf("%d events, want 2", n)
	}
	if _, _, err = s.SetComponentLock(ctx, "hello", "app", true, func(store.Component) *changelogv1.Change { return nil }); err != nil {
		t.Fatal(err)
	}
	if snap, _ = s.Snapshot(ctx, p.ID); snap.Revision != 3 || !snap.Components[0].Locked {
		t.Errorf("after the lock: revision %d, locked %v", snap.Revision, snap.Components[0].Locked)
	}

	// A catalog of an older release: no revisions, no events.
	for _, table := range []string{"projection_events", "projection_revisions"} {
		if err = gdb.Exec("DELETE FROM " + table).Error; err != nil {
			t.Fatal(err)
		}
	}
	for range 2 {
		if err = s.SeedProjection(ctx); err != nil {
			t.Fatal(err)
		}
	}
	if n := events(); n != 2 {
		t.Errorf("after seeding twice: %d events, want 2 (the project's, the language table's)", n)
	}
	if snap, _ = s.Snapshot(ctx, p.ID); snap.Revision != 1 || len(snap.Components) != 1 {
		t.Errorf("seeded snapshot: revision %d, %d components", snap.Revision, len(snap.Components))
	}

	testLanguageTable(t, s)

	if err = s.DeleteProject(ctx, "hello", nil, func(store.Component) *changelogv1.Change { return nil }); err != nil {
		t.Fatal(err)
	}
	if snap, err = s.Snapshot(ctx, p.ID); err != nil || snap.Project != nil || snap.Revision != 2 {
		t.Errorf("deleted project: %+v, %v; want removed at revision 2", snap, err)
	}
}

// testLanguageTable: every write to a language or a plural adds one to
// the table's revision, and a write that changes nothing does not.
func testLanguageTable(t *testing.T, s *store.Store) {
	ctx := t.Context()
	before, err := s.LanguageTable(ctx)
	if err != nil {
		t.Fatal(err)
	}
	xx, err := s.CreateLanguage(ctx, store.Language{Code: "xx", Name: "X", PluralNumber: 2, PluralFormula: "n != 1"})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // the second finds the rule stored
		if _, err = s.CreatePlural(ctx, store.Plural{LanguageID: xx.ID, Source: 1, Number: 3, Formula: "n==1 ? 0 : n==2 ? 1 : 2"}); err != nil {
			t.Fatal(err)
		}
	}
	after, err := s.LanguageTable(ctx)
	if err != nil || after.Revision != before.Revision+2 || len(after.Plurals) != len(before.Plurals)+1 ||
		len(after.Languages) != len(before.Languages)+1 {
		t.Errorf("after a new language and plural: revision %d (was %d), %d plurals (were %d), %v", after.Revision, before.Revision,
			len(after.Plurals), len(before.Plurals), err)
	}
	if _, err = s.CreateLanguage(ctx, store.Language{Code: "xx", Name: "again"}); err != nil {
		t.Fatal(err)
	}
	if again, _ := s.LanguageTable(ctx); again.Revision != after.Revision {
		t.Errorf("a language created twice: revision %d, want %d", again.Revision, after.Revision)
	}
}
