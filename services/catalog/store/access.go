package store

import (
	"context"
)

// ProjectLevel is a project's slug, access level and part in the shared
// memory.
type ProjectLevel struct {
	Slug          string `gorm:"column:slug"`
	AccessControl int32  `gorm:"column:access_control"`
	SharedMemory
}

// SharedMemory is a project's part in the shared translation memory.
type SharedMemory struct {
	UseSharedTM        bool `gorm:"column:use_shared_tm"`
	ContributeSharedTM bool `gorm:"column:contribute_shared_tm"`
}

// ProjectAccess lists the access level of every project by slug. The other
// services ask for it on every request a visibility rule restricts, so on
// SQLite it is kept until the next write.
func (s *Store) ProjectAccess(ctx context.Context) ([]ProjectLevel, error) {
	return cached(s.db, &s.cache.access, struct{}{}, func() ([]ProjectLevel, error) {
		var out []ProjectLevel
		err := s.db.WithContext(ctx).Model(&Project{}).Select("slug", "access_control", "use_shared_tm", "contribute_shared_tm").
			Order("slug").Find(&out).Error
		return out, err
	})
}
