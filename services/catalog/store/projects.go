package store

import (
	"context"
	"errors"
	"slices"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// CreateProject stores p (setting its ID and Created) and the change record
// in one transaction. A taken name or slug yields *DuplicateError.
func (s *Store) CreateProject(ctx context.Context, p *Project, creator string, change *changelogv1.Change) error {
	p.ID = 0
	p.Created = now()
	p.Effective = projectEffective(p)
	return s.transaction(ctx, func(tx *gorm.DB) error {
		if err := projectUnique(tx, p); err != nil {
			return err
		}
		if err := tx.Create(p).Error; err != nil {
			return duplicateOr(err, func() error { return projectUnique(tx, p) })
		}
		touch(tx, p.ID)
		if err := recordLifecycle(tx, projectCreated(p.Slug, creator)); err != nil {
			return err
		}
		return record(tx, change)
	})
}

// projectUnique checks slug, then name, against the other projects.
func projectUnique(tx *gorm.DB, p *Project) error {
	return unique(tx.Model(&Project{}), p.ID, p.Slug, p.Name)
}

// unique reports the slug, else the name, that a row of q (a model scoped
// to the rows that must differ) other than id already holds.
func unique(q *gorm.DB, id int64, slug, name string) error {
	var taken []string
	if err := q.Where("(slug = ? OR name = ?) AND id <> ?", slug, name, id).Pluck("slug", &taken).Error; err != nil {
		return err
	}
	if slices.Contains(taken, slug) {
		return &DuplicateError{Field: "slug"}
	}
	if len(taken) > 0 {
		return &DuplicateError{Field: "name"}
	}
	return nil
}

// duplicateOr turns a unique violation into the *DuplicateError that check
// finds (a concurrent writer won the race); other errors pass unchanged.
// On PostgreSQL the failed statement aborted the transaction, so the check
// cannot run there; the slug is then blamed, the likelier culprit.
func duplicateOr(err error, check func() error) error {
	if !db.IsDuplicate(err) {
		return err
	}
	if derr := check(); derr != nil {
		if _, ok := errors.AsType[*DuplicateError](derr); ok {
			return derr
		}
	}
	return &DuplicateError{Field: "slug"}
}

// GetProject returns the project with this slug.
func (s *Store) GetProject(ctx context.Context, slug string) (*Project, error) {
	return cached(s.db, &s.cache.projectBySlug, slug, func() (*Project, error) {
		var p Project
		q := s.db.WithContext(ctx)
		if err := q.Where("slug = ?", slug).Take(&p).Error; err != nil {
			return nil, notFound(err)
		}
		ps := []Project{p}
		if err := fillLocked(q, ps); err != nil {
			return nil, err
		}
		return &ps[0], nil
	})
}

// ListProjects returns a page of projects ordered by id and the total.
func (s *Store) ListProjects(ctx context.Context, page Page, v Viewer) ([]Project, int64, error) {
	q := s.db.WithContext(ctx)
	visible := func() *gorm.DB { return visibleProjects(q.Model(&Project{}), v) }
	var total int64
	if err := visible().Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Project
	if err := page.apply(visible().Order("id")).Find(&out).Error; err != nil {
		return nil, 0, err
	}
	if err := fillLocked(q, out); err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// fillLocked derives Project.Locked from the projects' components.
func fillLocked(q *gorm.DB, ps []Project) error {
	if len(ps) == 0 {
		return nil
	}
	ids := make([]int64, len(ps))
	for i, p := range ps {
		ids[i] = p.ID
	}
	var rows []struct {
		ProjectID int64
		Total     int64
		Unlocked  int64
	}
	err := q.Model(&Component{}).
		Select("project_id, COUNT(*) AS total, SUM(CASE WHEN locked THEN 0 ELSE 1 END) AS unlocked").
		Where("project_id IN ?", ids).Group("project_id").Scan(&rows).Error
	if err != nil {
		return err
	}
	locked := map[int64]bool{}
	for _, r := range rows {
		locked[r.ProjectID] = r.Total > 0 && r.Unlocked == 0
	}
	for i := range ps {
		ps[i].Locked = locked[ps[i].ID]
	}
	return nil
}

// SaveProject writes every stored field of p (found by ID). A new slug
// records renamed (when not nil) and the new names of the project's
// components for the translation service (Removals). The effective
// settings of its categories and components follow (refreshProject).
func (s *Store) SaveProject(ctx context.Context, p *Project, renamed *changelogv1.Change) error {
	return s.transaction(ctx, func(tx *gorm.DB) error {
		if err := projectUnique(tx, p); err != nil {
			return err
		}
		var old []string
		if err := tx.Model(&Project{}).Where("id = ?", p.ID).Pluck("slug", &old).Error; err != nil {
			return err
		}
		if len(old) == 1 && old[0] != p.Slug {
			if err := recordProjectRename(tx, p, renamed); err != nil {
				return err
			}
			if err := recordLifecycle(tx, projectRenamed(old[0], p.Slug)); err != nil {
				return err
			}
		}
		p.Effective = projectEffective(p)
		res := tx.Model(&Project{}).Where("id = ?", p.ID).Select("*").Omit("id", "created").Updates(p)
		if res.Error != nil {
			return duplicateOr(res.Error, func() error { return projectUnique(tx, p) })
		}
		if res.RowsAffected == 0 {
			return ErrNotFound
		}
		if err := refreshProject(tx, p.ID); err != nil {
			return err
		}
		var own []int64
		if err := tx.Model(&Component{}).Where("project_id = ?", p.ID).Pluck("id", &own).Error; err != nil {
			return err
		}
		if err := touchLinked(tx, own); err != nil {
			return err
		}
		// Links into the project name it by slug: keep them pointing here.
		return tx.Exec(`UPDATE components SET repo = 'weblate://' || ? || '/' ||
			(SELECT lc.slug FROM components lc WHERE lc.id = components.linked_component_id)
			WHERE linked_component_id IN (SELECT id FROM components WHERE project_id = ?)`, p.Slug, p.ID).Error
	})
}

// DeleteProject removes the project, its components and the components of
// other projects that share their repositories, recording change for the
// project and componentChange(c) for each component removed from another
// project (the project's own go with it), and the removal of the project
// and every removed component for the translation service (Removals).
func (s *Store) DeleteProject(ctx context.Context, slug string, change *changelogv1.Change,
	componentChange func(Component) *changelogv1.Change) error {
	return s.transaction(ctx, func(tx *gorm.DB) error {
		var p Project
		if err := tx.Where("slug = ?", slug).Take(&p).Error; err != nil {
			return notFound(err)
		}
		var own []int64
		if err := tx.Model(&Component{}).Where("project_id = ?", p.ID).Pluck("id", &own).Error; err != nil {
			return err
		}
		removed, err := deleteComponents(tx, own)
		if err != nil {
			return err
		}
		for _, c := range removed {
			if c.ProjectID != p.ID {
				if err := record(tx, componentChange(c)); err != nil {
					return err
				}
			}
		}
		if err := tx.Delete(&Project{}, p.ID).Error; err != nil {
			return err
		}
		touch(tx, p.ID)
		if err := recordRemoval(tx, removed, &p); err != nil {
			return err
		}
		if err := recordLifecycle(tx, append(componentsDeleted(removed, p.ID), projectDeleted(p.Slug))...); err != nil {
			return err
		}
		return record(tx, change)
	})
}
