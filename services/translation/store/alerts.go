package store

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// Alert is a standing problem of a component, shown until it is solved.
type Alert struct {
	ComponentID int64  `gorm:"primaryKey"`
	Name        string `gorm:"primaryKey"`
	Detail      string
	CreatedAt   time.Time
	UpdatedAt   time.Time
}

// TableName is the component_alerts table.
func (Alert) TableName() string { return "component_alerts" }

// RaiseAlert records the alert (or refreshes its detail). The change
// records are written only when the alert is new, as the reference records
// "Alert triggered" once per alert, not on every repetition.
func (s *Store) RaiseAlert(ctx context.Context, componentID int64, name, detail string, onNew ...*changelogv1.Change) error {
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		t := now()
		var existing Alert
		err := tx.Where("component_id = ? AND name = ?", componentID, name).Take(&existing).Error
		if err == nil {
			return tx.Model(&existing).Updates(map[string]any{"detail": detail, "updated_at": t}).Error
		}
		if !errors.Is(err, gorm.ErrRecordNotFound) {
			return err
		}
		a := Alert{ComponentID: componentID, Name: name, Detail: detail, CreatedAt: t, UpdatedAt: t}
		if err := tx.Clauses(clause.OnConflict{DoNothing: true}).Create(&a).Error; err != nil {
			return err
		}
		return record(tx, t, onNew...)
	})
}

// ClearAlerts removes the named alerts of a component.
func (s *Store) ClearAlerts(ctx context.Context, componentID int64, names ...string) error {
	return s.q(ctx).Where("component_id = ? AND name IN ?", componentID, names).Delete(&Alert{}).Error
}

// Alerts lists a component's alerts, oldest first.
func (s *Store) Alerts(ctx context.Context, componentID int64) ([]Alert, error) {
	var out []Alert
	err := s.q(ctx).Where("component_id = ?", componentID).Order("created_at, name").Find(&out).Error
	return out, err
}

// LatestTask is the component's newest import task.
func (s *Store) LatestTask(ctx context.Context, componentID int64) (Task, error) {
	var t Task
	err := s.q(ctx).Where("component_id = ? AND kind = ?", componentID, TaskImport).Order("created_at DESC, id DESC").Take(&t).Error
	return t, notFound(err, "task")
}
