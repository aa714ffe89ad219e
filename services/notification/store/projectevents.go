package store

import (
	"context"
	"fmt"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ProjectEventKind tells what a ProjectEvent reports.
type ProjectEventKind int

// The kinds of ProjectEvent.
const (
	ProjectCreated ProjectEventKind = iota + 1
	ProjectRenamed
	ProjectDeleted
	ComponentRenamed
	ComponentDeleted
	ComponentListChanged
)

// ProjectEvent is one lifecycle event of the catalog that the teams,
// links, subscriptions and webhooks kept by slug follow.
type ProjectEvent struct {
	ID      string // the sender's event id, unique per event
	Kind    ProjectEventKind
	Project string // the project's slug (before a project rename)
	// Component is the component's slug (before a component rename), for
	// the component kinds.
	Component string
	NewSlug   string // the new slug, for the rename kinds
	// CreatorID is the account put into a created project's
	// Administration team; nil: nobody.
	CreatorID *int64
	// List is the component list as it is now, for ComponentListChanged;
	// ListDeleted tells it is gone.
	List        ComponentList
	ListDeleted bool
}

// appliedEvent is a row of applied_project_events.
type appliedEvent struct {
	EventID   string `gorm:"primaryKey"`
	AppliedAt time.Time
}

func (appliedEvent) TableName() string { return "applied_project_events" }

// ApplyProjectEvent applies ev unless an event of its id was applied
// before, and reports whether it applied it. The event and its id are
// stored in one transaction, so an event delivered again, however late,
// changes nothing: a rename delivered again after a new project took the
// former slug leaves the new project's teams alone, a delete delivered
// again after the slug was taken anew drops nothing of the new project.
func (s *Store) ApplyProjectEvent(ctx context.Context, ev ProjectEvent) (bool, error) {
	applied := false
	err := s.gdb.WithContext(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Clauses(clause.OnConflict{DoNothing: true}).
			Create(&appliedEvent{EventID: ev.ID, AppliedAt: time.Now().UTC()})
		if res.Error != nil || res.RowsAffected == 0 {
			return res.Error
		}
		applied = true
		return applyProjectEvent(tx, ev)
	})
	if err != nil {
		return false, err
	}
	return applied, nil
}

func applyProjectEvent(tx *gorm.DB, ev ProjectEvent) error {
	switch ev.Kind {
	case ProjectCreated:
		return setupProjectTeams(tx, ev.Project, ev.CreatorID)
	case ProjectRenamed:
		return renameProject(tx, ev.Project, ev.NewSlug)
	case ProjectDeleted:
		return deleteProjectTeams(tx, ev.Project)
	case ComponentRenamed:
		return renameComponent(tx, ev.Project, ev.Component, ev.NewSlug)
	case ComponentDeleted:
		return deleteComponentScope(tx, ev.Project, ev.Component)
	case ComponentListChanged:
		return applyComponentList(tx, ev.List, ev.ListDeleted)
	}
	return fmt.Errorf("project event %s: unknown kind %d", ev.ID, ev.Kind)
}
