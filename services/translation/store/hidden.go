package store

import "gorm.io/gorm"

// Hidden lists the projects (by slug) whose rows a caller may not see:
// every list, count and sum it asks for leaves them out. Empty hides
// nothing.
type Hidden []string

// translations restricts a query of the translations table.
func (h Hidden) translations(q *gorm.DB) *gorm.DB {
	if len(h) == 0 {
		return q
	}
	return q.Where("translations.project_slug NOT IN ?", []string(h))
}

// byTranslation restricts a query whose column col holds translation ids.
func (h Hidden) byTranslation(db, q *gorm.DB, col string) *gorm.DB {
	if len(h) == 0 {
		return q
	}
	return q.Where(col+" NOT IN (?)", db.Model(&Translation{}).Select("id").Where("project_slug IN ?", []string(h)))
}

// byUnit restricts a query whose column col holds unit ids.
func (h Hidden) byUnit(db, q *gorm.DB, col string) *gorm.DB {
	if len(h) == 0 {
		return q
	}
	hiddenUnits := db.Model(&Unit{}).Select("units.id").
		Joins("JOIN translations ON translations.id = units.translation_id").
		Where("translations.project_slug IN ?", []string(h))
	return q.Where(col+" NOT IN (?)", hiddenUnits)
}
