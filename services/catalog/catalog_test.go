package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/tmsproject/tms/pkg/grpctest"
	"github.com/tmsproject/tms/pkg/lang"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/catalog"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// sink is a changelog peer that keeps what it is sent.
type sink struct {
	changelogv1.UnimplementedChangelogServiceServer
	mu      sync.Mutex
	changes []*changelogv1.Change
}

func (s *sink) AppendChanges(_ context.Context, req *changelogv1.AppendChangesRequest) (*changelogv1.AppendChangesResponse, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.changes = append(s.changes, req.GetChanges()...)
	return &changelogv1.AppendChangesResponse{Stored: int64(len(req.GetChanges()))}, nil
}

func (s *sink) received() []*changelogv1.Change {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*changelogv1.Change(nil), s.changes...)
}

// changelogPeer serves s in process and returns a client for it.
func changelogPeer(t *testing.T, s *sink) changelogv1.ChangelogServiceClient {
	return changelogv1.NewChangelogServiceClient(grpctest.Serve(t, func(srv grpc.ServiceRegistrar) {
		changelogv1.RegisterChangelogServiceServer(srv, s)
	}))
}

// TestServiceDeliversAndReopens creates a project, checks the change record
// reaches the changelog, and that a restart on the same data directory
// keeps the data and the language ids.
func TestServiceDeliversAndReopens(t *testing.T) {
	dir := t.TempDir()
	s := &sink{}
	cfg := catalog.Config{DataDir: dir, Log: quiet, Changelog: changelogPeer(t, s)}
	svc, err := catalog.New(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()

	_, err = svc.Server().CreateProject(t.Context(), &catalogv1.CreateProjectRequest{
		Project: &catalogv1.Project{Name: "Demo", Slug: "demo", Web: "https://example.com/"}, Actor: "admin"})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for len(s.received()) == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	got := s.received()
	if len(got) != 1 || got[0].GetAction() != typev1.ChangeAction_CHANGE_ACTION_CREATE_PROJECT || got[0].GetProjectSlug() != "demo" || got[0].GetEventId() == "" {
		t.Fatalf("delivered: %v", got)
	}
	cs, err := svc.Server().GetLanguage(t.Context(), &catalogv1.GetLanguageRequest{Code: "cs"})
	if err != nil {
		t.Fatal(err)
	}
	cancel()
	if err = <-done; err != nil {
		t.Fatal(err)
	}
	if err = svc.Close(); err != nil {
		t.Fatal(err)
	}

	svc, err = catalog.New(t.Context(), catalog.Config{DataDir: dir, Log: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if cerr := svc.Close(); cerr != nil {
			t.Error(cerr)
		}
	}()
	list, err := svc.Server().ListLanguages(t.Context(), &catalogv1.ListLanguagesRequest{Limit: 1})
	if err != nil || list.GetTotal() != int64(len(lang.All())) {
		t.Fatalf("languages after restart: %v %v", list.GetTotal(), err)
	}
	again, err := svc.Server().GetLanguage(t.Context(), &catalogv1.GetLanguageRequest{Code: "cs"})
	if err != nil || again.GetLanguage().GetId() != cs.GetLanguage().GetId() {
		t.Fatalf("language id changed: %v -> %v (%v)", cs, again, err)
	}
	if _, err := svc.Server().GetProject(t.Context(), &catalogv1.GetProjectRequest{Slug: "demo"}); err != nil {
		t.Fatal(err)
	}
}

func TestConfigNeedsAPlace(t *testing.T) {
	if _, err := catalog.New(t.Context(), catalog.Config{Log: quiet}); err == nil {
		t.Fatal("New without data directory or database succeeded")
	}
}

// translationPeer is the translation service as the catalog calls it: it
// starts every import and fails the first removals it is handed.
type translationPeer struct {
	mu        sync.Mutex
	failFirst int
	forgotten []int64
	projects  []int64
	ops       []string                                 // renames and removals in the order they arrived
	snaps     map[int64]*translationv1.CatalogSnapshot // the latest of each project
}

func (p *translationPeer) ApplyCatalogSnapshots(ctx context.Context, req *translationv1.ApplyCatalogSnapshotsRequest, _ ...grpc.CallOption) (*translationv1.ApplyCatalogSnapshotsResponse, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := policy.FromContext(ctx); ok {
		return nil, errors.New("snapshots are the catalog's own calls")
	}
	if p.snaps == nil {
		p.snaps = map[int64]*translationv1.CatalogSnapshot{}
	}
	for _, s := range req.GetSnapshots() {
		if old := p.snaps[s.GetProjectId()]; old.GetRevision() < s.GetRevision() {
			p.snaps[s.GetProjectId()] = s
		}
	}
	return &translationv1.ApplyCatalogSnapshotsResponse{}, nil
}

// snapshot is the latest snapshot of the project the peer holds.
func (p *translationPeer) snapshot(id int64) *translationv1.CatalogSnapshot {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.snaps[id]
}

func (p *translationPeer) RenameComponents(ctx context.Context, req *translationv1.RenameComponentsRequest, _ ...grpc.CallOption) (*translationv1.RenameComponentsResponse, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := policy.FromContext(ctx); ok {
		return nil, errors.New("renames are the catalog's own calls")
	}
	for _, c := range req.GetComponents() {
		p.ops = append(p.ops, fmt.Sprintf("rename %d %s/%s", c.GetComponentId(), c.GetProjectSlug(), c.GetComponentSlug()))
	}
	return &translationv1.RenameComponentsResponse{}, nil
}

func (p *translationPeer) RecheckComponents(ctx context.Context, req *translationv1.RecheckComponentsRequest, _ ...grpc.CallOption) (*translationv1.RecheckComponentsResponse, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := policy.FromContext(ctx); ok {
		return nil, errors.New("rechecks are the catalog's own calls")
	}
	for _, id := range req.GetComponentIds() {
		op := fmt.Sprintf("recheck %d", id)
		if req.GetEnforce() {
			op += " enforce"
		}
		p.ops = append(p.ops, op)
	}
	return &translationv1.RecheckComponentsResponse{}, nil
}

func (p *translationPeer) ImportComponent(context.Context, *translationv1.ImportComponentRequest, ...grpc.CallOption) (*translationv1.ImportComponentResponse, error) {
	return &translationv1.ImportComponentResponse{Task: &translationv1.Task{Id: "t"}}, nil
}

func (p *translationPeer) ForgetComponents(ctx context.Context, req *translationv1.ForgetComponentsRequest, _ ...grpc.CallOption) (*translationv1.ForgetComponentsResponse, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if _, ok := policy.FromContext(ctx); ok {
		return nil, errors.New("removals are the catalog's own calls")
	}
	if p.failFirst > 0 {
		p.failFirst--
		return nil, errors.New("translation service unavailable")
	}
	p.forgotten = append(p.forgotten, req.GetComponentIds()...)
	for _, id := range req.GetComponentIds() {
		p.ops = append(p.ops, fmt.Sprintf("forget %d", id))
	}
	p.projects = append(p.projects, req.GetProjectIds()...)
	return &translationv1.ForgetComponentsResponse{}, nil
}

func (p *translationPeer) got() ([]int64, []int64) {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.forgotten), slices.Clone(p.projects)
}

// TestRemovalsReachTheTranslationService deletes a component and a
// project while the translation service fails: the removals are retried
// until it takes them, and listed as removed until then.
func TestRemovalsReachTheTranslationService(t *testing.T) {
	peer := &translationPeer{failFirst: 2}
	svc := startWithPeer(t, catalog.Config{Translation: peer})
	ctx := t.Context()
	srv := svc.Server()
	var ids []int64
	var err error
	for _, p := range []string{"a", "b"} {
		if _, err = srv.CreateProject(ctx, &catalogv1.CreateProjectRequest{Project: &catalogv1.Project{Name: p, Slug: p, Web: "https://example.com/"}}); err != nil {
			t.Fatal(err)
		}
		resp, cerr := srv.CreateComponent(ctx, &catalogv1.CreateComponentRequest{Component: &catalogv1.Component{ProjectSlug: p, Name: "C", Slug: "c",
			FileFormat: "po", Filemask: "po/*.po", Repo: "https://example.com/r.git"}})
		if cerr != nil || resp.GetImportTaskId() != "t" {
			t.Fatalf("create: %v, %v", resp, cerr)
		}
		ids = append(ids, resp.GetComponent().GetId())
	}
	if _, err = srv.DeleteComponent(ctx, &catalogv1.DeleteComponentRequest{ProjectSlug: "a", Slug: "c"}); err != nil {
		t.Fatal(err)
	}
	proj, err := srv.GetProject(ctx, &catalogv1.GetProjectRequest{Slug: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.DeleteProject(ctx, &catalogv1.DeleteProjectRequest{Slug: "b"}); err != nil {
		t.Fatal(err)
	}
	if removed, err := srv.ListRemovedComponents(ctx, &catalogv1.ListRemovedComponentsRequest{}); err != nil || !slices.Equal(removed.GetComponentIds(), ids) {
		t.Fatalf("removed before delivery: %v, %v; want %v", removed.GetComponentIds(), err, ids)
	}
	run, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- svc.Run(run) }()
	defer func() {
		cancel()
		if rerr := <-done; rerr != nil {
			t.Errorf("Run: %v", rerr)
		}
	}()
	deadline := time.Now().Add(10 * time.Second)
	for {
		forgotten, projects := peer.got()
		removed, err := srv.ListRemovedComponents(ctx, &catalogv1.ListRemovedComponentsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if slices.Equal(forgotten, ids) && slices.Equal(projects, []int64{proj.GetProject().GetId()}) && len(removed.GetComponentIds()) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("forgotten %v and projects %v, still listed %v; want %v and %d forgotten, none listed",
				forgotten, projects, removed.GetComponentIds(), ids, proj.GetProject().GetId())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestRenamesReachTheTranslationService renames a project and then one of
// its components, changes the flags the quality checks read, and deletes
// the component: the translation service is handed the new names, the
// rechecks and the removal in that order, and the renames are recorded as
// Weblate records them.
func TestRenamesReachTheTranslationService(t *testing.T) {
	peer := &translationPeer{}
	svc := startWithPeer(t, catalog.Config{Translation: peer})
	ctx, srv := t.Context(), svc.Server()
	_, err := srv.CreateProject(ctx, &catalogv1.CreateProjectRequest{Project: &catalogv1.Project{Name: "A", Slug: "a", Web: "https://example.com/"}})
	if err != nil {
		t.Fatal(err)
	}
	var ids []int64
	for _, slug := range []string{"c", "d"} {
		resp, cerr := srv.CreateComponent(ctx, &catalogv1.CreateComponentRequest{Component: &catalogv1.Component{ProjectSlug: "a", Name: strings.ToUpper(slug), Slug: slug,
			FileFormat: "po", Filemask: slug + "/*.po", Repo: "https://example.com/" + slug + ".git"}})
		if cerr != nil {
			t.Fatal(cerr)
		}
		ids = append(ids, resp.GetComponent().GetId())
	}
	steps := []func() error{
		func() error {
			_, err := srv.UpdateProject(ctx, &catalogv1.UpdateProjectRequest{Slug: "a", Project: &catalogv1.Project{Slug: "a2"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"slug"}}})
			return err
		},
		func() error { // a change of name only renames nothing
			_, err := srv.UpdateProject(ctx, &catalogv1.UpdateProjectRequest{Slug: "a2", Project: &catalogv1.Project{Name: "A2"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"name"}}})
			return err
		},
		func() error {
			_, err := srv.UpdateComponent(ctx, &catalogv1.UpdateComponentRequest{ProjectSlug: "a2", Slug: "c", Component: &catalogv1.Component{Slug: "c2"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"slug"}}})
			return err
		},
		func() error {
			return updateComponent(ctx, srv, "d", &catalogv1.Component{CheckFlags: "max-length:10"}, "check_flags")
		},
		func() error { // the same flags again: nothing to recheck
			return updateComponent(ctx, srv, "d", &catalogv1.Component{CheckFlags: "max-length:10"}, "check_flags")
		},
		func() error {
			return updateComponent(ctx, srv, "d", &catalogv1.Component{EnforcedChecks: []string{"same"}}, "enforced_checks")
		},
		func() error {
			_, err := srv.UpdateProject(ctx, &catalogv1.UpdateProjectRequest{Slug: "a2", Project: &catalogv1.Project{CheckFlags: "c-format"},
				UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"check_flags"}}})
			return err
		},
		func() error {
			_, err := srv.DeleteComponent(ctx, &catalogv1.DeleteComponentRequest{ProjectSlug: "a2", Slug: "c2"})
			return err
		},
	}
	for i, step := range steps {
		if err := step(); err != nil {
			t.Fatalf("step %d: %v", i, err)
		}
	}
	run, cancel := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- svc.Run(run) }()
	defer func() {
		cancel()
		if rerr := <-done; rerr != nil {
			t.Errorf("Run: %v", rerr)
		}
	}()
	want := []string{fmt.Sprintf("rename %d a2/c", ids[0]), fmt.Sprintf("rename %d a2/d", ids[1]),
		fmt.Sprintf("rename %d a2/c2", ids[0]), fmt.Sprintf("recheck %d", ids[1]), fmt.Sprintf("recheck %d enforce", ids[1]),
		fmt.Sprintf("recheck %d", ids[0]), fmt.Sprintf("recheck %d", ids[1]), fmt.Sprintf("forget %d", ids[0])}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		peer.mu.Lock()
		got := slices.Clone(peer.ops)
		peer.mu.Unlock()
		if slices.Equal(got, want) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the translation service was handed %q, want %q", got, want)
		}
	}
}

// updateComponent changes the fields paths of component slug of project a2.
func updateComponent(ctx context.Context, srv catalogv1.CatalogServiceServer, slug string, c *catalogv1.Component, paths ...string) error {
	_, err := srv.UpdateComponent(ctx, &catalogv1.UpdateComponentRequest{ProjectSlug: "a2", Slug: slug, Component: c,
		UpdateMask: &fieldmaskpb.FieldMask{Paths: paths}})
	return err
}

// startWithPeer starts the catalog on a fresh data directory with cfg's
// peers, closed when the test ends.
func startWithPeer(t *testing.T, cfg catalog.Config) *catalog.Service {
	t.Helper()
	cfg.DataDir, cfg.Log = t.TempDir(), quiet
	svc, err := catalog.New(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cerr := svc.Close(); cerr != nil {
			t.Error(cerr)
		}
	})
	return svc
}

// runRelays runs the service's relays until the returned stop.
func runRelays(t *testing.T, svc *catalog.Service) (stop func()) {
	t.Helper()
	run, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- svc.Run(run) }()
	return func() {
		cancel()
		if rerr := <-done; rerr != nil {
			t.Errorf("Run: %v", rerr)
		}
	}
}
