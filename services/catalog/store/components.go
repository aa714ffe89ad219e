package store

import (
	"context"

	"gorm.io/gorm"

	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// componentSelect reads components with the slugs of their project and of
// the component whose repository they share.
const componentSelect = `components.*, p.slug AS project_slug, p.access_control AS project_access,
	COALESCE(lp.slug || '/' || lc.slug, '') AS linked_path,
	COALESCE(c1.slug, '') AS cat1, COALESCE(c2.slug, '') AS cat2, COALESCE(c3.slug, '') AS cat3`

func componentQuery(q *gorm.DB) *gorm.DB {
	return q.Table("components").Select(componentSelect).
		Joins("JOIN projects p ON p.id = components.project_id").
		Joins("LEFT JOIN components lc ON lc.id = components.linked_component_id").
		Joins("LEFT JOIN projects lp ON lp.id = lc.project_id").
		Joins("LEFT JOIN categories c1 ON c1.id = components.category_id").
		Joins("LEFT JOIN categories c2 ON c2.id = c1.parent_id").
		Joins("LEFT JOIN categories c3 ON c3.id = c2.parent_id")
}

// CreateComponent stores c (setting ID and Created) and the change record in
// one transaction. A name or slug taken within the project yields
// *DuplicateError; a missing project ErrNotFound.
func (s *Store) CreateComponent(ctx context.Context, c *Component, change *changelogv1.Change) error {
	c.ID = 0
	c.Created = now()
	if c.EnforcedChecks == nil {
		c.EnforcedChecks = []string{}
	}
	return s.transaction(ctx, func(tx *gorm.DB) error {
		if err := componentUnique(tx, c); err != nil {
			return err
		}
		if err := componentSettings(tx, c); err != nil {
			return err
		}
		if err := tx.Omit("project_slug", "linked_path", "cat1", "cat2", "cat3").Create(c).Error; err != nil {
			return duplicateOr(err, func() error { return componentUnique(tx, c) })
		}
		if err := reread(tx, c); err != nil {
			return err
		}
		if err := autoAssign(tx, c); err != nil {
			return err
		}
		return record(tx, change)
	})
}

// componentSettings computes c's effective settings, within tx and under
// its project's lock, from those of the category or project it is in.
func componentSettings(tx *gorm.DB, c *Component) error {
	if err := lockProject(tx, c.ProjectID); err != nil {
		return err
	}
	parent, err := parentEffective(tx, c.ProjectID, c.CategoryID)
	if err != nil {
		return err
	}
	c.Effective = componentEffective(c, parent)
	return nil
}

// reread refreshes c, the joined slugs included.
func reread(tx *gorm.DB, c *Component) error {
	return notFound(componentQuery(tx).Where("components.id = ?", c.ID).Take(c).Error)
}

// componentUnique checks slug, then name, within the component's project.
func componentUnique(tx *gorm.DB, c *Component) error {
	return unique(tx.Model(&Component{}).Where("project_id = ?", c.ProjectID), c.ID, c.Slug, c.Name)
}

// componentBySlug reads the component with this slug in the project.
func componentBySlug(q *gorm.DB, projectSlug, slug string) (*Component, error) {
	var c Component
	err := componentQuery(q).Where("p.slug = ? AND components.slug = ?", projectSlug, slug).Take(&c).Error
	if err != nil {
		return nil, notFound(err)
	}
	return &c, nil
}

// GetComponent returns the component with this slug in the project.
func (s *Store) GetComponent(ctx context.Context, projectSlug, slug string) (*Component, error) {
	return cached(s.db, &s.cache.componentBySlug, [2]string{projectSlug, slug}, func() (*Component, error) {
		return componentBySlug(s.db.WithContext(ctx), projectSlug, slug)
	})
}

// GetComponentByID returns the component with this id.
func (s *Store) GetComponentByID(ctx context.Context, id int64) (*Component, error) {
	return cached(s.db, &s.cache.componentByID, id, func() (*Component, error) {
		c := Component{ID: id}
		if err := reread(s.db.WithContext(ctx), &c); err != nil {
			return nil, err
		}
		return &c, nil
	})
}

// ListComponents returns a page of components ordered by id and the total:
// those of one project, or of all projects when projectSlug is empty. An
// unknown project yields ErrNotFound.
func (s *Store) ListComponents(ctx context.Context, projectSlug string, page Page, v Viewer) ([]Component, int64, error) {
	q := s.db.WithContext(ctx)
	filter := func(q *gorm.DB) *gorm.DB {
		if v.All {
			return q
		}
		return q.Where("components.project_id IN (?)", visibleProjects(s.db.Model(&Project{}).Select("id"), v))
	}
	if projectSlug != "" {
		var p Project
		if err := q.Where("slug = ?", projectSlug).Take(&p).Error; err != nil {
			return nil, 0, notFound(err)
		}
		if !v.Sees(p.Slug, p.AccessControl) {
			return nil, 0, ErrNotFound
		}
		// Its own components and those shared with it whose own project
		// the viewer may see.
		linked := q.Table("component_links").Select("component_id").Where("project_id = ?", p.ID)
		own := func(q *gorm.DB) *gorm.DB { return q }
		if !v.All {
			own = func(q *gorm.DB) *gorm.DB {
				return q.Where("components.project_id IN (?)", visibleProjects(s.db.Model(&Project{}).Select("id"), v))
			}
		}
		filter = func(q *gorm.DB) *gorm.DB {
			return q.Where("components.project_id = ? OR (components.id IN (?) AND components.id IN (?))", p.ID, linked,
				own(s.db.Model(&Component{}).Select("components.id")))
		}
	}
	var total int64
	if err := filter(q.Model(&Component{})).Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Component
	if err := page.apply(filter(componentQuery(q)).Order("components.id")).Find(&out).Error; err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// SaveComponent writes every stored field of c (found by ID) except the
// lock, with its effective settings, then refreshes c. A new slug records
// renamed (when not nil) and the component's new name for the translation
// service (Removals); new effective check flags or enforced_checks a
// recheck of its strings there.
func (s *Store) SaveComponent(ctx context.Context, c *Component, renamed *changelogv1.Change) error {
	if c.EnforcedChecks == nil {
		c.EnforcedChecks = []string{}
	}
	return s.transaction(ctx, func(tx *gorm.DB) error {
		if err := componentUnique(tx, c); err != nil {
			return err
		}
		if err := recordComponentRename(tx, c, renamed); err != nil {
			return err
		}
		if err := componentSettings(tx, c); err != nil {
			return err
		}
		if changed, enforce, err := checksChanged(tx, c); err != nil {
			return err
		} else if changed {
			if err := recordRecheck(tx, []int64{c.ID}, enforce); err != nil {
				return err
			}
		}
		res := tx.Model(&Component{}).Where("id = ?", c.ID).Select("*").
			Omit("id", "project_id", "created", "locked", "project_slug", "linked_path", "cat1", "cat2", "cat3").Updates(c)
		if res.Error != nil {
			return duplicateOr(res.Error, func() error { return componentUnique(tx, c) })
		}
		if res.RowsAffected == 0 {
			return ErrNotFound
		}
		if err := reread(tx, c); err != nil {
			return err
		}
		if err := autoAssign(tx, c); err != nil {
			return err
		}
		// Components sharing this repository link to it by its slugs, as
		// Weblate keeps them: follow a rename.
		if err := touchLinked(tx, []int64{c.ID}); err != nil {
			return err
		}
		return tx.Model(&Component{}).Where("linked_component_id = ?", c.ID).
			Update("repo", "weblate://"+c.ProjectSlug+"/"+c.Slug).Error
	})
}

// DeleteComponent removes the component and the components sharing its
// repository, recording change(c) for each removed component and their
// removal for the translation service (Removals).
func (s *Store) DeleteComponent(ctx context.Context, projectSlug, slug string, change func(Component) *changelogv1.Change) error {
	return s.transaction(ctx, func(tx *gorm.DB) error {
		c, err := componentBySlug(tx, projectSlug, slug)
		if err != nil {
			return err
		}
		removed, err := deleteComponents(tx, []int64{c.ID})
		if err != nil {
			return err
		}
		for _, r := range removed {
			if err := record(tx, change(r)); err != nil {
				return err
			}
		}
		if err := recordRemoval(tx, removed); err != nil {
			return err
		}
		return recordLifecycle(tx, componentsDeleted(removed, 0)...)
	})
}

// touchLinked notes the projects of the components linked to those of ids
// (sharing their repositories) as written to (touch).
func touchLinked(tx *gorm.DB, ids []int64) error {
	var projects []int64
	if err := tx.Model(&Component{}).Where("linked_component_id IN ?", ids).Distinct().Pluck("project_id", &projects).Error; err != nil {
		return err
	}
	touch(tx, projects...)
	return nil
}

// deleteComponents deletes the components and, transitively, those linked
// to them (sharing their repository, as Weblate's cascade does), and returns
// what it deleted, the given ones first.
func deleteComponents(tx *gorm.DB, ids []int64) ([]Component, error) {
	var removed []Component
	seen := map[int64]bool{}
	for len(ids) > 0 {
		var batch []Component
		if err := componentQuery(tx).Where("components.id IN ?", ids).Order("components.id").Find(&batch).Error; err != nil {
			return nil, err
		}
		ids = nil
		for _, c := range batch {
			if !seen[c.ID] {
				seen[c.ID] = true
				removed = append(removed, c)
				ids = append(ids, c.ID)
			}
		}
		if len(ids) == 0 {
			break
		}
		var children []int64
		if err := tx.Model(&Component{}).Where("linked_component_id IN ?", ids).Pluck("id", &children).Error; err != nil {
			return nil, err
		}
		ids = children
	}
	all := make([]int64, 0, len(removed))
	for _, c := range removed {
		all = append(all, c.ID)
		touch(tx, c.ProjectID)
	}
	if len(all) > 0 {
		if err := tx.Where("component_id IN ?", all).Delete(&Announcement{}).Error; err != nil {
			return nil, err
		}
		if err := tx.Where("id IN ?", all).Delete(&Component{}).Error; err != nil {
			return nil, err
		}
	}
	return removed, nil
}

// SetComponentLock sets the lock of the component. When that changes the
// state it records change(c) in the same transaction; setting the state the
// component is already in changes and records nothing. It returns the
// component as stored afterwards and whether the state changed.
func (s *Store) SetComponentLock(ctx context.Context, projectSlug, slug string, locked bool,
	change func(Component) *changelogv1.Change) (*Component, bool, error) {
	var c *Component
	var changed bool
	err := s.transaction(ctx, func(tx *gorm.DB) error {
		var err error
		if c, err = componentBySlug(tx, projectSlug, slug); err != nil {
			return err
		}
		// The condition on the old state makes the flip atomic: of two
		// concurrent lockers only one changes the row and records.
		res := tx.Model(&Component{}).Where("id = ? AND locked = ?", c.ID, !locked).Update("locked", locked)
		if res.Error != nil {
			return res.Error
		}
		c.Locked = locked
		if changed = res.RowsAffected > 0; !changed {
			return nil
		}
		touch(tx, c.ProjectID)
		return record(tx, change(*c))
	})
	if err != nil {
		return nil, false, err
	}
	return c, changed, nil
}

// RecordBranch sets the branch of a component bound without one to the
// branch its import found. A component given a branch since keeps it, and
// an unknown one is skipped: what the import found is no longer news.
func (s *Store) RecordBranch(ctx context.Context, id int64, branch string) error {
	if branch == "" {
		return nil
	}
	return s.transaction(ctx, func(tx *gorm.DB) error {
		var projects []int64
		if err := tx.Model(&Component{}).Where("id = ? AND branch = ''", id).Pluck("project_id", &projects).Error; err != nil || len(projects) == 0 {
			return err
		}
		touch(tx, projects[0])
		return tx.Model(&Component{}).Where("id = ? AND branch = ''", id).Update("branch", branch).Error
	})
}

// LinkComponent shares a component with a project; sharing it twice is
// one link.
func (s *Store) LinkComponent(ctx context.Context, componentID, projectID int64) error {
	return s.db.WithContext(ctx).Exec(`INSERT INTO component_links (component_id, project_id) VALUES (?, ?)
		ON CONFLICT DO NOTHING`, componentID, projectID).Error
}

// UnlinkComponent stops sharing; ErrNotFound when it was not shared.
func (s *Store) UnlinkComponent(ctx context.Context, componentID, projectID int64) error {
	res := s.db.WithContext(ctx).Exec(`DELETE FROM component_links WHERE component_id = ? AND project_id = ?`, componentID, projectID)
	if res.Error != nil {
		return res.Error
	}
	if res.RowsAffected == 0 {
		return ErrNotFound
	}
	return nil
}

// ComponentLinks pages the projects a component is shared with that v
// may see, by id.
func (s *Store) ComponentLinks(ctx context.Context, componentID int64, page Page, v Viewer) ([]Project, int64, error) {
	query := func() *gorm.DB {
		q := s.db.WithContext(ctx).Model(&Project{}).
			Where("id IN (?)", s.db.Table("component_links").Select("project_id").Where("component_id = ?", componentID))
		return visibleProjects(q, v)
	}
	var total int64
	if err := query().Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Project
	err := page.apply(query().Order("id")).Find(&out).Error
	return out, total, err
}
