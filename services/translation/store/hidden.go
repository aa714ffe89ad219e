package store

import "gorm.io/gorm"

// Hidden is what a read leaves out of every list, count and sum: when
// Restricted, the rows of every project but the Seen ones (the projects
// the caller may see; a slug the catalog no longer lists, after a rename
// or a delete, is not seen either), and for everyone the components the
// catalog has deleted whose rows are not forgotten yet. The zero value
// hides nothing.
type Hidden struct {
	Restricted bool
	Seen       []string
	Components []int64
}

func (h Hidden) none() bool { return !h.Restricted && len(h.Components) == 0 }

// translations restricts a query of the translations table.
func (h Hidden) translations(q *gorm.DB) *gorm.DB {
	if h.Restricted {
		q = q.Where("translations.project_slug IN ?", nonEmpty(h.Seen))
	}
	if len(h.Components) > 0 {
		q = q.Where("translations.component_id NOT IN ?", h.Components)
	}
	return q
}

// hiddenTranslations selects the ids of the translations h hides.
func (h Hidden) hiddenTranslations(db *gorm.DB) *gorm.DB {
	q := db.Model(&Translation{}).Select("translations.id")
	switch {
	case !h.Restricted:
		return q.Where("translations.component_id IN ?", h.Components)
	case len(h.Components) == 0:
		return q.Where("translations.project_slug NOT IN ?", nonEmpty(h.Seen))
	}
	return q.Where("translations.project_slug NOT IN ? OR translations.component_id IN ?", nonEmpty(h.Seen), h.Components)
}

// nonEmpty is slugs, or a list of the empty slug (no project has it) for
// none: "IN ()" is no SQL.
func nonEmpty(slugs []string) []string {
	if len(slugs) == 0 {
		return []string{""}
	}
	return slugs
}

// byTranslation restricts a query whose column col holds translation ids.
func (h Hidden) byTranslation(db, q *gorm.DB, col string) *gorm.DB {
	if h.none() {
		return q
	}
	return q.Where(col+" NOT IN (?)", h.hiddenTranslations(db))
}

// byUnit restricts a query whose column col holds unit ids.
func (h Hidden) byUnit(db, q *gorm.DB, col string) *gorm.DB {
	if h.none() {
		return q
	}
	return q.Where(col+" NOT IN (?)", h.hiddenUnits(db))
}

// hiddenUnits selects the ids of the units of the translations h hides.
func (h Hidden) hiddenUnits(db *gorm.DB) *gorm.DB {
	return db.Model(&Unit{}).Select("units.id").Where("units.translation_id IN (?)", h.hiddenTranslations(db))
}
