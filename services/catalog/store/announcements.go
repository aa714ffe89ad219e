package store

import (
	"context"
	"time"

	"gorm.io/gorm"

	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// Announcement is a message posted to a project, a category (CategoryID),
// a component (ComponentID), a translation (ComponentID and LanguageCode)
// or a project's language (LanguageCode alone).
type Announcement struct {
	ID           int64     `gorm:"column:id;primaryKey"`
	ProjectID    int64     `gorm:"column:project_id"`
	CategoryID   int64     `gorm:"column:category_id"`
	ComponentID  int64     `gorm:"column:component_id"`
	LanguageCode string    `gorm:"column:language_code"`
	Message      string    `gorm:"column:message"`
	Category     string    `gorm:"column:category"`
	Expiry       string    `gorm:"column:expiry"`
	Notify       bool      `gorm:"column:notify"`
	Username     string    `gorm:"column:username"`
	Created      time.Time `gorm:"column:created"`
}

// TableName implements gorm's tabler.
func (Announcement) TableName() string { return "announcements" }

// AnnouncementContext names where announcements are posted.
type AnnouncementContext struct {
	ProjectID, CategoryID, ComponentID int64
	LanguageCode                       string
}

func (c AnnouncementContext) where(q *gorm.DB) *gorm.DB {
	return q.Where("project_id = ? AND category_id = ? AND component_id = ? AND language_code = ?",
		c.ProjectID, c.CategoryID, c.ComponentID, c.LanguageCode)
}

// ListAnnouncements pages the announcements of exactly this context, newest
// first.
func (s *Store) ListAnnouncements(ctx context.Context, at AnnouncementContext, page Page) ([]Announcement, int64, error) {
	q := s.db.WithContext(ctx)
	var total int64
	if err := at.where(q.Model(&Announcement{})).Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Announcement
	err := page.apply(at.where(q).Order("id DESC")).Find(&out).Error
	return out, total, err
}

// CreateAnnouncement stores a, with the change record (nil: none) in the
// same transaction.
func (s *Store) CreateAnnouncement(ctx context.Context, a *Announcement, change *changelogv1.Change) error {
	a.ID, a.Created = 0, now()
	return s.transaction(ctx, func(tx *gorm.DB) error {
		if err := tx.Create(a).Error; err != nil {
			return err
		}
		if change == nil {
			return nil
		}
		return record(tx, change)
	})
}

// DeleteAnnouncement removes an announcement of the context; ErrNotFound
// when it has none with this id.
func (s *Store) DeleteAnnouncement(ctx context.Context, at AnnouncementContext, id int64) error {
	res := at.where(s.db.WithContext(ctx)).Where("id = ?", id).Delete(&Announcement{})
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}
