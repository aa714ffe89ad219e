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
	if n := events(); n != 1 {
		t.Errorf("after seeding twice: %d events, want 1", n)
	}
	if snap, _ = s.Snapshot(ctx, p.ID); snap.Revision != 1 || len(snap.Components) != 1 {
		t.Errorf("seeded snapshot: revision %d, %d components", snap.Revision, len(snap.Components))
	}

	if err = s.DeleteProject(ctx, "hello", nil, func(store.Component) *changelogv1.Change { return nil }); err != nil {
		t.Fatal(err)
	}
	if snap, err = s.Snapshot(ctx, p.ID); err != nil || snap.Project != nil || snap.Revision != 2 {
		t.Errorf("deleted project: %+v, %v; want removed at revision 2", snap, err)
	}
}
