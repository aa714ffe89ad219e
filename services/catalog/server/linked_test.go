package server_test

import (
	"testing"

	"google.golang.org/protobuf/types/known/fieldmaskpb"
	"google.golang.org/protobuf/types/known/structpb"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// TestLinkedResourcesOverGRPC is an internal caller's view of categories,
// component links, announcements and machinery settings: the generated
// client alone creates, reads, lists, changes and deletes them, and a
// caller without the rights is refused (404 for what it may not see).
func TestLinkedResourcesOverGRPC(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	e.project("hello")
	e.project("other")
	e.component("hello", "app")

	t.Run("categories", func(t *testing.T) {
		docs, err := e.client.CreateCategory(ctx, &catalogv1.CreateCategoryRequest{Category: &catalogv1.Category{ProjectSlug: "hello", Name: "Docs", Slug: "docs"}})
		if err != nil {
			t.Fatal(err)
		}
		api, err := e.client.CreateCategory(ctx, &catalogv1.CreateCategoryRequest{Category: &catalogv1.Category{ProjectSlug: "hello", Name: "API", Slug: "api", ParentId: docs.GetCategory().GetId()}})
		if err != nil || api.GetCategory().GetPath() != "docs/api" {
			t.Fatalf("nested: %v %v", api, err)
		}
		if _, err = e.client.UpdateComponent(ctx, &catalogv1.UpdateComponentRequest{ProjectSlug: "hello", Slug: "app",
			Component: &catalogv1.Component{CategoryId: api.GetCategory().GetId()}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"category_id"}}}); err != nil {
			t.Fatal(err)
		}
		got, err := e.client.GetCategory(ctx, &catalogv1.GetCategoryRequest{ProjectSlug: "hello", Path: "docs/api"})
		if err != nil || got.GetCategory().GetId() != api.GetCategory().GetId() || len(got.GetComponentIds()) != 1 {
			t.Errorf("by path: %v %v", got, err)
		}
		comp, _ := e.client.GetComponent(ctx, &catalogv1.GetComponentRequest{ProjectSlug: "hello", Slug: "app"})
		if comp.GetComponent().GetCategoryPath() != "docs/api" {
			t.Errorf("component path %q", comp.GetComponent().GetCategoryPath())
		}
		renamed, err := e.client.UpdateCategory(ctx, &catalogv1.UpdateCategoryRequest{Id: docs.GetCategory().GetId(),
			Category: &catalogv1.Category{Name: "Documentation"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"name"}}})
		if err != nil || renamed.GetCategory().GetName() != "Documentation" || renamed.GetCategory().GetSlug() != "docs" {
			t.Errorf("rename: %v %v", renamed, err)
		}
		_, err = e.client.CreateCategory(policy.WithCaller(ctx, outsider), &catalogv1.CreateCategoryRequest{Category: &catalogv1.Category{ProjectSlug: "hello", Name: "X", Slug: "x"}})
		wantKind(t, err, errs.PermissionDenied, nil)
		list, err := e.client.ListCategories(ctx, &catalogv1.ListCategoriesRequest{ProjectSlug: "hello"})
		if err != nil || list.GetTotal() != 2 {
			t.Errorf("list: %v %v", list, err)
		}
		removed, err := e.client.DeleteCategory(ctx, &catalogv1.DeleteCategoryRequest{Id: docs.GetCategory().GetId(), Actor: "admin"})
		if err != nil || len(removed.GetRemoved()) != 1 || removed.GetRemoved()[0].GetSlug() != "app" {
			t.Errorf("delete: %v %v", removed, err)
		}
	})
	e.component("hello", "web")

	t.Run("links", func(t *testing.T) {
		if _, err := e.client.AddComponentLink(ctx, &catalogv1.AddComponentLinkRequest{ProjectSlug: "hello", Slug: "web", LinkProjectSlug: "other"}); err != nil {
			t.Fatal(err)
		}
		links, err := e.client.ListComponentLinks(ctx, &catalogv1.ListComponentLinksRequest{ProjectSlug: "hello", Slug: "web"})
		if err != nil || links.GetTotal() != 1 || links.GetProjects()[0].GetSlug() != "other" {
			t.Errorf("links: %v %v", links, err)
		}
		shared, _ := e.client.ListComponents(ctx, &catalogv1.ListComponentsRequest{ProjectSlug: "other"})
		if shared.GetTotal() != 1 || shared.GetComponents()[0].GetProjectSlug() != "hello" {
			t.Errorf("the other project's components: %v", shared)
		}
		_, err = e.client.RemoveComponentLink(policy.WithCaller(ctx, outsider), &catalogv1.RemoveComponentLinkRequest{ProjectSlug: "hello", Slug: "web", LinkProjectSlug: "other"})
		wantKind(t, err, errs.PermissionDenied, nil)
		if _, err := e.client.RemoveComponentLink(ctx, &catalogv1.RemoveComponentLinkRequest{ProjectSlug: "hello", Slug: "web", LinkProjectSlug: "other"}); err != nil {
			t.Error(err)
		}
	})

	t.Run("announcements", func(t *testing.T) {
		a, err := e.client.CreateAnnouncement(ctx, &catalogv1.CreateAnnouncementRequest{Actor: "admin", Announcement: &catalogv1.Announcement{
			ProjectSlug: "hello", ComponentSlug: "web", LanguageCode: "de", Message: "Freeze Friday", Notify: true}})
		if err != nil || a.GetAnnouncement().GetCategory() != "info" {
			t.Fatalf("post: %v %v", a, err)
		}
		list, err := e.client.ListAnnouncements(ctx, &catalogv1.ListAnnouncementsRequest{ProjectSlug: "hello", ComponentSlug: "web", LanguageCode: "de"})
		if err != nil || list.GetTotal() != 1 {
			t.Errorf("list: %v %v", list, err)
		}
		var posted bool
		for _, ch := range e.changes() {
			posted = posted || (ch.GetAction() == typev1.ChangeAction_CHANGE_ACTION_ANNOUNCEMENT && ch.GetTarget() == "Freeze Friday" && ch.GetLanguageCode() == "de")
		}
		if !posted {
			t.Error("no \"Announcement posted\" record")
		}
		_, err = e.client.DeleteAnnouncement(policy.WithCaller(ctx, outsider), &catalogv1.DeleteAnnouncementRequest{ProjectSlug: "hello", ComponentSlug: "web", LanguageCode: "de", Id: a.GetAnnouncement().GetId()})
		wantKind(t, err, errs.PermissionDenied, nil)
		if _, err := e.client.DeleteAnnouncement(ctx, &catalogv1.DeleteAnnouncementRequest{ProjectSlug: "hello", ComponentSlug: "web", LanguageCode: "de", Id: a.GetAnnouncement().GetId()}); err != nil {
			t.Error(err)
		}
	})

	t.Run("machinery", func(t *testing.T) {
		cfg, _ := structpb.NewStruct(map[string]any{"key": "sekrit", "url": "https://api.deepl.com/v2/"})
		set, err := e.client.SetMachinerySettings(ctx, &catalogv1.SetMachinerySettingsRequest{ProjectSlug: "hello", Service: "deepl", Configuration: cfg})
		if err != nil || set.GetName() != "DeepL" {
			t.Fatalf("set: %v %v", set, err)
		}
		got, err := e.client.GetMachinerySettings(ctx, &catalogv1.GetMachinerySettingsRequest{ProjectSlug: "hello"})
		deepl := got.GetServices()["deepl"].AsMap()
		if err != nil || deepl["url"] != "https://api.deepl.com/v2/" || deepl["key"] != nil {
			t.Errorf("get: %v %v", deepl, err)
		}
		_, err = e.client.GetMachinerySettings(policy.WithCaller(ctx, outsider), &catalogv1.GetMachinerySettingsRequest{ProjectSlug: "hello"})
		wantKind(t, err, errs.PermissionDenied, nil)
		// The secrets go to the services' own calls only, not even to a superuser.
		withKey, err := e.client.GetMachinerySettings(ctx, &catalogv1.GetMachinerySettingsRequest{ProjectSlug: "hello", IncludeSecrets: true})
		if err != nil || withKey.GetServices()["deepl"].AsMap()["key"] != "sekrit" {
			t.Errorf("the service's own call: %v %v", withKey, err)
		}
		admin := policy.Caller{Username: "root", Superuser: true}
		_, err = e.client.GetMachinerySettings(policy.WithCaller(ctx, admin), &catalogv1.GetMachinerySettingsRequest{ProjectSlug: "hello", IncludeSecrets: true})
		wantKind(t, err, errs.PermissionDenied, nil)
	})
}
