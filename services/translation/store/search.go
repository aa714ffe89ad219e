package store

import (
	"context"

	"github.com/tmsproject/tms/services/translation/search"
)

// On SQLite, the search language needs a Unicode-aware lower() and
// regexp(); the driver applies them to every connection it opens.
func init() { search.RegisterSQLiteFunctions() }

// unitColumns maps the search language onto the units table.
var searchColumns = search.Columns{
	Source: "units.source", Target: "units.target", Context: "units.context", Note: "units.note",
	Location: "units.location", State: "units.state",
	HasSuggestion: "units.has_suggestion", HasComment: "units.has_comment",
	LabelUnit: LabelUnit,
	Folded:    "units.id IN (SELECT id FROM units WHERE " + search.FoldCondition(foldColumns...) + ")",
}

// foldColumns are the text columns of units the partial index units_fold
// (SQLite migration 0009) tests for characters lower() turns into ASCII.
var foldColumns = []string{"source", "target", "context", "note", "location"}

// SearchUnits pages, by id, the units of one translation (0: of all) that
// match q; the total counts the matching rows.
func (s *Store) SearchUnits(ctx context.Context, translationID int64, q *search.Query, offset, limit int64, hidden Hidden) ([]UnitView, int64, error) {
	dialect := search.DialectSQLite
	if s.postgres {
		dialect = search.DialectPostgres
	}
	where, args := q.SQL(searchColumns, dialect)
	tx := hidden.byTranslation(s.q(ctx), s.q(ctx).Model(&Unit{}).Where(where, args...), "units.translation_id")
	if translationID != 0 {
		tx = tx.Where("units.translation_id = ?", translationID)
	}
	var total int64
	if err := tx.Count(&total).Error; err != nil {
		return nil, 0, err
	}
	if total <= offset {
		// Nothing to page: spare the second pass over the table.
		return nil, total, nil
	}
	var units []Unit
	tx = page(tx, "units.id", offset, limit)
	if err := tx.Find(&units).Error; err != nil {
		return nil, 0, err
	}
	views, err := s.attach(ctx, units)
	return views, total, err
}
