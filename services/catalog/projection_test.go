package catalog_test

import (
	"slices"
	"testing"

	"google.golang.org/protobuf/types/known/fieldmaskpb"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/catalog"
)

// TestSnapshotsReachTheTranslationService: after each write to a project
// or its components, and before the write answers, the translation
// service holds a snapshot of the project as it now is, at a newer
// revision; a deleted project's snapshot says so.
func TestSnapshotsReachTheTranslationService(t *testing.T) {
	peer := &translationPeer{}
	svc := startWithPeer(t, catalog.Config{Translation: peer})
	defer runRelays(t, svc)()
	ctx, srv := t.Context(), svc.Server()
	created, err := srv.CreateProject(ctx, &catalogv1.CreateProjectRequest{Project: &catalogv1.Project{Name: "A", Slug: "a", Web: "https://example.com/"}})
	if err != nil {
		t.Fatal(err)
	}
	pid := created.GetProject().GetId()
	mask := func(p ...string) *fieldmaskpb.FieldMask { return &fieldmaskpb.FieldMask{Paths: p} }
	steps := []struct {
		name  string
		write func() error
		check func(*translationv1.CatalogSnapshot) bool
	}{
		{"project created", func() error { return nil },
			func(s *translationv1.CatalogSnapshot) bool {
				return s.GetProject().GetSlug() == "a" && len(s.GetComponents()) == 0
			}},
		{"component created", func() error {
			_, err := srv.CreateComponent(ctx, &catalogv1.CreateComponentRequest{Component: &catalogv1.Component{ProjectSlug: "a", Name: "C", Slug: "c",
				FileFormat: "po", Filemask: "po/*.po", Repo: "https://user:secret@example.com/r.git"}})
			return err
		}, func(s *translationv1.CatalogSnapshot) bool {
			// The service's own view: credentials included, which git needs.
			return len(s.GetComponents()) == 1 && s.GetComponents()[0].GetRepo() == "https://user:secret@example.com/r.git"
		}},
		{"component setting", func() error {
			_, err := srv.UpdateComponent(ctx, &catalogv1.UpdateComponentRequest{ProjectSlug: "a", Slug: "c",
				Component: &catalogv1.Component{CheckFlags: "max-length:10"}, UpdateMask: mask("check_flags")})
			return err
		}, func(s *translationv1.CatalogSnapshot) bool {
			return len(s.GetComponents()) == 1 && s.GetComponents()[0].GetCheckFlags() == "max-length:10"
		}},
		{"component locked", func() error {
			_, err := srv.SetComponentLock(ctx, &catalogv1.SetComponentLockRequest{ProjectSlug: "a", Slug: "c", Locked: true})
			return err
		}, func(s *translationv1.CatalogSnapshot) bool {
			return len(s.GetComponents()) == 1 && s.GetComponents()[0].GetLocked()
		}},
		{"project renamed and made private", func() error {
			_, err := srv.UpdateProject(ctx, &catalogv1.UpdateProjectRequest{Slug: "a", Project: &catalogv1.Project{Slug: "a2",
				AccessControl: typev1.AccessControl_ACCESS_CONTROL_PRIVATE}, UpdateMask: mask("slug", "access_control")})
			return err
		}, func(s *translationv1.CatalogSnapshot) bool {
			return s.GetProject().GetSlug() == "a2" && s.GetProject().GetAccessControl() == typev1.AccessControl_ACCESS_CONTROL_PRIVATE &&
				len(s.GetComponents()) == 1 && s.GetComponents()[0].GetProjectSlug() == "a2"
		}},
		{"component deleted", func() error {
			_, err := srv.DeleteComponent(ctx, &catalogv1.DeleteComponentRequest{ProjectSlug: "a2", Slug: "c"})
			return err
		}, func(s *translationv1.CatalogSnapshot) bool { return !s.GetRemoved() && len(s.GetComponents()) == 0 }},
		{"project deleted", func() error {
			_, err := srv.DeleteProject(ctx, &catalogv1.DeleteProjectRequest{Slug: "a2"})
			return err
		}, func(s *translationv1.CatalogSnapshot) bool { return s.GetRemoved() && s.GetProject() == nil }},
	}
	var revisions []int64
	for _, step := range steps {
		if err := step.write(); err != nil {
			t.Fatalf("%s: %v", step.name, err)
		}
		got := peer.snapshot(pid)
		if got == nil || !step.check(got) {
			t.Fatalf("%s: snapshot when the write answered: %v", step.name, got)
		}
		revisions = append(revisions, got.GetRevision())
	}
	if !slices.IsSorted(revisions) || len(slices.Compact(slices.Clone(revisions))) != len(revisions) {
		t.Errorf("revisions %v: want each newer than the last", revisions)
	}
}
