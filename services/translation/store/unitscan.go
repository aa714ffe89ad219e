package store

import (
	"database/sql"
	"strings"

	"gorm.io/gorm"
)

// unitSelect lists every column of units in the order scanUnit reads them.
// The last, Labelled, costs a probe of unit_labels' key per row, less than
// a query of the labels of a page that has none.
var unitSelect = "units.id, units." + strings.Join(unitColumns, ", units.") +
	", EXISTS (SELECT 1 FROM unit_labels WHERE unit_labels.unit_id = COALESCE(units.source_unit_id, units.id))"

// findUnits runs q (a query of the units table) and reads its rows
// without the ORM's reflection, which cost a third of a units page's CPU
// in the service; q's own selected columns are replaced.
func findUnits(q *gorm.DB) ([]Unit, error) {
	rows, err := q.Model(&Unit{}).Select(unitSelect).Rows()
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }() // read-only; Err reports what matters
	var out []Unit
	for rows.Next() {
		var u Unit
		if err := scanUnit(rows, &u); err != nil {
			return nil, err
		}
		out = append(out, u)
	}
	return out, rows.Err()
}

// scanUnit reads one row of unitSelect into u.
func scanUnit(rows *sql.Rows, u *Unit) error {
	var src sql.NullInt64
	err := rows.Scan(&u.ID, &u.TranslationID, &u.Source, &u.Target, &u.PreviousSource, &u.Context, &u.Location,
		&u.Note, &u.Flags, &u.ExtraFlags, &u.Explanation, &u.IDHash, &u.ContentHash, &u.State, &u.Position,
		&u.NumWords, &u.NumChars, &src, &u.Priority, &u.Pending, &u.PendingAuthor, &u.HasSuggestion, &u.HasComment,
		&u.HasFailingCheck, &u.HasDismissedCheck, &u.TranslatedTarget, &u.Timestamp, &u.LastUpdated, &u.Labelled)
	if src.Valid {
		u.SourceUnitID = &src.Int64
	}
	return err
}
