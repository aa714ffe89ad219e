package store

import (
	"context"
	"errors"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"

	"github.com/tmsproject/tms/pkg/errs"
)

// Label is a project's label (the reference's Label). Labels are found by
// the project's catalog id, so a project made again under a deleted one's
// slug does not inherit its labels.
type Label struct {
	ID          int64 `gorm:"primaryKey"`
	ProjectID   int64
	ProjectSlug string
	Name        string
	Description string
	Color       string
}

// TableName is the labels table.
func (Label) TableName() string { return "labels" }

// unitLabel sets a label on a source unit.
type unitLabel struct {
	UnitID  int64 `gorm:"primaryKey"`
	LabelID int64 `gorm:"primaryKey"`
}

func (unitLabel) TableName() string { return "unit_labels" }

// LabelUnit is the SQL expression of the unit a unit's labels are set
// on: its source unit, or itself for a source unit.
const LabelUnit = "COALESCE(units.source_unit_id, units.id)"

// ListLabels pages a project's labels by id.
func (s *Store) ListLabels(ctx context.Context, projectID int64, offset, limit int64) ([]Label, int64, error) {
	tx := s.q(ctx).Model(&Label{}).Where("project_id = ?", projectID)
	var total int64
	if err := tx.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Label
	err := page(s.q(ctx).Where("project_id = ?", projectID), offset, limit).Find(&out).Error
	return out, total, err
}

// GetLabel loads a label of a project.
func (s *Store) GetLabel(ctx context.Context, projectID, id int64) (Label, error) {
	var l Label
	err := s.q(ctx).Where("project_id = ? AND id = ?", projectID, id).Take(&l).Error
	return l, notFound(err, "label")
}

// CreateLabel stores a new label; a name the project already has is a
// conflict.
func (s *Store) CreateLabel(ctx context.Context, l Label) (Label, error) {
	l.ID = 0
	res := s.q(ctx).Clauses(clause.OnConflict{DoNothing: true}).Create(&l)
	if res.Error != nil {
		return l, res.Error
	}
	if res.RowsAffected == 0 {
		return l, duplicateLabel()
	}
	return l, nil
}

// UpdateLabel changes the named fields (name, description, color) of a
// label of a project.
func (s *Store) UpdateLabel(ctx context.Context, l Label, fields []string) (Label, error) {
	err := s.q(ctx).Transaction(func(tx *gorm.DB) error {
		var cur Label
		if err := tx.Where("project_id = ? AND id = ?", l.ProjectID, l.ID).Take(&cur).Error; err != nil {
			return notFound(err, "label")
		}
		if len(fields) == 0 {
			l = cur
			return nil
		}
		if err := tx.Model(&Label{}).Where("id = ?", cur.ID).Select(fields).Updates(&l).Error; err != nil {
			if isUniqueViolation(err) {
				return duplicateLabel()
			}
			return err
		}
		return tx.Where("id = ?", cur.ID).Take(&l).Error
	})
	return l, err
}

// DeleteLabel removes a label of a project, and it from every string.
func (s *Store) DeleteLabel(ctx context.Context, projectID, id int64) error {
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		res := tx.Where("project_id = ? AND id = ?", projectID, id).Delete(&Label{})
		if res.Error != nil {
			return res.Error
		}
		if res.RowsAffected == 0 {
			return errs.NotFoundf("Not found.")
		}
		return tx.Where("label_id = ?", id).Delete(&unitLabel{}).Error
	})
}

// CheckLabels fails unless every id is a label of the project.
func (s *Store) CheckLabels(ctx context.Context, projectID int64, ids []int64) error {
	return checkLabels(s.q(ctx), projectID, ids)
}

func checkLabels(tx *gorm.DB, projectID int64, ids []int64) error {
	ids = dedupe(ids)
	var n int64
	if len(ids) > 0 {
		if err := tx.Model(&Label{}).Where("project_id = ? AND id IN ?", projectID, ids).Count(&n).Error; err != nil {
			return err
		}
	}
	if int(n) != len(ids) {
		return errs.Invalid("labels", "invalid", "Label with this ID was not found in this project.")
	}
	return nil
}

// SetUnitLabels makes ids the labels of the string of unit (set on its
// source unit). Every id must be a label of the unit's project.
func (s *Store) SetUnitLabels(ctx context.Context, unit UnitView, projectID int64, ids []int64) error {
	target := unit.ID
	if unit.SourceUnitID != nil {
		target = *unit.SourceUnitID
	}
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		if err := checkLabels(tx, projectID, ids); err != nil {
			return err
		}
		if err := tx.Where("unit_id = ?", target).Delete(&unitLabel{}).Error; err != nil {
			return err
		}
		for _, id := range dedupe(ids) {
			if err := tx.Create(&unitLabel{UnitID: target, LabelID: id}).Error; err != nil {
				return err
			}
		}
		return nil
	})
}

// LabelsOf returns the labels of each unit's string, by unit id.
func (s *Store) LabelsOf(ctx context.Context, units []UnitView) (map[int64][]Label, error) {
	owner := map[int64][]int64{} // labelled unit → units showing its labels
	for _, u := range units {
		target := u.ID
		if u.SourceUnitID != nil {
			target = *u.SourceUnitID
		}
		owner[target] = append(owner[target], u.ID)
	}
	if len(owner) == 0 {
		return nil, nil
	}
	targets := make([]int64, 0, len(owner))
	for id := range owner {
		targets = append(targets, id)
	}
	var rows []struct {
		UnitID int64
		Label  `gorm:"embedded"`
	}
	err := s.q(ctx).Table("unit_labels").Select("unit_labels.unit_id, labels.*").
		Joins("JOIN labels ON labels.id = unit_labels.label_id").
		Where("unit_labels.unit_id IN ?", targets).Order("labels.name, labels.id").Scan(&rows).Error
	if err != nil {
		return nil, err
	}
	out := map[int64][]Label{}
	for _, r := range rows {
		for _, id := range owner[r.UnitID] {
			out[id] = append(out[id], r.Label)
		}
	}
	return out, nil
}

func dedupe(ids []int64) []int64 {
	seen := map[int64]bool{}
	var out []int64
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}

func duplicateLabel() error {
	return errs.Invalid("name", "unique", "Label with this Project and Name already exists.")
}

// isUniqueViolation recognises both engines' unique constraint errors.
func isUniqueViolation(err error) bool {
	if errors.Is(err, gorm.ErrDuplicatedKey) {
		return true
	}
	msg := strings.ToLower(err.Error())
	return strings.Contains(msg, "unique") || strings.Contains(msg, "duplicate key")
}
