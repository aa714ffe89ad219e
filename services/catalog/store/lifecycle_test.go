package store_test

import (
	"fmt"
	"slices"
	"testing"

	"gorm.io/gorm"

	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// lifecycle lists the undelivered events of store.Lifecycle as
// "kind project[/component][>new slug][ by creator]", in order.
func lifecycle(t *testing.T, gdb *gorm.DB) []string {
	t.Helper()
	events, err := store.Lifecycle.Undelivered(gdb)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]string, len(events))
	for i, ev := range events {
		if ev.Topic != store.LifecycleTopic {
			t.Errorf("event %d: topic %q", i, ev.Topic)
		}
		pe, err := store.DecodeLifecycle(ev)
		if err != nil {
			t.Fatal(err)
		}
		if pe.GetEventId() != ev.EventID || pe.GetEventId() == "" {
			t.Errorf("event %d: id %q, want the outbox's %q", i, pe.GetEventId(), ev.EventID)
		}
		out[i] = describe(pe)
	}
	return out
}

func describe(pe *notificationv1.ProjectEvent) string {
	switch k := pe.GetKind().(type) {
	case *notificationv1.ProjectEvent_ProjectCreated:
		return fmt.Sprintf("created %s by %s", k.ProjectCreated.GetProject(), k.ProjectCreated.GetCreator())
	case *notificationv1.ProjectEvent_ProjectRenamed:
		return fmt.Sprintf("renamed %s>%s", k.ProjectRenamed.GetProject(), k.ProjectRenamed.GetNewSlug())
	case *notificationv1.ProjectEvent_ProjectDeleted:
		return "deleted " + k.ProjectDeleted.GetProject()
	case *notificationv1.ProjectEvent_ComponentRenamed:
		r := k.ComponentRenamed
		return fmt.Sprintf("renamed %s/%s>%s", r.GetProject(), r.GetComponent(), r.GetNewSlug())
	case *notificationv1.ProjectEvent_ComponentDeleted:
		return fmt.Sprintf("deleted %s/%s", k.ComponentDeleted.GetProject(), k.ComponentDeleted.GetComponent())
	case *notificationv1.ProjectEvent_ComponentListChanged:
		l := k.ComponentListChanged
		if l.GetDeleted() {
			return "list deleted"
		}
		return fmt.Sprintf("list %s %v", l.GetSlug(), l.GetComponents())
	}
	return fmt.Sprintf("unknown %v", pe)
}

// testLifecycle: every write that creates, renames or deletes a project
// or component adds its events to store.Lifecycle in the order of the
// writes; a write that changes no slug and a refused write add none.
func testLifecycle(t *testing.T, s *store.Store, gdb *gorm.DB) {
	ctx := t.Context()
	removed := func(store.Component) *changelogv1.Change { return nil }
	var p, q *store.Project
	var base, child, other *store.Component
	steps := []struct {
		name string
		do   func() error
		want []string // the events the step adds
	}{
		{"create projects", func() error {
			p, q = newProject("p"), newProject("q")
			if err := s.CreateProject(ctx, p, "ann", nil); err != nil {
				return err
			}
			return s.CreateProject(ctx, q, "", nil)
		}, []string{"created p by ann", "created q by "}},
		{"a refused create adds nothing", func() error {
			if err := s.CreateProject(ctx, newProject("p"), "bob", nil); err == nil {
				return fmt.Errorf("a second project p was created")
			}
			return nil
		}, nil},
		{"create components", func() error {
			base, other = newComponent(p.ID, "base"), newComponent(p.ID, "other")
			child = newComponent(q.ID, "child")
			child.LinkedComponentID = &base.ID
			for _, c := range []*store.Component{base, other, child} {
				if err := s.CreateComponent(ctx, c, nil); err != nil {
					return err
				}
			}
			return nil
		}, nil},
		{"rename a project", func() error {
			p.Slug = "p2"
			return s.SaveProject(ctx, p, nil)
		}, []string{"renamed p>p2"}},
		{"change a project's name only", func() error {
			p.Name = "P two"
			return s.SaveProject(ctx, p, nil)
		}, nil},
		{"rename a component", func() error {
			other.Slug = "other2"
			return s.SaveComponent(ctx, other, nil)
		}, []string{"renamed p2/other>other2"}},
		{"delete a component", func() error {
			return s.DeleteComponent(ctx, "p2", "other2", removed)
		}, []string{"deleted p2/other2"}},
		{"delete a category with its component", func() error {
			cat := &store.Category{ProjectID: q.ID, Name: "Cat", Slug: "cat"}
			if err := s.SaveCategory(ctx, cat); err != nil {
				return err
			}
			inCat := newComponent(q.ID, "incat")
			inCat.CategoryID = cat.ID
			if err := s.CreateComponent(ctx, inCat, nil); err != nil {
				return err
			}
			_, err := s.DeleteCategory(ctx, cat.ID, removed)
			return err
		}, []string{"deleted q/incat"}},
		{"a component list, its members and rules", func() error {
			l := &store.ComponentList{Name: "Docs", Slug: "docs"}
			if err := s.SaveComponentList(ctx, l, []store.AutoAssign{{ProjectMatch: "q", ComponentMatch: "chi"}}); err != nil {
				return err
			}
			if err := s.ChangeListMember(ctx, l.ID, base.ID, false); err != nil {
				return err
			}
			if err := s.ChangeListMember(ctx, l.ID, child.ID, true); err != nil {
				return err
			}
			matched := newComponent(q.ID, "chimney")
			if err := s.CreateComponent(ctx, matched, nil); err != nil {
				return err
			}
			return s.DeleteComponentList(ctx, l.ID)
		}, []string{"list docs [q/child]", "list docs [p2/base q/child]", "list docs [p2/base]",
			"list docs [p2/base q/chimney]", "list deleted"}},
		{"delete a project with a component linked from another", func() error {
			return s.DeleteProject(ctx, "p2", nil, removed)
		}, []string{"deleted q/child", "deleted p2"}},
	}
	var want []string
	for _, st := range steps {
		t.Run(st.name, func(t *testing.T) {
			if err := st.do(); err != nil {
				t.Fatal(err)
			}
			want = append(want, st.want...)
			if got := lifecycle(t, gdb); !slices.Equal(got, want) {
				t.Errorf("events %q, want %q", got, want)
			}
		})
	}
}
