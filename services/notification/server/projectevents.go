package server

import (
	"context"
	"fmt"

	"github.com/tmsproject/tms/pkg/errs"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/notification/store"
)

// maxEventID bounds ProjectEvent.event_id (a UUID from the catalog).
const maxEventID = 200

// ApplyProjectEvents applies the catalog's lifecycle events in order, each
// at most once (services and superusers).
func (a *Access) ApplyProjectEvents(ctx context.Context, req *notificationv1.ApplyProjectEventsRequest) (*notificationv1.ApplyProjectEventsResponse, error) {
	if err := requireSite(ctx); err != nil {
		return nil, err
	}
	events := make([]store.ProjectEvent, len(req.GetEvents()))
	var v errs.Violations
	for i, e := range req.GetEvents() {
		events[i] = projectEvent(e, fmt.Sprintf("events.%d", i), &v)
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	resp := &notificationv1.ApplyProjectEventsResponse{}
	for i, ev := range events {
		if creator := req.GetEvents()[i].GetProjectCreated().GetCreator(); creator != "" {
			id, ok, err := a.memberID(ctx, creator)
			if err != nil {
				return nil, err
			}
			if ok {
				ev.CreatorID = &id
			}
		}
		applied, err := a.store.ApplyProjectEvent(ctx, ev)
		if err != nil {
			return nil, err
		}
		if applied {
			resp.Applied++
		}
	}
	return resp, nil
}

// projectEvent converts e, adding a violation under prefix for each
// missing field.
func projectEvent(e *notificationv1.ProjectEvent, prefix string, v *errs.Violations) store.ProjectEvent {
	ev := store.ProjectEvent{ID: e.GetEventId()}
	switch {
	case ev.ID == "":
		v.Add(prefix+".event_id", "required", "This field is required.")
	case len(ev.ID) > maxEventID:
		v.Add(prefix+".event_id", "max_length", fmt.Sprintf("Ensure this field has no more than %d characters.", maxEventID))
	}
	var required []string // the values that must not be empty
	switch k := e.GetKind().(type) {
	case *notificationv1.ProjectEvent_ProjectCreated:
		ev.Kind, ev.Project = store.ProjectCreated, k.ProjectCreated.GetProject()
		required = []string{ev.Project}
	case *notificationv1.ProjectEvent_ProjectRenamed:
		ev.Kind, ev.Project, ev.NewSlug = store.ProjectRenamed, k.ProjectRenamed.GetProject(), k.ProjectRenamed.GetNewSlug()
		required = []string{ev.Project, ev.NewSlug}
	case *notificationv1.ProjectEvent_ProjectDeleted:
		ev.Kind, ev.Project = store.ProjectDeleted, k.ProjectDeleted.GetProject()
		required = []string{ev.Project}
	case *notificationv1.ProjectEvent_ComponentRenamed:
		r := k.ComponentRenamed
		ev.Kind, ev.Project, ev.Component, ev.NewSlug = store.ComponentRenamed, r.GetProject(), r.GetComponent(), r.GetNewSlug()
		required = []string{ev.Project, ev.Component, ev.NewSlug}
	case *notificationv1.ProjectEvent_ComponentDeleted:
		ev.Kind, ev.Project, ev.Component = store.ComponentDeleted, k.ComponentDeleted.GetProject(), k.ComponentDeleted.GetComponent()
		required = []string{ev.Project, ev.Component}
	case *notificationv1.ProjectEvent_ComponentListChanged:
		l := k.ComponentListChanged
		ev.Kind, ev.ListDeleted = store.ComponentListChanged, l.GetDeleted()
		ev.List = store.ComponentList{ID: l.GetId(), Slug: l.GetSlug(), Components: l.GetComponents()}
		if l.GetId() <= 0 || (l.GetSlug() == "" && !l.GetDeleted()) {
			v.Add(prefix, "invalid", "The event names no component list.")
		}
	default:
		v.Add(prefix, "required", "The event names no kind.")
		return ev
	}
	for _, s := range required {
		if s == "" {
			v.Add(prefix, "invalid", "The event names no project, component or new slug it needs.")
			break
		}
	}
	return ev
}
