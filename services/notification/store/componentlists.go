package store

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// ComponentList is the catalog's component list as teams use it.
type ComponentList struct {
	ID         int64
	Slug       string
	Components []string // "project/component"
}

type componentListRow struct {
	ID         int64 `gorm:"primaryKey;autoIncrement:false"`
	Slug       string
	Components string
}

func (componentListRow) TableName() string { return "component_lists" }

func (r componentListRow) list() ComponentList {
	var cs []string
	if r.Components != "" {
		cs = strings.Split(r.Components, "\n")
	}
	return ComponentList{ID: r.ID, Slug: r.Slug, Components: cs}
}

// applyComponentList stores the list as the catalog now has it, or, when
// deleted, forgets it and the teams' links to it. Events carry the whole
// list, so the latest applied is the truth.
func applyComponentList(tx *gorm.DB, l ComponentList, deleted bool) error {
	if deleted {
		if err := tx.Delete(&componentListRow{}, "id = ?", l.ID).Error; err != nil {
			return err
		}
		return tx.Delete(&linkRow{}, "kind = ? AND value = ?", LinkComponentList, strconv.FormatInt(l.ID, 10)).Error
	}
	row := componentListRow{ID: l.ID, Slug: l.Slug, Components: strings.Join(l.Components, "\n")}
	return tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "id"}}, DoUpdates: clause.AssignmentColumns([]string{"slug", "components"})}).
		Create(&row).Error
}

// ComponentLists reads the lists of ids known here (missing ones left out).
func (s *Store) ComponentLists(ctx context.Context, ids []int64) (map[int64]ComponentList, error) {
	var rows []componentListRow
	if err := s.gdb.WithContext(ctx).Where("id IN ?", append(ids, -1)).Find(&rows).Error; err != nil {
		return nil, err
	}
	out := make(map[int64]ComponentList, len(rows))
	for _, r := range rows {
		out[r.ID] = r.list()
	}
	return out, nil
}

// rewriteListComponents applies edit to each component of every list
// ("project/component"; keep false drops it), storing the lists that
// changed: the catalog's renames and deletions reach the lists here, in
// the order of its events, without a new snapshot of each list.
func rewriteListComponents(tx *gorm.DB, edit func(c string) (string, bool)) error {
	var rows []componentListRow
	if err := tx.Find(&rows).Error; err != nil {
		return err
	}
	for _, r := range rows {
		l := r.list()
		var next []string
		for _, c := range l.Components {
			if nc, keep := edit(c); keep && !slices.Contains(next, nc) {
				next = append(next, nc)
			}
		}
		if slices.Equal(next, l.Components) {
			continue
		}
		slices.Sort(next)
		if err := tx.Model(&componentListRow{}).Where("id = ?", r.ID).Update("components", strings.Join(next, "\n")).Error; err != nil {
			return err
		}
	}
	return nil
}

// listsFollowProject renames (newSlug) or drops ("") a project's
// components in the lists.
func listsFollowProject(tx *gorm.DB, project, newSlug string) error {
	return rewriteListComponents(tx, func(c string) (string, bool) {
		p, comp, _ := strings.Cut(c, "/")
		switch {
		case p != project:
			return c, true
		case newSlug == "":
			return "", false
		}
		return newSlug + "/" + comp, true
	})
}

// listsFollowComponent renames (newSlug) or drops ("") a component in the
// lists.
func listsFollowComponent(tx *gorm.DB, project, component, newSlug string) error {
	return rewriteListComponents(tx, func(c string) (string, bool) {
		switch {
		case c != project+"/"+component:
			return c, true
		case newSlug == "":
			return "", false
		}
		return project + "/" + newSlug, true
	})
}
