package store

import (
	"context"

	"gorm.io/gorm"

	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// categorySelect reads categories with their project's slug and access and
// the slugs of their parent and grandparent (three levels at most).
const categorySelect = `categories.*, p.slug AS project_slug, p.access_control AS project_access,
	COALESCE(k1.slug, '') AS p1, COALESCE(k2.slug, '') AS p2`

func categoryQuery(q *gorm.DB) *gorm.DB {
	return q.Table("categories").Select(categorySelect).
		Joins("JOIN projects p ON p.id = categories.project_id").
		Joins("LEFT JOIN categories k1 ON k1.id = categories.parent_id").
		Joins("LEFT JOIN categories k2 ON k2.id = k1.parent_id")
}

// GetCategory reads one category.
func (s *Store) GetCategory(ctx context.Context, id int64) (*Category, error) {
	var c Category
	if err := categoryQuery(s.db.WithContext(ctx)).Where("categories.id = ?", id).Take(&c).Error; err != nil {
		return nil, notFound(err)
	}
	return &c, nil
}

// ListCategories pages categories by id: of one project (by id), or of
// every project v may see when projectID is 0.
func (s *Store) ListCategories(ctx context.Context, projectID int64, page Page, v Viewer) ([]Category, int64, error) {
	q := s.db.WithContext(ctx)
	filter := func(q *gorm.DB) *gorm.DB {
		if projectID != 0 {
			return q.Where("categories.project_id = ?", projectID)
		}
		if v.All {
			return q
		}
		return q.Where("categories.project_id IN (?)", visibleProjects(s.db.Model(&Project{}).Select("id"), v))
	}
	var total int64
	if err := filter(q.Model(&Category{})).Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Category
	err := page.apply(filter(categoryQuery(q)).Order("categories.id")).Find(&out).Error
	return out, total, err
}

// categoryUnique checks slug, then name, among the category's siblings.
func categoryUnique(tx *gorm.DB, c *Category) error {
	return unique(tx.Model(&Category{}).Where("project_id = ? AND parent_id = ?", c.ProjectID, c.ParentID), c.ID, c.Slug, c.Name)
}

// SaveCategory creates c (ID 0) or updates its stored fields but its
// project; a name or slug its siblings have yields *DuplicateError. The
// effective settings of the project's categories and components follow
// (refreshProject).
func (s *Store) SaveCategory(ctx context.Context, c *Category) error {
	return s.transaction(ctx, func(tx *gorm.DB) error {
		if err := categoryUnique(tx, c); err != nil {
			return err
		}
		if err := lockProject(tx, c.ProjectID); err != nil {
			return err
		}
		var err error
		if c.ID == 0 {
			err = tx.Omit("project_slug", "project_access", "p1", "p2").Create(c).Error
		} else {
			err = tx.Model(&Category{}).Where("id = ?", c.ID).Select("*").
				Omit("id", "project_id", "project_slug", "project_access", "p1", "p2").Updates(c).Error
		}
		if err != nil {
			return duplicateOr(err, func() error { return categoryUnique(tx, c) })
		}
		if err := refreshProject(tx, c.ProjectID); err != nil {
			return err
		}
		return notFound(categoryQuery(tx).Where("categories.id = ?", c.ID).Take(c).Error)
	})
}

// CategoryTree returns the ids of a category and every category below it.
func (s *Store) CategoryTree(ctx context.Context, id int64) ([]int64, error) {
	return categoryTree(s.db.WithContext(ctx), id)
}

func categoryTree(tx *gorm.DB, id int64) ([]int64, error) {
	all, level := []int64{id}, []int64{id}
	for len(level) > 0 && len(all) < 10000 {
		var next []int64
		if err := tx.Model(&Category{}).Where("parent_id IN ?", level).Pluck("id", &next).Error; err != nil {
			return nil, err
		}
		all, level = append(all, next...), next
	}
	return all, nil
}

// CategoryComponents returns the ids of the components in a category and
// the categories below it.
func (s *Store) CategoryComponents(ctx context.Context, id int64) ([]int64, error) {
	tree, err := s.CategoryTree(ctx, id)
	if err != nil {
		return nil, err
	}
	var ids []int64
	err = s.db.WithContext(ctx).Model(&Component{}).Where("category_id IN ?", tree).Order("id").Pluck("id", &ids).Error
	return ids, err
}

// DeleteCategory removes a category, the categories below it and their
// components (as the reference's cascade does), recording change(c) for
// each removed component and their removal for the translation service
// (Removals), and returns the removed components.
func (s *Store) DeleteCategory(ctx context.Context, id int64, change func(Component) *changelogv1.Change) ([]Component, error) {
	var removed []Component
	err := s.transaction(ctx, func(tx *gorm.DB) error {
		tree, err := categoryTree(tx, id)
		if err != nil {
			return err
		}
		var ids []int64
		if err = tx.Model(&Component{}).Where("category_id IN ?", tree).Pluck("id", &ids).Error; err != nil {
			return err
		}
		if removed, err = deleteComponents(tx, ids); err != nil {
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
		if err := recordLifecycle(tx, componentsDeleted(removed, 0)...); err != nil {
			return err
		}
		if err := tx.Where("category_id IN ?", tree).Delete(&Announcement{}).Error; err != nil {
			return err
		}
		return tx.Where("id IN ?", tree).Delete(&Category{}).Error
	})
	return removed, err
}
