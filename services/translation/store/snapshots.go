package store

import (
	"context"
	"errors"
	"time"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// Snapshot is what a component's working copy holds that the remote does
// not: its HEAD on branch of url, the remote-tracking branch it was last
// compared with (RemoteHead), and the objects of the commits between them
// as a git pack (empty when everything is pushed).
type Snapshot struct {
	ComponentID int64 `gorm:"primaryKey"`
	URL         string
	Branch      string
	Head        string
	RemoteHead  string
	Pack        []byte
	// State is the working copy's position against its remote when the
	// snapshot was taken (JSON of workcopy.State).
	State     string
	UpdatedAt time.Time
}

// TableName is the repository_snapshots table.
func (Snapshot) TableName() string { return "repository_snapshots" }

// GetSnapshot returns the component's snapshot; ok is false when none was
// saved (a component imported before snapshots, or never).
func (s *Store) GetSnapshot(ctx context.Context, componentID int64) (_ Snapshot, ok bool, err error) {
	var snap Snapshot
	err = s.q(ctx).Where("component_id = ?", componentID).Take(&snap).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		return snap, false, nil
	}
	return snap, err == nil, err
}

// SaveSnapshot stores the component's snapshot in place of the last.
func (s *Store) SaveSnapshot(ctx context.Context, snap Snapshot) error {
	snap.UpdatedAt = now()
	if snap.Pack == nil {
		snap.Pack = []byte{}
	}
	return s.q(ctx).Clauses(clause.OnConflict{UpdateAll: true}).Create(&snap).Error
}

// SnapshotState returns the branch and state of the component's snapshot,
// without its pack; ok is false when there is none.
func (s *Store) SnapshotState(ctx context.Context, componentID int64) (branch, state string, ok bool, err error) {
	var rows []Snapshot
	err = s.q(ctx).Select("branch", "state").Where("component_id = ?", componentID).Limit(1).Find(&rows).Error
	if err != nil || len(rows) == 0 {
		return "", "", false, err
	}
	return rows[0].Branch, rows[0].State, true, nil
}
