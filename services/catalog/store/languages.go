package store

import (
	"context"
	"errors"
	"strings"

	"gorm.io/gorm"
	"gorm.io/gorm/clause"
)

// SeedLanguages inserts the languages whose codes are not stored yet, in one
// batch, and reports how many it inserted. Running it again inserts nothing;
// concurrent seeders are harmless (conflicting codes are skipped).
func (s *Store) SeedLanguages(ctx context.Context, langs []Language) (int, error) {
	var have []string
	if err := s.db.WithContext(ctx).Model(&Language{}).Pluck("code", &have).Error; err != nil {
		return 0, err
	}
	known := make(map[string]bool, len(have))
	for _, c := range have {
		known[c] = true
	}
	var missing []Language
	for _, l := range langs {
		if !known[l.Code] {
			l.ID = 0
			missing = append(missing, normalizeLanguage(l))
		}
	}
	if len(missing) == 0 {
		return 0, nil
	}
	// 400 rows of 10 columns stay far below both engines' parameter limits.
	var n int
	err := s.transaction(ctx, func(tx *gorm.DB) error {
		res := tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "code"}}, DoNothing: true}).
			CreateInBatches(missing, 400)
		n = int(res.RowsAffected)
		touchLanguagesIf(tx, res)
		return res.Error
	})
	return n, err
}

// touchLanguagesIf notes a write to the language table when res changed
// a row.
func touchLanguagesIf(tx *gorm.DB, res *gorm.DB) {
	if res.Error == nil && res.RowsAffected > 0 {
		touch(tx, Languages)
	}
}

func normalizeLanguage(l Language) Language {
	if l.Aliases == nil {
		l.Aliases = []string{}
	}
	if l.Direction == "" {
		l.Direction = "ltr"
	}
	return l
}

// GetLanguage returns the language with exactly this code, or, failing
// that, the one whose code differs only in case.
func (s *Store) GetLanguage(ctx context.Context, code string) (*Language, error) {
	var l Language
	q := s.db.WithContext(ctx)
	err := q.Where("code = ?", code).Take(&l).Error
	if errors.Is(err, gorm.ErrRecordNotFound) {
		err = q.Where("lower(code) = ?", strings.ToLower(code)).Order("id").Take(&l).Error
	}
	if err != nil {
		return nil, notFound(err)
	}
	return &l, nil
}

// LanguageFilter limits a list of languages: with Only, to Codes.
type LanguageFilter struct {
	Only  bool
	Codes []string
}

// ListLanguages returns a page of the languages f lets through, ordered by
// id, and their total.
func (s *Store) ListLanguages(ctx context.Context, page Page, f LanguageFilter) ([]Language, int64, error) {
	scope := func(q *gorm.DB) *gorm.DB {
		if f.Only {
			q = q.Where("code IN ?", append([]string{""}, f.Codes...)) // "" keeps the list valid SQL when empty
		}
		return q
	}
	var total int64
	if err := scope(s.db.WithContext(ctx).Model(&Language{})).Count(&total).Error; err != nil {
		return nil, 0, err
	}
	var out []Language
	if err := page.apply(scope(s.db.WithContext(ctx).Order("id"))).Find(&out).Error; err != nil {
		return nil, 0, err
	}
	return out, total, nil
}

// CreateLanguage stores l unless its code exists, and returns the stored
// row either way (so two callers racing on one code get the same language).
func (s *Store) CreateLanguage(ctx context.Context, l Language) (*Language, error) {
	l.ID = 0
	l = normalizeLanguage(l)
	err := s.transaction(ctx, func(tx *gorm.DB) error {
		res := tx.Clauses(clause.OnConflict{Columns: []clause.Column{{Name: "code"}}, DoNothing: true}).Create(&l)
		touchLanguagesIf(tx, res)
		return res.Error
	})
	if err != nil {
		return nil, err
	}
	var out Language
	if err := s.db.WithContext(ctx).Where("code = ?", l.Code).Take(&out).Error; err != nil {
		return nil, notFound(err)
	}
	return &out, nil
}

// ListPlurals returns the extra plurals of a language, oldest first.
func (s *Store) ListPlurals(ctx context.Context, languageID int64) ([]Plural, error) {
	var out []Plural
	err := s.db.WithContext(ctx).Where("language_id = ?", languageID).Order("id").Find(&out).Error
	return out, err
}

// CreatePlural stores p unless the language has that rule spelled alike,
// and returns the stored row either way (importers racing on one file
// rule get the same plural).
func (s *Store) CreatePlural(ctx context.Context, p Plural) (*Plural, error) {
	p.ID = 0
	err := s.transaction(ctx, func(tx *gorm.DB) error {
		res := tx.Clauses(clause.OnConflict{
			Columns: []clause.Column{{Name: "language_id"}, {Name: "number"}, {Name: "formula"}}, DoNothing: true}).Create(&p)
		touchLanguagesIf(tx, res)
		return res.Error
	})
	if err != nil {
		return nil, err
	}
	var out Plural
	err = s.db.WithContext(ctx).Where("language_id = ? AND number = ? AND formula = ?", p.LanguageID, p.Number, p.Formula).
		Take(&out).Error
	if err != nil {
		return nil, notFound(err)
	}
	return &out, nil
}

// AddLanguage stores a new language; a code taken (in any case) yields
// *DuplicateError on "code".
func (s *Store) AddLanguage(ctx context.Context, l *Language) error {
	l.ID = 0
	*l = normalizeLanguage(*l)
	return s.transaction(ctx, func(tx *gorm.DB) error {
		var n int64
		if err := tx.Model(&Language{}).Where("lower(code) = ?", strings.ToLower(l.Code)).Count(&n).Error; err != nil {
			return err
		}
		if n > 0 {
			return &DuplicateError{Field: "code"}
		}
		touch(tx, Languages)
		return duplicateOr(tx.Create(l).Error, func() error { return &DuplicateError{Field: "code"} })
	})
}

// SaveLanguage writes the name, direction, population and default plural
// of l (found by ID).
func (s *Store) SaveLanguage(ctx context.Context, l *Language) error {
	return s.transaction(ctx, func(tx *gorm.DB) error {
		res := tx.Model(&Language{}).Where("id = ?", l.ID).
			Select("name", "direction", "population", "plural_source", "plural_number", "plural_formula", "plural_type").Updates(l)
		if res.Error == nil && res.RowsAffected == 0 {
			return ErrNotFound
		}
		touch(tx, Languages)
		return res.Error
	})
}

// DeleteLanguage removes the language with this id and its plurals.
func (s *Store) DeleteLanguage(ctx context.Context, id int64) error {
	return s.transaction(ctx, func(tx *gorm.DB) error {
		if err := tx.Where("language_id = ?", id).Delete(&Plural{}).Error; err != nil {
			return err
		}
		res := tx.Delete(&Language{}, id)
		if res.Error == nil && res.RowsAffected == 0 {
			return ErrNotFound
		}
		touch(tx, Languages)
		return res.Error
	})
}
