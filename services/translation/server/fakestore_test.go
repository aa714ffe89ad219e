package server_test

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"testing"

	"google.golang.org/grpc"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/server"
	"github.com/tmsproject/tms/services/translation/store"
)

// fakeStore stands in for the roles the server's reads of units and its
// copy of the catalog use, in memory: the server's logic (visibility,
// who may send snapshots) runs without a database. A role a test does
// not fake panics when called (the nil embedded Store).
type fakeStore struct {
	server.Store
	units      map[int64]store.UnitView
	components map[int64]*catalogv1.Component
	projects   map[string]*catalogv1.Project
	removed    []int64
	applied    []*translationv1.CatalogSnapshot
}

func (f *fakeStore) GetUnit(_ context.Context, id int64) (store.UnitView, error) {
	u, ok := f.units[id]
	if !ok {
		return u, errs.NotFoundf("Not found.")
	}
	return u, nil
}

func (f *fakeStore) LabelsOf(context.Context, []store.UnitView) (map[int64][]store.Label, error) {
	return nil, nil
}

func (f *fakeStore) CatalogComponent(_ context.Context, id int64) (*catalogv1.Component, error) {
	if c, ok := f.components[id]; ok && !slices.Contains(f.removed, id) {
		return c, nil
	}
	return nil, errs.NotFoundf("Not found.")
}

func (f *fakeStore) RemovedComponents(context.Context) ([]int64, error) { return f.removed, nil }

func (f *fakeStore) ApplySnapshot(_ context.Context, snap *translationv1.CatalogSnapshot) (bool, error) {
	f.applied = append(f.applied, snap)
	return true, nil
}

// GetProjectAccess answers the access of the fake's projects (the
// policy's view of the copy).
func (f *fakeStore) GetProjectAccess(context.Context, *catalogv1.GetProjectAccessRequest, ...grpc.CallOption) (*catalogv1.GetProjectAccessResponse, error) {
	out := &catalogv1.GetProjectAccessResponse{Version: "fake"}
	for _, p := range f.projects {
		out.Projects = append(out.Projects, &catalogv1.ProjectAccess{Slug: p.GetSlug(), AccessControl: p.GetAccessControl()})
	}
	return out, nil
}

// newFakeServer is a server on a fake store holding one unit in each of
// a public project (unit 1, component 1) and a private one (unit 2,
// component 2), and a unit of a deleted component (unit 3).
func newFakeServer() (*server.Server, *fakeStore) {
	f := &fakeStore{units: map[int64]store.UnitView{}, components: map[int64]*catalogv1.Component{},
		projects: map[string]*catalogv1.Project{
			"open":   {Slug: "open", AccessControl: typev1.AccessControl_ACCESS_CONTROL_PUBLIC},
			"secret": {Slug: "secret", AccessControl: typev1.AccessControl_ACCESS_CONTROL_PRIVATE},
		}}
	for id, project := range map[int64]string{1: "open", 2: "secret", 3: "open"} {
		f.components[id] = &catalogv1.Component{Id: id, ProjectSlug: project, Slug: "c"}
		f.units[id] = store.UnitView{Unit: store.Unit{ID: id, TranslationID: id, Source: "Hello"},
			Translation: store.Translation{ID: id, ComponentID: id, ProjectSlug: project, LanguageCode: "de"}}
	}
	f.removed = []int64{3}
	srv := server.New(server.Config{Store: f, Projects: policy.NewProjectsOf(f),
		Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	return srv, f
}

// TestGetUnitVisibilityWithFakeStore: a unit is read from the store and
// shown only to callers who may see its project, never when the copy of
// the catalog says its component was deleted.
func TestGetUnitVisibilityWithFakeStore(t *testing.T) {
	srv, _ := newFakeServer()
	t.Cleanup(srv.Close)
	member := policy.Caller{Username: "mia", Grants: []policy.Grant{{ProjectSelection: policy.SelectManual, Projects: []string{"secret"}}}}
	for _, tc := range []struct {
		name   string
		caller *policy.Caller // nil: the service's own call
		unit   int64
		found  bool // else NotFound
	}{
		{"anonymous, public project", &policy.Anonymous, 1, true},
		{"anonymous, private project", &policy.Anonymous, 2, false},
		{"outsider, private project", &outsider, 2, false},
		{"member, private project", &member, 2, true},
		{"service, private project", nil, 2, true},
		{"member, deleted component", &member, 3, false},
		{"service, deleted component", nil, 3, false},
		{"unknown unit", nil, 99, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			if tc.caller != nil {
				ctx = policy.WithCaller(ctx, *tc.caller)
			}
			resp, err := srv.GetUnit(ctx, &translationv1.GetUnitRequest{Id: tc.unit})
			found := err == nil && resp.GetUnit().GetId() == tc.unit
			if found != tc.found || (!found && errs.KindOf(err) != errs.NotFound) {
				t.Errorf("GetUnit(%d): %v, %v; want found %v, else NotFound", tc.unit, resp.GetUnit().GetId(), err, tc.found)
			}
		})
	}
}

// TestSnapshotsAreTheServicesOwnWithFakeStore: only the services' own
// calls and superusers change the copy of the catalog.
func TestSnapshotsAreTheServicesOwnWithFakeStore(t *testing.T) {
	srv, f := newFakeServer()
	t.Cleanup(srv.Close)
	req := &translationv1.ApplyCatalogSnapshotsRequest{Snapshots: []*translationv1.CatalogSnapshot{{ProjectId: 1, Revision: 9, Removed: true}}}
	admin := policy.Caller{Username: "boss", Grants: []policy.Grant{{Permissions: policy.Permissions, ProjectSelection: policy.SelectAll}}}
	for _, tc := range []struct {
		name    string
		caller  *policy.Caller
		allowed bool // else PermissionDenied
	}{
		{"anonymous", &policy.Anonymous, false},
		{"administrator of every project", &admin, false},
		{"superuser", &policy.Caller{Username: "root", Superuser: true}, true},
		{"service", nil, true},
	} {
		ctx := t.Context()
		if tc.caller != nil {
			ctx = policy.WithCaller(ctx, *tc.caller)
		}
		before := len(f.applied)
		_, err := srv.ApplyCatalogSnapshots(ctx, req)
		applied := len(f.applied) - before
		ok := err == nil && applied == 1
		if ok != tc.allowed || (!ok && (applied != 0 || errs.KindOf(err) != errs.PermissionDenied)) {
			t.Errorf("%s: %v, %d applied; want allowed %v, else PermissionDenied", tc.name, err, applied, tc.allowed)
		}
	}
}
