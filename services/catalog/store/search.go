package store

import (
	"context"
	"strings"

	"gorm.io/gorm"
)

// Found is what Search found, by kind.
type Found struct {
	Projects   []Project
	Categories []Category
	Components []Component
	Languages  []Language
}

// Search finds up to limit projects, categories and components v may see,
// and languages, whose name or slug (a language's code) contains text,
// ignoring case (SQL LOWER: ASCII letters on SQLite, as Django's
// icontains there), each kind ordered by name.
func (s *Store) Search(ctx context.Context, text string, limit int, v Viewer) (Found, error) {
	var out Found
	if text == "" {
		return out, nil
	}
	q := s.db.WithContext(ctx)
	pattern := "%" + escapeLike(strings.ToLower(text)) + "%"
	match := func(q *gorm.DB, table, second string) *gorm.DB {
		return q.Where("(LOWER("+table+".name) LIKE ? ESCAPE '\\' OR LOWER("+table+"."+second+") LIKE ? ESCAPE '\\')", pattern, pattern).
			Order(table + ".name").Order(table + ".id").Limit(limit)
	}
	seen := func(q *gorm.DB, table string) *gorm.DB {
		if v.All {
			return q
		}
		return q.Where(table+".project_id IN (?)", visibleProjects(s.db.Model(&Project{}).Select("id"), v))
	}
	if err := match(visibleProjects(q.Model(&Project{}), v), "projects", "slug").Find(&out.Projects).Error; err != nil {
		return out, err
	}
	if err := fillLocked(q, out.Projects); err != nil {
		return out, err
	}
	if err := match(seen(categoryQuery(q), "categories"), "categories", "slug").Find(&out.Categories).Error; err != nil {
		return out, err
	}
	if err := match(seen(componentQuery(q), "components"), "components", "slug").Find(&out.Components).Error; err != nil {
		return out, err
	}
	err := match(q.Model(&Language{}), "languages", "code").Find(&out.Languages).Error
	return out, err
}

// escapeLike makes text match itself in a LIKE pattern with ESCAPE '\'.
func escapeLike(text string) string {
	return strings.NewReplacer(`\`, `\\`, "%", `\%`, "_", `\_`).Replace(text)
}
