package server_test

import (
	"testing"

	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// TestComponentLists: only callers with componentlist.edit write lists;
// rules assign by slug; a caller sees a list only through the components
// it may see, and the members it may see.
func TestComponentLists(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	e.project("open")
	e.project("secret")
	open, secret := e.component("open", "app"), e.component("secret", "app")
	if _, err := e.client.UpdateProject(ctx, &catalogv1.UpdateProjectRequest{Slug: "secret",
		Project: &catalogv1.Project{AccessControl: typev1.AccessControl_ACCESS_CONTROL_PRIVATE}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"access_control"}}}); err != nil {
		t.Fatal(err)
	}
	list := &catalogv1.ComponentList{Name: "Apps", Slug: "apps", AutoAssign: []*catalogv1.AutoAssign{{ProjectMatch: ".*", ComponentMatch: "^app$"}}}
	_, err := e.client.CreateComponentList(policy.WithCaller(ctx, outsider), &catalogv1.CreateComponentListRequest{ComponentList: list})
	wantKind(t, err, errs.PermissionDenied, nil)
	bad := &catalogv1.ComponentList{Name: "Bad", Slug: "bad", AutoAssign: []*catalogv1.AutoAssign{{ProjectMatch: "(", ComponentMatch: ""}}}
	_, err = e.client.CreateComponentList(ctx, &catalogv1.CreateComponentListRequest{ComponentList: bad})
	wantKind(t, err, errs.InvalidArgument, &violation{field: "auto_assign", code: "invalid"})
	created, err := e.client.CreateComponentList(ctx, &catalogv1.CreateComponentListRequest{ComponentList: list})
	if err != nil || len(created.GetComponentList().GetComponents()) != 2 {
		t.Fatalf("created: %v %v", created, err)
	}
	_, err = e.client.CreateComponentList(ctx, &catalogv1.CreateComponentListRequest{ComponentList: list})
	wantKind(t, err, errs.InvalidArgument, &violation{field: "slug", code: "unique"})

	seen, err := e.client.GetComponentList(policy.WithCaller(ctx, outsider), &catalogv1.GetComponentListRequest{Slug: "apps"})
	if err != nil || len(seen.GetComponentList().GetComponents()) != 1 || seen.GetComponentList().GetComponents()[0].GetId() != open.GetId() {
		t.Errorf("outsider's view: %v %v", seen, err)
	}
	if _, err = e.client.ChangeComponentListMember(ctx, &catalogv1.ChangeComponentListMemberRequest{Slug: "apps", ComponentId: open.GetId(), Remove: true}); err != nil {
		t.Fatal(err)
	}
	_, err = e.client.GetComponentList(policy.WithCaller(ctx, outsider), &catalogv1.GetComponentListRequest{Slug: "apps"})
	wantKind(t, err, errs.NotFound, nil)
	lists, err := e.client.ListComponentLists(policy.WithCaller(ctx, outsider), &catalogv1.ListComponentListsRequest{})
	if err != nil || lists.GetTotal() != 0 {
		t.Errorf("outsider's lists: %v %v", lists, err)
	}
	_, err = e.client.ChangeComponentListMember(policy.WithCaller(ctx, outsider), &catalogv1.ChangeComponentListMemberRequest{Slug: "apps", ComponentId: open.GetId()})
	wantKind(t, err, errs.PermissionDenied, nil)
	upd, err := e.client.UpdateComponentList(ctx, &catalogv1.UpdateComponentListRequest{Slug: "apps",
		ComponentList: &catalogv1.ComponentList{Name: "All apps"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"name"}}})
	if err != nil || upd.GetComponentList().GetName() != "All apps" || len(upd.GetComponentList().GetComponents()) != 1 ||
		upd.GetComponentList().GetComponents()[0].GetId() != secret.GetId() {
		t.Errorf("update: %v %v", upd, err)
	}
	if _, err = e.client.DeleteComponentList(ctx, &catalogv1.DeleteComponentListRequest{Slug: "apps"}); err != nil {
		t.Fatal(err)
	}
	_, err = e.client.GetComponentList(ctx, &catalogv1.GetComponentListRequest{Slug: "apps"})
	wantKind(t, err, errs.NotFound, nil)
}
