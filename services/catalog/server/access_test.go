package server_test

import (
	"context"
	"fmt"
	"testing"

	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

var (
	superuser = policy.Caller{Username: "admin", Superuser: true}
	outsider  = policy.NewAccount("olga")
)

// TestPrivateProjects checks that the catalog answers each caller with
// what it may see: private and custom projects do not exist for callers
// who are not superusers, in reads, lists, counts and writes.
func TestPrivateProjects(t *testing.T) {
	e := newEnv(t)
	e.project("open")
	e.component("open", "app")
	for _, slug := range []string{"secret", "custom"} {
		e.project(slug)
		e.component(slug, "app")
		access := map[string]typev1.AccessControl{"secret": typev1.AccessControl_ACCESS_CONTROL_PRIVATE, "custom": typev1.AccessControl_ACCESS_CONTROL_CUSTOM}[slug]
		if _, err := e.client.UpdateProject(t.Context(), &catalogv1.UpdateProjectRequest{Slug: slug,
			Project: &catalogv1.Project{AccessControl: access}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"access_control"}}}); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []struct {
		name     string
		ctx      context.Context
		projects int64
	}{
		{"service", t.Context(), 3},
		{"superuser", policy.WithCaller(t.Context(), superuser), 3},
		{"outsider", policy.WithCaller(t.Context(), outsider), 1},
		{"anonymous", policy.WithCaller(t.Context(), policy.Anonymous), 1},
	} {
		ps, err := e.client.ListProjects(c.ctx, &catalogv1.ListProjectsRequest{})
		if err != nil || ps.GetTotal() != c.projects || int64(len(ps.GetProjects())) != c.projects {
			t.Errorf("%s: %d projects listed, total %d, %v", c.name, len(ps.GetProjects()), ps.GetTotal(), err)
		}
		cs, err := e.client.ListComponents(c.ctx, &catalogv1.ListComponentsRequest{})
		if err != nil || cs.GetTotal() != c.projects {
			t.Errorf("%s: %d components, %v", c.name, cs.GetTotal(), err)
		}
		hidden := c.projects == 1
		_, err = e.client.GetProject(c.ctx, &catalogv1.GetProjectRequest{Slug: "secret"})
		checkHidden(t, c.name+" project", err, hidden)
		_, err = e.client.GetComponent(c.ctx, &catalogv1.GetComponentRequest{ProjectSlug: "custom", Slug: "app"})
		checkHidden(t, c.name+" component", err, hidden)
		_, err = e.client.ListComponents(c.ctx, &catalogv1.ListComponentsRequest{ProjectSlug: "secret"})
		checkHidden(t, c.name+" components of the project", err, hidden)
		if hidden {
			_, err = e.client.SetComponentLock(c.ctx, &catalogv1.SetComponentLockRequest{ProjectSlug: "secret", Slug: "app", Locked: true})
			checkHidden(t, c.name+" lock", err, true)
			_, err = e.client.UpdateComponent(c.ctx, &catalogv1.UpdateComponentRequest{ProjectSlug: "secret", Slug: "app",
				Component: &catalogv1.Component{Name: "x"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"name"}}})
			checkHidden(t, c.name+" update", err, true)
			_, err = e.client.DeleteProject(c.ctx, &catalogv1.DeleteProjectRequest{Slug: "secret"})
			checkHidden(t, c.name+" delete", err, true)
		}
	}
}

func checkHidden(t *testing.T, what string, err error, hidden bool) {
	t.Helper()
	if hidden && errs.FromStatus(err).Kind != errs.NotFound {
		t.Errorf("%s: %v, want NotFound", what, err)
	}
	if !hidden && err != nil {
		t.Errorf("%s: %v", what, err)
	}
}

// TestRepositoryCredentials checks that credentials in a repository URL
// reach only the services' own calls, that superusers see that there are
// some, and that sending back the masked URL keeps them.
func TestRepositoryCredentials(t *testing.T) {
	e := newEnv(t)
	e.project("p")
	req := minimal("p", "c")
	req.Component.Repo = "https://bot:s3cret@git.example/app.git"
	if _, err := e.client.CreateComponent(policy.WithCaller(t.Context(), superuser), req); err != nil {
		t.Fatal(err)
	}
	get := func(ctx context.Context) string {
		resp, err := e.client.GetComponent(ctx, &catalogv1.GetComponentRequest{ProjectSlug: "p", Slug: "c"})
		if err != nil {
			t.Fatal(err)
		}
		return resp.GetComponent().GetRepo()
	}
	su := policy.WithCaller(t.Context(), superuser)
	for _, c := range []struct {
		ctx  context.Context
		want string
	}{
		{t.Context(), "https://bot:s3cret@git.example/app.git"},
		{su, "https://***@git.example/app.git"},
		{policy.WithCaller(t.Context(), outsider), "https://git.example/app.git"},
		{policy.WithCaller(t.Context(), policy.Anonymous), "https://git.example/app.git"},
	} {
		if got := get(c.ctx); got != c.want {
			t.Errorf("repo shown as %q, want %q", got, c.want)
		}
	}
	list, err := e.client.ListComponents(policy.WithCaller(t.Context(), policy.Anonymous), &catalogv1.ListComponentsRequest{})
	if err != nil || list.GetComponents()[0].GetRepo() != "https://git.example/app.git" {
		t.Errorf("listed repo: %v %v", list, err)
	}
	// A client that PUTs back what it was shown keeps the credentials.
	if _, err := e.client.UpdateComponent(su, &catalogv1.UpdateComponentRequest{ProjectSlug: "p", Slug: "c",
		Component: &catalogv1.Component{Repo: "https://***@git.example/app.git", Name: "Renamed"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"repo", "name"}}}); err != nil {
		t.Fatal(err)
	}
	if got := get(t.Context()); got != "https://bot:s3cret@git.example/app.git" {
		t.Errorf("after an update with the masked URL the stored one is %q", got)
	}
}

// TestWritesCheckPermissions: the project and lock writes answer a caller
// acting for a user as the REST API does: NotFound for a project it may
// not see, PermissionDenied without the permission, and nothing changes;
// a caller holding the permission succeeds.
func TestWritesCheckPermissions(t *testing.T) {
	e := newEnv(t)
	e.project("open")
	e.component("open", "app")
	e.project("secret")
	e.component("secret", "app")
	if _, err := e.client.UpdateProject(t.Context(), &catalogv1.UpdateProjectRequest{Slug: "secret",
		Project: &catalogv1.Project{AccessControl: typev1.AccessControl_ACCESS_CONTROL_PRIVATE}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"access_control"}}}); err != nil {
		t.Fatal(err)
	}
	holder := func(perms ...string) context.Context {
		return policy.WithCaller(t.Context(), policy.Caller{Username: "hana", Grants: []policy.Grant{
			{ProjectSelection: policy.SelectManual, Projects: []string{"open"}, Permissions: perms}}})
	}
	as := func(c policy.Caller) context.Context { return policy.WithCaller(t.Context(), c) }
	rename := func(slug string) func(context.Context) error {
		return func(ctx context.Context) error {
			_, err := e.client.UpdateProject(ctx, &catalogv1.UpdateProjectRequest{Slug: slug,
				Project: &catalogv1.Project{Name: "Renamed " + slug}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"name"}}})
			return err
		}
	}
	protect := func(fields ...string) func(context.Context) error {
		return func(ctx context.Context) error {
			p, err := e.client.GetProject(policy.System(ctx), &catalogv1.GetProjectRequest{Slug: "open"})
			if err != nil {
				return err
			}
			p.GetProject().AccessControl = typev1.AccessControl_ACCESS_CONTROL_PROTECTED
			_, err = e.client.UpdateProject(ctx, &catalogv1.UpdateProjectRequest{Slug: "open",
				Project: p.GetProject(), UpdateMask: &fieldmaskpb.FieldMask{Paths: fields}})
			return err
		}
	}
	lock := func(slug string) func(context.Context) error {
		return func(ctx context.Context) error {
			_, err := e.client.SetComponentLock(ctx, &catalogv1.SetComponentLockRequest{ProjectSlug: slug, Slug: "app", Locked: true})
			return err
		}
	}
	create := func(ctx context.Context) error {
		_, err := e.client.CreateProject(ctx, &catalogv1.CreateProjectRequest{
			Project: &catalogv1.Project{Name: "New", Slug: "new", Web: "https://example.com/"}})
		return err
	}
	for _, c := range []struct {
		name string
		ctx  context.Context
		call func(context.Context) error
		want errs.Kind
	}{
		{"UpdateProject/invisible project", as(outsider), rename("secret"), errs.NotFound},
		{"UpdateProject/without project.edit", as(outsider), rename("open"), errs.PermissionDenied},
		{"UpdateProject/access_control without project.permissions", holder("project.edit"), protect("access_control"), errs.PermissionDenied},
		{"UpdateProject/all fields changing access_control without project.permissions", holder("project.edit"), protect(), errs.PermissionDenied},
		{"SetComponentLock/invisible project", as(outsider), lock("secret"), errs.NotFound},
		{"SetComponentLock/without component.lock", holder("component.edit"), lock("open"), errs.PermissionDenied},
		{"CreateProject/anonymous", as(policy.Anonymous), create, errs.PermissionDenied},
		{"CreateProject/account", as(outsider), create, errs.PermissionDenied},
		{"CreateProject/project administrator", holder(policy.Permissions...), create, errs.PermissionDenied},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := e.snapshot()
			err := c.call(c.ctx)
			if err == nil || errs.FromStatus(err).Kind != c.want {
				t.Errorf("%v, want %v", err, c.want)
			}
			if after := e.snapshot(); after != before {
				t.Errorf("changed:\n%s\nwas\n%s", after, before)
			}
		})
	}
	for _, c := range []struct {
		name string
		ctx  context.Context
		call func(context.Context) error
	}{
		{"UpdateProject/with project.edit", holder("project.edit"), rename("open")},
		{"UpdateProject/access_control with project.permissions", holder("project.edit", "project.permissions"), protect("access_control")},
		{"SetComponentLock/with component.lock", holder("component.lock"), lock("open")},
		{"CreateProject/superuser", as(superuser), create},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := c.call(c.ctx); err != nil {
				t.Error(err)
			}
		})
	}
}

// snapshot is what the writes above could change: the projects, the
// components' locks and the change records.
func (e *env) snapshot() string {
	e.t.Helper()
	ps, err := e.client.ListProjects(e.t.Context(), &catalogv1.ListProjectsRequest{})
	if err != nil {
		e.t.Fatal(err)
	}
	cs, err := e.client.ListComponents(e.t.Context(), &catalogv1.ListComponentsRequest{})
	if err != nil {
		e.t.Fatal(err)
	}
	out := fmt.Sprintf("%d changes\n", len(e.changes()))
	for _, p := range ps.GetProjects() {
		out += fmt.Sprintf("project %s %q access %s\n", p.GetSlug(), p.GetName(), p.GetAccessControl())
	}
	for _, c := range cs.GetComponents() {
		out += fmt.Sprintf("component %s/%s locked %v\n", c.GetProjectSlug(), c.GetSlug(), c.GetLocked())
	}
	return out
}
