package store

import (
	"context"
	"encoding/json"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// MachinerySettings is a project's machine translation configuration by
// service id.
type MachinerySettings map[string]map[string]any

// GetMachinerySettings reads a project's settings.
func (s *Store) GetMachinerySettings(ctx context.Context, projectID int64) (MachinerySettings, error) {
	return machinerySettings(s.db.WithContext(ctx), projectID, false)
}

func machinerySettings(q *gorm.DB, projectID int64, lock bool) (MachinerySettings, error) {
	if lock {
		q = q.Clauses(clause.Locking{Strength: "UPDATE"})
	}
	var raw []string
	if err := q.Model(&Project{}).Where("id = ?", projectID).Pluck("machinery_settings", &raw).Error; err != nil {
		return nil, err
	}
	if len(raw) == 0 {
		return nil, ErrNotFound
	}
	out := MachinerySettings{}
	if err := json.Unmarshal([]byte(raw[0]), &out); err != nil {
		return nil, err
	}
	return out, nil
}

// SetMachinerySetting replaces one service's configuration.
func (s *Store) SetMachinerySetting(ctx context.Context, projectID int64, service string, cfg map[string]any) error {
	return s.transaction(ctx, func(tx *gorm.DB) error {
		all, err := machinerySettings(tx, projectID, tx.Dialector.Name() == "postgres")
		if err != nil {
			return err
		}
		all[service] = cfg
		raw, err := json.Marshal(all)
		if err != nil {
			return err
		}
		return tx.Model(&Project{}).Where("id = ?", projectID).Update("machinery_settings", string(raw)).Error
	})
}
