package store

import (
	"errors"
	"fmt"

	"google.golang.org/protobuf/proto"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/outbox"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// Lifecycle is the outbox table of the creations, renames and deletions
// of projects and components that the notification service follows (its
// teams, team links, subscriptions and webhooks are kept by slug): each
// such write adds, in its transaction, one event per project or component
// whose payload is a notificationv1.ProjectEvent without its event_id (the
// relay sets it to the outbox's event id). A table of its own, so that
// these events keep their order among themselves, apart from the
// translation service's (Removals); migrate it with
// Lifecycle.Migrations().
var Lifecycle = outbox.Table("access_events")

// LifecycleTopic is the topic of every event in Lifecycle.
const LifecycleTopic = "access.project"

// recordLifecycle writes the events into Lifecycle within tx, in order.
func recordLifecycle(tx *gorm.DB, events ...*notificationv1.ProjectEvent) error {
	for _, ev := range events {
		payload, err := proto.Marshal(ev)
		if err != nil {
			return fmt.Errorf("encode project event: %w", err)
		}
		if _, err := Lifecycle.Add(tx, LifecycleTopic, payload); err != nil {
			return err
		}
	}
	return nil
}

// DecodeLifecycle reads the ProjectEvent an event of Lifecycle carries,
// its event_id set to the event's.
func DecodeLifecycle(ev outbox.Event) (*notificationv1.ProjectEvent, error) {
	out := &notificationv1.ProjectEvent{}
	if err := proto.Unmarshal(ev.Payload, out); err != nil {
		return nil, fmt.Errorf("decode project event %s: %w", ev.EventID, err)
	}
	out.EventId = ev.EventID
	return out, nil
}

func projectCreated(project, creator string) *notificationv1.ProjectEvent {
	return &notificationv1.ProjectEvent{Kind: &notificationv1.ProjectEvent_ProjectCreated{
		ProjectCreated: &notificationv1.ProjectCreated{Project: project, Creator: creator}}}
}

func projectRenamed(project, newSlug string) *notificationv1.ProjectEvent {
	return &notificationv1.ProjectEvent{Kind: &notificationv1.ProjectEvent_ProjectRenamed{
		ProjectRenamed: &notificationv1.ProjectRenamed{Project: project, NewSlug: newSlug}}}
}

func projectDeleted(project string) *notificationv1.ProjectEvent {
	return &notificationv1.ProjectEvent{Kind: &notificationv1.ProjectEvent_ProjectDeleted{
		ProjectDeleted: &notificationv1.ProjectDeleted{Project: project}}}
}

func componentRenamed(project, component, newSlug string) *notificationv1.ProjectEvent {
	return &notificationv1.ProjectEvent{Kind: &notificationv1.ProjectEvent_ComponentRenamed{
		ComponentRenamed: &notificationv1.ComponentRenamed{Project: project, Component: component, NewSlug: newSlug}}}
}

// componentsDeleted are the events of removed components, but those of
// project (0: none), which go with the project's own event.
func componentsDeleted(removed []Component, project int64) []*notificationv1.ProjectEvent {
	var out []*notificationv1.ProjectEvent
	for _, c := range removed {
		if c.ProjectID == project {
			continue
		}
		out = append(out, &notificationv1.ProjectEvent{Kind: &notificationv1.ProjectEvent_ComponentDeleted{
			ComponentDeleted: &notificationv1.ComponentDeleted{Project: c.ProjectSlug, Component: c.Slug}}})
	}
	return out
}

// listChanged records component list id as it is now in tx (its slug and
// every component, as "project/component"), or, when the list is gone,
// its removal: the notification service keeps the lists its teams use.
func listChanged(tx *gorm.DB, id int64) error {
	var l ComponentList
	err := tx.Where("id = ?", id).Take(&l).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return recordLifecycle(tx, &notificationv1.ProjectEvent{Kind: &notificationv1.ProjectEvent_ComponentListChanged{
			ComponentListChanged: &notificationv1.ComponentListChanged{Id: id, Deleted: true}}})
	}
	if err != nil {
		return err
	}
	var rows []struct{ Project, Component string }
	if err := tx.Table("component_list_members m").Select("p.slug AS project, c.slug AS component").
		Joins("JOIN components c ON c.id = m.component_id").Joins("JOIN projects p ON p.id = c.project_id").
		Where("m.list_id = ?", id).Order("p.slug, c.slug").Scan(&rows).Error; err != nil {
		return err
	}
	members := make([]string, len(rows))
	for i, r := range rows {
		members[i] = r.Project + "/" + r.Component
	}
	return recordLifecycle(tx, &notificationv1.ProjectEvent{Kind: &notificationv1.ProjectEvent_ComponentListChanged{
		ComponentListChanged: &notificationv1.ComponentListChanged{Id: id, Slug: l.Slug, Components: members}}})
}
