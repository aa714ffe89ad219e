package store_test

import (
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/outbox"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// TestCatalogCopy: the copy of the catalog on both engines takes newer
// snapshots only, marks the components a snapshot leaves out removed,
// forgets them, follows a removed project, and versions the access list.
func TestCatalogCopy(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx, s := t.Context(), store.New(gdb)
		snap := func(rev int64, slug string, access typev1.AccessControl, comps ...string) *translationv1.CatalogSnapshot {
			out := &translationv1.CatalogSnapshot{ProjectId: 1, Revision: rev,
				Project: &catalogv1.Project{Id: 1, Slug: slug, AccessControl: access, UseSharedTm: true}}
			for i, c := range comps {
				if c != "" {
					out.Components = append(out.Components, &catalogv1.Component{Id: int64(i + 1), ProjectSlug: slug, Slug: c})
				}
			}
			return out
		}
		apply := func(want bool, sn *translationv1.CatalogSnapshot) {
			t.Helper()
			if got, err := s.ApplySnapshot(ctx, sn); err != nil || got != want {
				t.Fatalf("apply revision %d: %v, %v; want %v", sn.GetRevision(), got, err, want)
			}
		}
		apply(true, snap(2, "p", typev1.AccessControl_ACCESS_CONTROL_PUBLIC, "a", "b"))
		apply(false, snap(1, "old", typev1.AccessControl_ACCESS_CONTROL_PUBLIC, "x")) // late and older
		apply(false, snap(2, "p", typev1.AccessControl_ACCESS_CONTROL_PUBLIC, "a"))   // the same again
		if c, err := s.CatalogComponentBySlugs(ctx, "p", "b"); err != nil || c.GetId() != 2 {
			t.Fatalf("component by slugs: %v, %v", c, err)
		}
		access, err := s.ProjectAccess(ctx, "")
		if err != nil || len(access.GetProjects()) != 1 || access.GetProjects()[0].GetSlug() != "p" || !access.GetProjects()[0].GetUseSharedTm() {
			t.Fatalf("access: %v, %v", access, err)
		}
		if same, err := s.ProjectAccess(ctx, access.GetVersion()); err != nil || !same.GetUnchanged() {
			t.Errorf("access again: %v, %v; want unchanged", same, err)
		}

		// Read (and on SQLite kept) before the next snapshot; a caller's
		// change to what it got is its own.
		if c, err := s.CatalogComponent(ctx, 1); err != nil || c.GetProjectSlug() != "p" {
			t.Fatalf("component 1: %v, %v", c, err)
		} else {
			c.ProjectSlug = "changed by a caller"
		}
		if c, _ := s.CatalogComponent(ctx, 1); c.GetProjectSlug() != "p" {
			t.Errorf("a caller's change reached the copy: %q", c.GetProjectSlug())
		}
		if removed, err := s.RemovedComponents(ctx); err != nil || len(removed) != 0 {
			t.Errorf("removed before: %v, %v", removed, err)
		}
		apply(true, snap(3, "q", typev1.AccessControl_ACCESS_CONTROL_PRIVATE, "a")) // renamed, made private, b deleted
		if _, err := s.CatalogComponent(ctx, 2); errs.KindOf(err) != errs.NotFound {
			t.Errorf("deleted component: %v, want NotFound", err)
		}
		if c, err := s.CatalogComponent(ctx, 1); err != nil || c.GetProjectSlug() != "q" {
			t.Errorf("renamed project's component: %v, %v", c, err)
		}
		if removed, err := s.RemovedComponents(ctx); err != nil || len(removed) != 1 || removed[0] != 2 {
			t.Errorf("removed: %v, %v; want [2]", removed, err)
		}
		if now, err := s.ProjectAccess(ctx, access.GetVersion()); err != nil || now.GetUnchanged() ||
			now.GetProjects()[0].GetAccessControl() != typev1.AccessControl_ACCESS_CONTROL_PRIVATE {
			t.Errorf("access after the change: %v, %v", now, err)
		}
		if err := s.ForgetCatalogComponents(ctx, []int64{2}); err != nil {
			t.Fatal(err)
		}
		if removed, err := s.RemovedComponents(ctx); err != nil || len(removed) != 0 {
			t.Errorf("removed after forgetting: %v, %v", removed, err)
		}

		apply(true, &translationv1.CatalogSnapshot{ProjectId: 1, Revision: 4, Removed: true})
		apply(false, snap(3, "q", typev1.AccessControl_ACCESS_CONTROL_PUBLIC, "a")) // no coming back
		if _, err := s.CatalogProject(ctx, "q"); errs.KindOf(err) != errs.NotFound {
			t.Errorf("removed project: %v", err)
		}
		if _, err := s.CatalogComponent(ctx, 1); errs.KindOf(err) != errs.NotFound {
			t.Errorf("component of the removed project: %v", err)
		}
		if all, err := s.ProjectAccess(ctx, ""); err != nil || len(all.GetProjects()) != 0 {
			t.Errorf("access after the removal: %v, %v", all, err)
		}
	}, store.Migrations, outbox.Migrations)
}
