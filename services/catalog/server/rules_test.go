package server_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/catalog/server"
	"github.com/tmsproject/tms/services/catalog/store"
)

// importer is the translation service as the catalog sees it: it refuses
// a repository URL holding "refused" at once, as the real one refuses a
// local path, and starts an import of anything else.
type importer struct {
	mu      sync.Mutex
	imports []*translationv1.ImportComponentRequest
	// repoOf reads the binding the import would read.
	repoOf func(ctx context.Context, id int64) string
}

func (f *importer) ImportComponent(ctx context.Context, req *translationv1.ImportComponentRequest, _ ...grpc.CallOption) (*translationv1.ImportComponentResponse, error) {
	if _, ok := policy.FromContext(ctx); ok {
		return nil, errs.ToStatus(errs.New(errs.Internal, "the import runs as the catalog's own call"))
	}
	if strings.Contains(f.repoOf(ctx, req.GetComponentId()), "refused") {
		return nil, errs.ToStatus(errs.Invalid("repo", "invalid", "Refused repository."))
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.imports = append(f.imports, req)
	return &translationv1.ImportComponentResponse{Task: &translationv1.Task{Id: fmt.Sprintf("task-%d", len(f.imports))}}, nil
}

func (f *importer) started() []*translationv1.ImportComponentRequest {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.imports)
}

func newImportEnv(t *testing.T) (*env, *importer) {
	imp := &importer{}
	e := newEnvWith(t, server.Config{Translation: imp})
	imp.repoOf = func(ctx context.Context, id int64) string {
		resp, err := e.client.GetComponent(ctx, &catalogv1.GetComponentRequest{Id: id})
		if err != nil {
			t.Errorf("the import reads component %d: %v", id, err)
		}
		return resp.GetComponent().GetRepo()
	}
	return e, imp
}

// TestCreateComponentImports: creating a component is creating it and
// starting its import, for any caller; a binding the translation service
// refuses leaves no component behind and answers the refusal.
func TestCreateComponentImports(t *testing.T) {
	e, imp := newImportEnv(t)
	e.project("p")
	resp, err := e.client.CreateComponent(t.Context(), minimal("p", "app"))
	if err != nil {
		t.Fatal(err)
	}
	got := imp.started()
	if resp.GetImportTaskId() != "task-1" || len(got) != 1 || got[0].GetComponentId() != resp.GetComponent().GetId() || got[0].GetActor() != "admin" {
		t.Fatalf("created %v with task %q; imports %v", resp.GetComponent().GetId(), resp.GetImportTaskId(), got)
	}

	bad := minimal("p", "bad")
	bad.Component.Repo = "https://refused.example/r.git"
	_, err = e.client.CreateComponent(t.Context(), bad)
	wantKind(t, err, errs.InvalidArgument, &violation{"repo", "invalid", "Refused repository."})
	_, err = e.client.GetComponent(t.Context(), &catalogv1.GetComponentRequest{ProjectSlug: "p", Slug: "bad"})
	wantKind(t, err, errs.NotFound, nil)
	var actions []typev1.ChangeAction
	for _, c := range e.changes() {
		if c.GetComponentSlug() == "bad" || c.GetTarget() == "bad" {
			actions = append(actions, c.GetAction())
		}
	}
	if !slices.Equal(actions, []typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_CREATE_COMPONENT, typev1.ChangeAction_CHANGE_ACTION_REMOVE_COMPONENT}) {
		t.Errorf("records of the refused component: %v, want created then removed", actions)
	}
	if len(imp.started()) != 1 {
		t.Errorf("imports after the refusal: %v", imp.started())
	}
	// The slug is free again.
	bad.Component.Repo = "https://example.com/r.git"
	if _, err := e.client.CreateComponent(t.Context(), bad); err != nil {
		t.Fatalf("create again with a good repository: %v", err)
	}
}

// TestUpdateComponentReimports: a change of the binding imports the
// component again; a refused one puts the whole component back; what an
// import found (RecordImportOutcomes, the services' own call) imports
// nothing and leaves a branch set since alone.
func TestUpdateComponentReimports(t *testing.T) {
	e, imp := newImportEnv(t)
	e.project("p")
	e.component("p", "app")
	update := func(ctx context.Context, c *catalogv1.Component, fields []string, _ bool) (*catalogv1.UpdateComponentResponse, error) {
		return e.client.UpdateComponent(ctx, &catalogv1.UpdateComponentRequest{ProjectSlug: "p", Slug: "app",
			Component: c, UpdateMask: &fieldmaskpb.FieldMask{Paths: fields}, Actor: "admin"})
	}
	if resp, err := update(t.Context(), &catalogv1.Component{Name: "Renamed"}, []string{"name"}, false); err != nil || resp.GetImportTaskId() != "" {
		t.Fatalf("rename: task %q, %v", resp.GetImportTaskId(), err)
	}
	resp, err := update(t.Context(), &catalogv1.Component{Filemask: "l10n/*.po"}, []string{"filemask"}, false)
	if err != nil || resp.GetImportTaskId() != "task-2" {
		t.Fatalf("new file mask: task %q, %v", resp.GetImportTaskId(), err)
	}
	_, err = update(t.Context(), &catalogv1.Component{Name: "Other", Repo: "https://refused.example/x.git"}, []string{"name", "repo"}, false)
	wantKind(t, err, errs.InvalidArgument, &violation{"repo", "invalid", ""})
	cur, err := e.client.GetComponent(t.Context(), &catalogv1.GetComponentRequest{ProjectSlug: "p", Slug: "app"})
	if c := cur.GetComponent(); err != nil || c.GetName() != "Renamed" || c.GetRepo() != "https://example.com/repo.git" || c.GetFilemask() != "l10n/*.po" {
		t.Fatalf("after a refused binding: %v, %v", c, err)
	}
	outcome := func(ctx context.Context, branch string) error {
		_, err := e.client.RecordImportOutcomes(ctx, &catalogv1.RecordImportOutcomesRequest{Outcomes: []*catalogv1.ImportOutcome{
			{ComponentId: cur.GetComponent().GetId(), Branch: branch}, {ComponentId: 1 << 40, Branch: "unknown"}}})
		return err
	}
	owner := policy.WithCaller(t.Context(), policy.Caller{Username: "olga", Grants: []policy.Grant{{Permissions: policy.Permissions, Projects: []string{"p"}}}})
	wantKind(t, outcome(owner, "evil"), errs.PermissionDenied, nil)
	branch := func() string {
		got, err := e.client.GetComponent(t.Context(), &catalogv1.GetComponentRequest{ProjectSlug: "p", Slug: "app"})
		if err != nil {
			t.Fatal(err)
		}
		return got.GetComponent().GetBranch()
	}
	for _, b := range []string{"main", "other"} { // delivered again, or a later import's: the first stays
		if err := outcome(t.Context(), b); err != nil || branch() != "main" {
			t.Fatalf("outcome %s: branch %q, %v; want main", b, branch(), err)
		}
	}
	root := policy.WithCaller(t.Context(), superuser)
	if resp, err := update(root, &catalogv1.Component{Branch: "dev"}, []string{"branch"}, true); err != nil || resp.GetImportTaskId() != "task-3" {
		t.Fatalf("a user's branch change: task %q, %v", resp.GetImportTaskId(), err)
	}
	if n := len(imp.started()); n != 3 {
		t.Errorf("%d imports, want 3", n)
	}
}

// TestComponentWritesNeedRights: creating, changing and deleting a
// component and deleting a project are refused with NotFound to a caller
// who may not see the project and with PermissionDenied to one who sees
// it without the right; nothing changes.
func TestComponentWritesNeedRights(t *testing.T) {
	e, imp := newImportEnv(t)
	for _, p := range []string{"open", "secret"} {
		e.project(p)
		e.component(p, "app")
	}
	if _, err := e.client.UpdateProject(t.Context(), &catalogv1.UpdateProjectRequest{Slug: "secret",
		Project: &catalogv1.Project{AccessControl: typev1.AccessControl_ACCESS_CONTROL_PRIVATE}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"access_control"}}}); err != nil {
		t.Fatal(err)
	}
	writes := map[string]func(ctx context.Context, project string) error{
		"CreateComponent": func(ctx context.Context, project string) error {
			_, err := e.client.CreateComponent(ctx, minimal(project, "new"))
			return err
		},
		"UpdateComponent": func(ctx context.Context, project string) error {
			_, err := e.client.UpdateComponent(ctx, &catalogv1.UpdateComponentRequest{ProjectSlug: project, Slug: "app",
				Component: &catalogv1.Component{Repo: "https://example.com/other.git"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"repo"}}})
			return err
		},
		"DeleteComponent": func(ctx context.Context, project string) error {
			_, err := e.client.DeleteComponent(ctx, &catalogv1.DeleteComponentRequest{ProjectSlug: project, Slug: "app"})
			return err
		},
		"DeleteProject": func(ctx context.Context, project string) error {
			_, err := e.client.DeleteProject(ctx, &catalogv1.DeleteProjectRequest{Slug: project})
			return err
		},
	}
	as := policy.WithCaller(t.Context(), outsider)
	for name, write := range writes {
		refused(t, name+" of an invisible project", write(as, "secret"), errs.NotFound)
		refused(t, name+" without the right", write(as, "open"), errs.PermissionDenied)
	}
	for _, p := range []string{"open", "secret"} {
		list, err := e.client.ListComponents(t.Context(), &catalogv1.ListComponentsRequest{ProjectSlug: p})
		if err != nil || list.GetTotal() != 1 || list.GetComponents()[0].GetRepo() != "https://example.com/repo.git" {
			t.Errorf("%s after refused writes: %v, %v", p, list.GetComponents(), err)
		}
	}
	if len(imp.started()) != 2 {
		t.Errorf("imports: %d, want the 2 of the test's own components", len(imp.started()))
	}
	admin := policy.NewAccount("ada")
	admin.Grants = append(admin.Grants, policy.Grant{Projects: []string{"secret"}, Permissions: []string{"project.edit", "component.edit"}})
	as = policy.WithCaller(t.Context(), admin)
	for _, name := range []string{"CreateComponent", "UpdateComponent", "DeleteComponent", "DeleteProject"} {
		if err := writes[name](as, "secret"); err != nil {
			t.Errorf("%s by the project's administrator: %v", name, err)
		}
	}
}

// TestListRemovedComponents: every delete of components (alone, with a
// category, with their project) lists them as removed until the removal
// is delivered; only the services and superusers may list them.
func TestListRemovedComponents(t *testing.T) {
	e := newEnv(t)
	e.project("p")
	a, b := e.component("p", "a"), e.component("p", "b")
	e.project("q")
	c := e.component("q", "c")
	cat, err := e.client.CreateCategory(t.Context(), &catalogv1.CreateCategoryRequest{Category: &catalogv1.Category{ProjectSlug: "p", Name: "Docs", Slug: "docs"}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.client.UpdateComponent(t.Context(), &catalogv1.UpdateComponentRequest{ProjectSlug: "p", Slug: "b",
		Component: &catalogv1.Component{CategoryId: cat.GetCategory().GetId()}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"category_id"}}}); err != nil {
		t.Fatal(err)
	}
	removed := func() []int64 {
		t.Helper()
		resp, err := e.client.ListRemovedComponents(t.Context(), &catalogv1.ListRemovedComponentsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		return resp.GetComponentIds()
	}
	if got := removed(); len(got) != 0 {
		t.Fatalf("removed before any delete: %v", got)
	}
	if _, err := e.client.DeleteComponent(t.Context(), &catalogv1.DeleteComponentRequest{ProjectSlug: "p", Slug: "a"}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.client.DeleteCategory(t.Context(), &catalogv1.DeleteCategoryRequest{Id: cat.GetCategory().GetId()}); err != nil {
		t.Fatal(err)
	}
	if _, err := e.client.DeleteProject(t.Context(), &catalogv1.DeleteProjectRequest{Slug: "q"}); err != nil {
		t.Fatal(err)
	}
	want := []int64{a.GetId(), b.GetId(), c.GetId()}
	if got := removed(); !slices.Equal(got, want) {
		t.Fatalf("removed: %v, want %v", got, want)
	}
	for name, caller := range map[string]policy.Caller{"outsider": outsider, "anonymous": policy.Anonymous,
		"administrator of the project": {Username: "ada", Grants: []policy.Grant{{Projects: []string{"p"}, Permissions: policy.Permissions}}}} {
		_, err := e.client.ListRemovedComponents(policy.WithCaller(t.Context(), caller), &catalogv1.ListRemovedComponentsRequest{})
		refused(t, name, err, errs.PermissionDenied)
	}
	if resp, err := e.client.ListRemovedComponents(policy.WithCaller(t.Context(), superuser), &catalogv1.ListRemovedComponentsRequest{}); err != nil || len(resp.GetComponentIds()) != 3 {
		t.Fatalf("superuser: %v, %v", resp.GetComponentIds(), err)
	}

	// What the translation service is handed: the components, and the
	// project q for its labels.
	var forgotten []*translationv1.ForgetComponentsRequest
	relay := outbox.NewRelay(e.gdb, func(_ context.Context, evs []outbox.Event) error {
		for _, ev := range evs {
			req, err := store.DecodeRemoval(ev)
			if err != nil {
				return err
			}
			forgotten = append(forgotten, req)
		}
		return nil
	}, outbox.WithTable(store.Removals))
	if _, err := relay.RunOnce(t.Context()); err != nil {
		t.Fatal(err)
	}
	if len(forgotten) != 3 || len(forgotten[2].GetProjectIds()) != 1 || forgotten[2].GetComponentIds()[0] != c.GetId() {
		t.Fatalf("removals delivered: %v", forgotten)
	}
	if got := removed(); len(got) != 0 {
		t.Fatalf("removed after delivery: %v", got)
	}
}

// refused checks that what was refused with kind.
func refused(t *testing.T, what string, err error, kind errs.Kind) {
	t.Helper()
	if err == nil || errs.FromStatus(err).Kind != kind {
		t.Errorf("%s: %v, want %v", what, err, kind)
	}
}

// TestGetProjectAccess: the levels of every project, by version: a
// caller that holds the current version is told so without the list, and
// every create, change of access or memory sharing, rename or delete
// makes a new version;
// only the services and superusers may ask.
func TestGetProjectAccess(t *testing.T) {
	e := newEnv(t)
	e.project("p")
	e.project("q")
	get := func(known string) *catalogv1.GetProjectAccessResponse {
		t.Helper()
		resp, err := e.client.GetProjectAccess(t.Context(), &catalogv1.GetProjectAccessRequest{KnownVersion: known})
		if err != nil {
			t.Fatal(err)
		}
		return resp
	}
	levels := func(resp *catalogv1.GetProjectAccessResponse) string {
		var out []string
		for _, p := range resp.GetProjects() {
			out = append(out, fmt.Sprintf("%s=%d", p.GetSlug(), weblate.AccessControls.RefOf(p.GetAccessControl())))
			if !p.GetUseSharedTm() || !p.GetContributeSharedTm() {
				out[len(out)-1] += fmt.Sprintf("(use %v, contribute %v)", p.GetUseSharedTm(), p.GetContributeSharedTm())
			}
		}
		return strings.Join(out, " ")
	}
	first := get("")
	if got := levels(first); first.GetUnchanged() || got != "p=0 q=0" {
		t.Fatalf("first answer: unchanged %v, %q", first.GetUnchanged(), got)
	}
	if again := get(first.GetVersion()); !again.GetUnchanged() || len(again.GetProjects()) != 0 || again.GetVersion() != first.GetVersion() {
		t.Fatalf("same version: %v", again)
	}
	changes := []struct {
		name   string
		change func() error
		want   string
	}{
		{"made private", func() error {
			_, err := e.client.UpdateProject(t.Context(), &catalogv1.UpdateProjectRequest{Slug: "p",
				Project: &catalogv1.Project{AccessControl: typev1.AccessControl_ACCESS_CONTROL_PRIVATE}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"access_control"}}})
			return err
		}, "p=100 q=0"},
		{"stopped contributing to the shared memory", func() error {
			_, err := e.client.UpdateProject(t.Context(), &catalogv1.UpdateProjectRequest{Slug: "q",
				Project: &catalogv1.Project{}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"contribute_shared_tm"}}})
			return err
		}, "p=100 q=0(use true, contribute false)"},
		{"created", func() error { e.project("r"); return nil }, "p=100 q=0(use true, contribute false) r=0"},
		{"deleted", func() error {
			_, err := e.client.DeleteProject(t.Context(), &catalogv1.DeleteProjectRequest{Slug: "q"})
			return err
		}, "p=100 r=0"},
	}
	version := first.GetVersion()
	for _, c := range changes {
		t.Run(c.name, func(t *testing.T) {
			if err := c.change(); err != nil {
				t.Fatal(err)
			}
			resp := get(version)
			if resp.GetUnchanged() || resp.GetVersion() == version {
				t.Errorf("version unchanged: %q", version)
			}
			if got := levels(resp); got != c.want {
				t.Errorf("levels %q, want %q", got, c.want)
			}
			version = resp.GetVersion()
		})
	}
	for name, caller := range map[string]policy.Caller{"outsider": outsider, "anonymous": policy.Anonymous,
		"administrator of the project": {Username: "ada", Grants: []policy.Grant{{Projects: []string{"p"}, Permissions: policy.Permissions}}}} {
		_, err := e.client.GetProjectAccess(policy.WithCaller(t.Context(), caller), &catalogv1.GetProjectAccessRequest{})
		refused(t, name, err, errs.PermissionDenied)
	}
	if resp, err := e.client.GetProjectAccess(policy.WithCaller(t.Context(), superuser), &catalogv1.GetProjectAccessRequest{}); err != nil || len(resp.GetProjects()) != 2 {
		t.Fatalf("superuser: %v, %v", resp, err)
	}
}
