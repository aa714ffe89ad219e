package store_test

import (
	"errors"
	"slices"
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// TestComponentReadsFollowWrites: a component read again, by id or by
// slugs, shows every write since, whether or not reads are cached (on
// SQLite they are): a lock, a rename, a change of its project's access
// and a delete, which lists it among the pending removals; a caller
// changing what it got changes nothing stored.
func TestComponentReadsFollowWrites(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		p := newProject("cached")
		if err := s.CreateProject(ctx, p, "", nil); err != nil {
			t.Fatal(err)
		}
		c := newComponent(p.ID, "main")
		c.EnforcedChecks = []string{"same"}
		if err := s.CreateComponent(ctx, c, nil); err != nil {
			t.Fatal(err)
		}
		read := func(t *testing.T, slug string) (*store.Component, *store.Component) {
			t.Helper()
			byID, err := s.GetComponentByID(ctx, c.ID)
			if err != nil {
				t.Fatal(err)
			}
			bySlug, err := s.GetComponent(ctx, "cached", slug)
			if err != nil {
				t.Fatal(err)
			}
			return byID, bySlug
		}
		got, _ := read(t, "main")
		got.EnforcedChecks[0], got.Locked = "changed by a caller", true
		t.Run("a caller's copy", func(t *testing.T) {
			byID, bySlug := read(t, "main")
			for _, r := range []*store.Component{byID, bySlug} {
				if r.EnforcedChecks[0] != "same" || r.Locked {
					t.Errorf("read %v locked %v after a caller changed its copy", r.EnforcedChecks, r.Locked)
				}
			}
		})
		t.Run("lock", func(t *testing.T) {
			if _, _, err := s.SetComponentLock(ctx, "cached", "main", true, noChange); err != nil {
				t.Fatal(err)
			}
			byID, bySlug := read(t, "main")
			if !byID.Locked || !bySlug.Locked {
				t.Errorf("locked by id %v, by slug %v", byID.Locked, bySlug.Locked)
			}
		})
		t.Run("rename", func(t *testing.T) {
			cur, _ := read(t, "main")
			cur.Slug = "renamed"
			if err := s.SaveComponent(ctx, cur, nil); err != nil {
				t.Fatal(err)
			}
			if _, err := s.GetComponent(ctx, "cached", "main"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("the old slug answers %v, want not found", err)
			}
			byID, bySlug := read(t, "renamed")
			if byID.Slug != "renamed" || bySlug.ID != c.ID {
				t.Errorf("by id %q, by new slug id %d", byID.Slug, bySlug.ID)
			}
		})
		t.Run("project access", func(t *testing.T) {
			proj, err := s.GetProject(ctx, "cached")
			if err != nil {
				t.Fatal(err)
			}
			proj.AccessControl = 100
			if err := s.SaveProject(ctx, proj, nil); err != nil {
				t.Fatal(err)
			}
			byID, bySlug := read(t, "renamed")
			if byID.ProjectAccess != 100 || bySlug.ProjectAccess != 100 {
				t.Errorf("project access by id %d, by slug %d, want 100", byID.ProjectAccess, bySlug.ProjectAccess)
			}
		})
		t.Run("delete", func(t *testing.T) {
			if removed, err := s.RemovedComponents(ctx); err != nil || len(removed) != 0 {
				t.Fatalf("removed before the delete: %v, %v", removed, err)
			}
			if err := s.DeleteComponent(ctx, "cached", "renamed", noChange); err != nil {
				t.Fatal(err)
			}
			if _, err := s.GetComponentByID(ctx, c.ID); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("by id after delete: %v", err)
			}
			if _, err := s.GetComponent(ctx, "cached", "renamed"); !errors.Is(err, store.ErrNotFound) {
				t.Errorf("by slug after delete: %v", err)
			}
			if removed, err := s.RemovedComponents(ctx); err != nil || !slices.Contains(removed, c.ID) {
				t.Errorf("removed after the delete: %v (%v), want it to hold %d", removed, err, c.ID)
			}
		})
	}, store.Sources()...)
}

func noChange(c store.Component) *changelogv1.Change {
	return &changelogv1.Change{Action: typev1.ChangeAction_CHANGE_ACTION_COMPLETE, ProjectSlug: c.ProjectSlug, ComponentSlug: c.Slug}
}
