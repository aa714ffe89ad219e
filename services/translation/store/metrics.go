package store

import "context"

// Metrics are the counts of everything a caller may see (Weblate's site
// metrics, the part this service keeps).
type Metrics struct {
	Translations, Units, UnitsTranslated, Checks, Suggestions int64
}

// Metrics counts the translations hidden does not hide, their strings and
// translated strings, their check results (dismissed ones too, as
// Weblate counts its Check rows) and their suggestions.
func (s *Store) Metrics(ctx context.Context, hidden Hidden) (Metrics, error) {
	var m Metrics
	db := s.q(ctx)
	sums := struct{ N, Units, Translated int64 }{}
	err := hidden.translations(db.Model(&Translation{})).
		Select("COUNT(*) AS n, COALESCE(SUM(total),0) AS units, COALESCE(SUM(translated),0) AS translated").Scan(&sums).Error
	if err != nil {
		return m, err
	}
	m.Translations, m.Units, m.UnitsTranslated = sums.N, sums.Units, sums.Translated
	if err = hidden.byUnit(db, db.Table("unit_checks"), "unit_checks.unit_id").Count(&m.Checks).Error; err != nil {
		return m, err
	}
	err = hidden.byUnit(db, db.Table("suggestions"), "suggestions.unit_id").Count(&m.Suggestions).Error
	return m, err
}

// VisibleLanguageCodes are the codes of the languages with a translation the
// caller may see, sorted.
func (s *Store) VisibleLanguageCodes(ctx context.Context, hidden Hidden) ([]string, error) {
	var codes []string
	err := hidden.translations(s.q(ctx).Model(&Translation{})).Distinct("language_code").Order("language_code").
		Pluck("language_code", &codes).Error
	return codes, err
}
