package server_test

import (
	"testing"

	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// TestInheritedSettings: the inherit flags are set as Weblate's
// serializers set them (a project inherits nothing, a category or
// component what the request leaves out), an update of a setting stops
// inheriting it, and the effective values follow every level.
func TestInheritedSettings(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	proj, err := e.client.CreateProject(ctx, &catalogv1.CreateProjectRequest{Actor: "admin",
		Project: &catalogv1.Project{Name: "P", Slug: "p", Web: "https://example.com/", License: "MIT", CheckFlags: "c-format"},
		Fields:  []string{"name", "slug", "web", "license", "check_flags"}})
	if err != nil {
		t.Fatal(err)
	}
	if p := proj.GetProject(); p.GetInheritLicense() || p.GetInheritCommitMessage() || p.GetEffectiveLicense() != "MIT" ||
		p.GetEffectiveNewLang() != "add" || p.GetCommitMessage() == "" || p.GetEffectiveCommitMessage() != p.GetCommitMessage() {
		t.Errorf("project: %v", p)
	}
	cat, err := e.client.CreateCategory(ctx, &catalogv1.CreateCategoryRequest{
		Category: &catalogv1.Category{ProjectSlug: "p", Name: "Docs", Slug: "docs", NewLang: "none", InheritLicense: false, CheckFlags: "max-length:5"},
		Fields:   []string{"name", "slug", "new_lang", "inherit_license", "check_flags"}})
	if err != nil {
		t.Fatal(err)
	}
	if c := cat.GetCategory(); c.GetInheritNewLang() || c.GetInheritLicense() || !c.GetInheritCommitMessage() ||
		c.GetEffectiveNewLang() != "none" || c.GetEffectiveLicense() != "" || c.GetEffectiveCheckFlags() != "c-format, max-length:5" {
		t.Errorf("category: %v", c)
	}
	req := minimal("p", "app")
	req.Component.CategoryId, req.Component.CommitMessage = cat.GetCategory().GetId(), "own {{ language_name }}"
	req.Fields = append(req.Fields, "category_id", "commit_message")
	comp, err := e.client.CreateComponent(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if c := comp.GetComponent(); c.GetInheritCommitMessage() || !c.GetInheritNewLang() || !c.GetInheritLicense() ||
		c.GetEffectiveCommitMessage() != "own {{ language_name }}" || c.GetEffectiveNewLang() != "none" || c.GetEffectiveCheckFlags() != "c-format, max-length:5" {
		t.Errorf("component: %v", c)
	}

	// The category takes the project's license back; the project changes it.
	if _, err = e.client.UpdateCategory(ctx, &catalogv1.UpdateCategoryRequest{Id: cat.GetCategory().GetId(),
		Category: &catalogv1.Category{InheritLicense: true}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"inherit_license"}}}); err != nil {
		t.Fatal(err)
	}
	if _, err = e.client.UpdateProject(ctx, &catalogv1.UpdateProjectRequest{Slug: "p",
		Project: &catalogv1.Project{License: "GPL-3.0-or-later"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"license"}}}); err != nil {
		t.Fatal(err)
	}
	got, _ := e.client.GetComponent(ctx, &catalogv1.GetComponentRequest{ProjectSlug: "p", Slug: "app"})
	if got.GetComponent().GetEffectiveLicense() != "GPL-3.0-or-later" {
		t.Errorf("after the project's license changed: %q", got.GetComponent().GetEffectiveLicense())
	}

	// Setting a value stops inheriting it, even when the request also asks
	// to inherit it (Weblate's model save).
	upd, err := e.client.UpdateComponent(ctx, &catalogv1.UpdateComponentRequest{ProjectSlug: "p", Slug: "app",
		Component:  &catalogv1.Component{NewLang: "contact", InheritNewLang: true},
		UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"new_lang", "inherit_new_lang"}}})
	if err != nil {
		t.Fatal(err)
	}
	if c := upd.GetComponent(); c.GetInheritNewLang() || c.GetEffectiveNewLang() != "contact" {
		t.Errorf("own new_lang: %v", c)
	}
	// Effective values are read-only; a bad choice is refused.
	upd, err = e.client.UpdateComponent(ctx, &catalogv1.UpdateComponentRequest{ProjectSlug: "p", Slug: "app",
		Component: &catalogv1.Component{EffectiveLicense: "x"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"effective_license"}}})
	if err != nil || upd.GetComponent().GetEffectiveLicense() != "GPL-3.0-or-later" {
		t.Errorf("effective_license written: %v %v", upd, err)
	}
	_, err = e.client.UpdateCategory(ctx, &catalogv1.UpdateCategoryRequest{Id: cat.GetCategory().GetId(),
		Category: &catalogv1.Category{NewLang: "sometimes"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"new_lang"}}})
	wantKind(t, err, errs.InvalidArgument, &violation{field: "new_lang", code: "invalid_choice"})
	_, err = e.client.UpdateProject(ctx, &catalogv1.UpdateProjectRequest{Slug: "p",
		Project: &catalogv1.Project{SecondaryLanguageCode: "xx-nope"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"secondary_language_code"}}})
	wantKind(t, err, errs.InvalidArgument, &violation{field: "secondary_language", code: "does_not_exist"})

	// Changing a category's settings takes project.edit; an outsider does
	// not see the project at all.
	_, err = e.client.UpdateCategory(policy.WithCaller(ctx, outsider), &catalogv1.UpdateCategoryRequest{Id: cat.GetCategory().GetId(),
		Category: &catalogv1.Category{License: "MIT"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"license"}}})
	wantKind(t, err, errs.PermissionDenied, nil)
}
