package store

import (
	"database/sql"
	"strings"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
)

// takeTranslation reads the first translation where holds (then lock:
// rowLock or ""), as findTranslations reads them. gorm.ErrRecordNotFound
// when there is none.
func takeTranslation(q *gorm.DB, lock, where string, args ...any) (Translation, error) {
	ts, err := findTranslations(q, where, " LIMIT 1"+lock, args...)
	switch {
	case err != nil:
		return Translation{}, err
	case len(ts) == 0:
		return Translation{}, gorm.ErrRecordNotFound
	}
	return ts[0], nil
}

// findTranslations reads the translations where holds, then tail (an
// order, a limit, a lock), without the ORM's building and reflection: a
// units page reads its translation first, and the ORM's building and
// scanning of that one row cost a fifteenth of the page's CPU (building
// alone, which looks each selected column up in the model, a fiftieth of
// an edit's).
func findTranslations(q *gorm.DB, where, tail string, args ...any) ([]Translation, error) {
	sel := translationSelect
	if q.Dialector.Name() != db.Postgres {
		sel = translationSelectSQLite
	}
	rows, err := q.Raw("SELECT "+sel+" FROM translations WHERE "+where+tail, args...).Rows()
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }() // read-only; Err reports what matters
	var out []Translation
	for rows.Next() {
		var t Translation
		var last nullTextTime
		dest := []any{&t.ID, &t.ComponentID, &t.ProjectSlug, &t.ComponentSlug, &t.LanguageCode, &t.PluralNumber,
			&t.PluralID, &t.PluralSource, &t.PluralFormula, &t.PluralType, &t.Filename, &t.Revision, &t.IsSource,
			&t.IsTemplate, &t.Propagate, &t.Consistency}
		for _, p := range t.Stats.pointers() {
			dest = append(dest, p)
		}
		dest = append(dest, &last, &t.LastAuthor, textTime{&t.CreatedAt})
		if err := rows.Scan(dest...); err != nil {
			return nil, err
		}
		if last.valid {
			t.LastChange = &last.t
		}
		out = append(out, t)
	}
	return out, rows.Err()
}

// translationColumns are the columns takeTranslation reads, in order.
var translationColumns = append(append([]string{"id", "component_id", "project_slug", "component_slug",
	"language_code", "plural_number", "plural_id", "plural_source", "plural_formula", "plural_type", "filename",
	"revision", "is_source", "is_template", "propagate", "consistency"}, statColumns()...),
	"last_change", "last_author", "created_at")

var translationSelect = strings.Join(translationColumns, ", ")

// translationSelectSQLite reads the times as text, as unitSelectSQLite.
var translationSelectSQLite = strings.NewReplacer("last_change,", "CAST(last_change AS TEXT),",
	"created_at", "CAST(created_at AS TEXT)").Replace(translationSelect)

// pointers are the counters in the order of statColumns.
func (s *Stats) pointers() []*int64 {
	return []*int64{&s.Total, &s.TotalWords, &s.TotalChars, &s.Translated, &s.TranslatedWords, &s.TranslatedChars,
		&s.Fuzzy, &s.FuzzyWords, &s.FuzzyChars, &s.Approved, &s.ApprovedWords, &s.ApprovedChars,
		&s.Readonly, &s.ReadonlyWords, &s.ReadonlyChars, &s.Failing, &s.Suggestions, &s.Comments,
		&s.FailingWords, &s.FailingChars}
}

// nullTextTime scans a time that may be NULL, as textTime does.
type nullTextTime struct {
	t     time.Time
	valid bool
}

// Scan reads src.
func (n *nullTextTime) Scan(src any) error {
	if src == nil {
		n.valid = false
		return nil
	}
	n.valid = true
	return textTime{&n.t}.Scan(src)
}

var _ sql.Scanner = (*nullTextTime)(nil)
