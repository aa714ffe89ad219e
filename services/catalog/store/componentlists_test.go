package store_test

import (
	"errors"
	"slices"
	"testing"

	"gorm.io/gorm"

	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// testComponentLists: rules assign the components whose slugs match from
// their start, existing ones when the rules are written and new ones when
// created; members follow what the viewer may see, and a list with no
// member it may see does not exist for it; a deleted component leaves its
// lists.
func testComponentLists(t *testing.T, s *store.Store, _ *gorm.DB) {
	ctx := t.Context()
	ids := map[string]int64{}
	for _, x := range []struct {
		slug   string
		access int32
	}{{"open", 0}, {"secret", 100}} {
		p := newProject(x.slug)
		p.AccessControl = x.access
		if err := s.CreateProject(ctx, p, "", nil); err != nil {
			t.Fatal(err)
		}
		for _, slug := range []string{"app", "docs"} {
			c := newComponent(p.ID, slug)
			if err := s.CreateComponent(ctx, c, nil); err != nil {
				t.Fatal(err)
			}
			ids[x.slug+"/"+slug] = c.ID
		}
	}
	apps := &store.ComponentList{Name: "Apps", Slug: "apps", ShowDashboard: true}
	if err := s.SaveComponentList(ctx, apps, []store.AutoAssign{{ProjectMatch: "op", ComponentMatch: "a"}}); err != nil {
		t.Fatal(err)
	}
	secret := &store.ComponentList{Name: "Secret", Slug: "secret"}
	if err := s.SaveComponentList(ctx, secret, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.ChangeListMember(ctx, secret.ID, ids["secret/docs"], false); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveComponentList(ctx, &store.ComponentList{Name: "Other", Slug: "apps"}, nil); !errors.As(err, new(*store.DuplicateError)) {
		t.Errorf("a taken slug: %v", err)
	}
	api := newComponent(0, "api")
	p, _ := s.GetProject(ctx, "open")
	api.ProjectID = p.ID
	if err := s.CreateComponent(ctx, api, nil); err != nil {
		t.Fatal(err)
	}
	all, outsider := store.Viewer{All: true}, store.Viewer{Levels: []int32{0, 1}}
	got, err := s.GetComponentList(ctx, "apps", all)
	if err != nil || !slices.Equal(got.Members, []int64{ids["open/app"], api.ID}) || len(got.Rules) != 1 {
		t.Errorf("apps: %+v %v", got, err)
	}
	if err = s.ChangeListMember(ctx, apps.ID, ids["secret/app"], false); err != nil {
		t.Fatal(err)
	}
	lists, total, err := s.ListComponentLists(ctx, store.Page{}, outsider)
	if err != nil || total != 1 || len(lists) != 1 || slices.Contains(lists[0].Members, ids["secret/app"]) || len(lists[0].Members) != 2 {
		t.Errorf("outsider's lists: %d %+v %v", total, lists, err)
	}
	if _, err := s.GetComponentList(ctx, "secret", outsider); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("outsider reads a list of private components: %v", err)
	}
	if _, total, _ := s.ListComponentLists(ctx, store.Page{}, all); total != 2 {
		t.Errorf("all lists: %d", total)
	}
	if err := s.DeleteComponent(ctx, "open", "api", func(store.Component) *changelogv1.Change { return nil }); err != nil {
		t.Fatal(err)
	}
	if err := s.ChangeListMember(ctx, apps.ID, ids["open/app"], true); err != nil {
		t.Fatal(err)
	}
	if err := s.ChangeListMember(ctx, apps.ID, ids["open/app"], true); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("removing a component that is not a member: %v", err)
	}
	if got, _ := s.GetComponentList(ctx, "apps", all); !slices.Equal(got.Members, []int64{ids["secret/app"]}) {
		t.Errorf("after removals: %v", got.Members)
	}
	if err := s.DeleteComponentList(ctx, apps.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := s.GetComponentList(ctx, "apps", all); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("deleted list: %v", err)
	}
}
