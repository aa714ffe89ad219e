package server_test

import (
	"testing"

	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

func TestProjectLifecycle(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	p := e.project("alpha")
	if p.GetId() == 0 || !p.GetSetLanguageTeam() || !p.GetEnableHooks() || p.GetTranslationReview() ||
		p.GetAccessControl() != typev1.AccessControl_ACCESS_CONTROL_PUBLIC || p.GetLocked() || p.GetCreated() == nil {
		t.Errorf("defaults: %v", p)
	}
	cs := e.changes()
	if len(cs) != 1 || cs[0].GetAction() != typev1.ChangeAction_CHANGE_ACTION_CREATE_PROJECT || cs[0].GetProjectSlug() != "alpha" || cs[0].GetUser() != "admin" ||
		cs[0].GetComponentSlug() != "" || cs[0].GetLanguageCode() != "" || cs[0].GetUnitId() != 0 {
		t.Errorf("create record: %v", cs)
	}
	e.project("beta")
	e.project("gamma")
	list, err := e.client.ListProjects(ctx, &catalogv1.ListProjectsRequest{Offset: 1, Limit: 1})
	if err != nil || list.GetTotal() != 3 || len(list.GetProjects()) != 1 || list.GetProjects()[0].GetSlug() != "beta" {
		t.Errorf("list: %v %v", list, err)
	}
	up, err := e.client.UpdateProject(ctx, &catalogv1.UpdateProjectRequest{Slug: "alpha", Actor: "admin",
		Project:    &catalogv1.Project{Web: "https://example.org/", Name: "ignored", TranslationReview: true},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"web", "translation_review", "locked"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := up.GetProject(); got.GetWeb() != "https://example.org/" || got.GetName() != "Project alpha" || !got.GetTranslationReview() {
		t.Errorf("update: %v", got)
	}
	got, err := e.client.GetProject(ctx, &catalogv1.GetProjectRequest{Slug: "alpha"})
	if err != nil || got.GetProject().GetWeb() != "https://example.org/" || !got.GetProject().GetCreated().AsTime().Equal(p.GetCreated().AsTime()) {
		t.Errorf("get after update: %v %v", got, err)
	}
	if _, err = e.client.DeleteProject(ctx, &catalogv1.DeleteProjectRequest{Slug: "alpha", Actor: "admin"}); err != nil {
		t.Fatal(err)
	}
	_, err = e.client.GetProject(ctx, &catalogv1.GetProjectRequest{Slug: "alpha"})
	wantKind(t, err, errs.NotFound, nil)
	_, err = e.client.DeleteProject(ctx, &catalogv1.DeleteProjectRequest{Slug: "alpha"})
	wantKind(t, err, errs.NotFound, nil)
	cs = e.changes()
	if last := cs[len(cs)-1]; last.GetAction() != typev1.ChangeAction_CHANGE_ACTION_REMOVE_PROJECT || last.GetTarget() != "alpha" || last.GetUser() != "admin" {
		t.Errorf("delete record: %v", last)
	}
}

func TestProjectValidation(t *testing.T) {
	e := newEnv(t)
	e.project("taken")
	valid := func() *catalogv1.Project {
		return &catalogv1.Project{Name: "Fresh", Slug: "fresh", Web: "https://example.com/"}
	}
	cases := []struct {
		name   string
		modify func(p *catalogv1.Project)
		want   violation
	}{
		{"missing name", func(p *catalogv1.Project) { p.Name = "" }, violation{"name", "required", "This field is required."}},
		{"missing slug", func(p *catalogv1.Project) { p.Slug = "" }, violation{"slug", "required", "This field is required."}},
		{"missing web", func(p *catalogv1.Project) { p.Web = "" }, violation{"web", "required", "This field is required."}},
		{"bad slug", func(p *catalogv1.Project) { p.Slug = "a b" }, violation{"slug", "invalid",
			"Enter a valid “slug” consisting of letters, numbers, underscores or hyphens."}},
		{"long name", func(p *catalogv1.Project) { p.Name = string(make([]byte, 61)) }, violation{"name", "max_length",
			"Ensure this field has no more than 60 characters."}},
		{"ftp web", func(p *catalogv1.Project) { p.Web = "ftp://example.com/" }, violation{"web", "invalid", "Enter a valid URL."}},
		{"no host", func(p *catalogv1.Project) { p.Web = "https:///x" }, violation{"web", "invalid", "Enter a valid URL."}},
		{"text web", func(p *catalogv1.Project) { p.Web = "example" }, violation{"web", "invalid", "Enter a valid URL."}},
		{"duplicate slug", func(p *catalogv1.Project) { p.Slug = "taken" }, violation{"slug", "unique",
			"Project with this URL slug already exists."}},
		{"duplicate name", func(p *catalogv1.Project) { p.Name = "Project taken" }, violation{"name", "unique",
			"Project with this Project name already exists."}},
		{"access control", func(p *catalogv1.Project) { p.AccessControl = 5 }, violation{"access_control", "invalid_choice",
			`"5" is not a valid choice.`}},
		{"aliases", func(p *catalogv1.Project) { p.LanguageAliases = "en_GB" }, violation{"language_aliases", "invalid", ""}},
		{"secondary language", func(p *catalogv1.Project) { p.SecondaryLanguageCode = "qqq_Nope" }, violation{"secondary_language",
			"does_not_exist", "Object with code=qqq_Nope does not exist."}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := valid()
			c.modify(p)
			_, err := e.client.CreateProject(t.Context(), &catalogv1.CreateProjectRequest{Project: p})
			wantKind(t, err, errs.InvalidArgument, &c.want)
		})
	}
	if n := len(e.changes()); n != 1 {
		t.Errorf("failed creates recorded changes: %d", n)
	}
	// On update, a named blank field is "blank", and names must exist.
	_, err := e.client.UpdateProject(t.Context(), &catalogv1.UpdateProjectRequest{Slug: "taken",
		Project: &catalogv1.Project{}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"name"}}})
	wantKind(t, err, errs.InvalidArgument, &violation{"name", "blank", "This field may not be blank."})
	_, err = e.client.UpdateProject(t.Context(), &catalogv1.UpdateProjectRequest{Slug: "taken",
		Project: &catalogv1.Project{}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"colour"}}})
	wantKind(t, err, errs.InvalidArgument, &violation{"colour", "invalid", ""})
	_, err = e.client.UpdateProject(t.Context(), &catalogv1.UpdateProjectRequest{Slug: "nope",
		Project: &catalogv1.Project{}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"web"}}})
	wantKind(t, err, errs.NotFound, nil)
	// The secondary language accepts aliases and stores the canonical code.
	resp, err := e.client.UpdateProject(t.Context(), &catalogv1.UpdateProjectRequest{Slug: "taken",
		Project: &catalogv1.Project{SecondaryLanguageCode: "pt-br"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"secondary_language_code"}}})
	if err != nil || resp.GetProject().GetSecondaryLanguageCode() != "pt_BR" {
		t.Errorf("secondary language: %v %v", resp, err)
	}
}
