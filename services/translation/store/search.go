package store

import (
	"context"
	"strconv"
	"strings"

	"gorm.io/gorm"

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
	CheckUnit: "units.id", HasFailingCheck: "units.has_failing_check",
	Translation: "units.translation_id", Folded: foldedSubquery,
	ID: "units.id", Position: "units.position", Priority: "units.priority", Pending: "units.pending",
	Added: "units.timestamp", LastChanged: "units.last_updated", ChangeUnit: "units.id",
	// a source string's own, or the one of the translation's source string
	Explanation:   "COALESCE((SELECT s.explanation FROM units s WHERE s.id = units.source_unit_id), units.explanation)",
	ExtraFlags:    "COALESCE((SELECT s.extra_flags FROM units s WHERE s.id = units.source_unit_id), units.extra_flags)",
	SourceChanged: "COALESCE((SELECT s.last_updated FROM units s WHERE s.id = units.source_unit_id), units.last_updated)",
}

// foldedSubquery selects the rows of units_fold (SQLite migration 0009).
var foldedSubquery = "units.id IN (SELECT id FROM units WHERE " + search.FoldCondition(foldColumns...) + ")"

// maxFoldedList is how many folded rows foldedRows lists by id; beyond it
// the search keeps the subquery.
const maxFoldedList = 2000

// foldedRows is Columns.Folded for one SQLite search: the ids of the rows
// units_fold holds, read once from that partial index, or NoneFolded.
// Tested as a subquery on every row the search scans, it cost a lookup
// per row (a 1M-unit search spent two thirds of its time there); a list
// of ids costs a fraction of that, and most catalogs have no such row.
func foldedRows(tx *gorm.DB) (string, error) {
	var ids []int64
	err := tx.Raw("SELECT id FROM units WHERE "+search.FoldCondition(foldColumns...)+" LIMIT ?", maxFoldedList+1).
		Scan(&ids).Error
	switch {
	case err != nil:
		return "", err
	case len(ids) == 0:
		return search.NoneFolded, nil
	case len(ids) > maxFoldedList:
		return foldedSubquery, nil
	}
	list := make([]string, len(ids))
	for i, id := range ids {
		list[i] = strconv.FormatInt(id, 10)
	}
	return "units.id IN (" + strings.Join(list, ",") + ")", nil
}

// foldColumns are the text columns of units the partial index units_fold
// (SQLite migration 0009) tests for characters lower() turns into ASCII.
var foldColumns = []string{"source", "target", "context", "note", "location"}

// matchingIDs reads the ids of the units tx selects, in id order: one scan
// gives both the count and the page, where a count and then a page each
// scanned the table (a rare match's page read most of it a second time).
// The ids of a million matches take 8 MB.
func matchingIDs(tx *gorm.DB) ([]int64, error) {
	return scanIDs(tx.Select("units.id").Order("units.id"))
}

// SearchUnits pages, by id, the units of one translation (0: of all) that
// match q; the total counts the matching rows.
func (s *Store) SearchUnits(ctx context.Context, translationID int64, q *search.Query, offset, limit int64, hidden Hidden) ([]UnitView, int64, error) {
	ids, total, err := s.searchPage(ctx, translationID, q, offset, limit, hidden)
	if err != nil || len(ids) == 0 {
		return nil, total, err
	}
	units, err := findUnits(s.q(ctx).Where("id IN ?", ids).Order("id"))
	if err != nil {
		return nil, 0, err
	}
	views, err := s.attach(ctx, units)
	return views, total, err
}

// searchPage is the ids of SearchUnits' page and the count of matches:
// counted from the search index where q allows it, else from every
// matching id.
func (s *Store) searchPage(ctx context.Context, translationID int64, q *search.Query, offset, limit int64, hidden Hidden) ([]int64, int64, error) {
	ids, total, ok, err := s.searchIndexed(ctx, translationID, q, offset, limit, hidden)
	if err != nil || ok {
		return ids, total, err
	}
	if ids, err = s.SearchUnitIDs(ctx, translationID, q, hidden); err != nil {
		return nil, 0, err
	}
	ids, total = pageOf(ids, offset, limit)
	return ids, total, nil
}

// SearchUnitIDs are the ids, in order, of the units of one translation
// (0: of all) that match q.
func (s *Store) SearchUnitIDs(ctx context.Context, translationID int64, q *search.Query, hidden Hidden) ([]int64, error) {
	scope, indexed, err := s.searchScope(ctx, translationID, q, hidden)
	if err != nil {
		return nil, err
	}
	if indexed { // one statement: each part of a split scan would look the index up again
		return matchingIDs(scope(s.q(ctx)))
	}
	return s.matchingUnitIDs(ctx, translationID, scope)
}

// searchScope is the selection of the units of one translation (0: of
// all) that match q; indexed reports that it looks the trigram index up.
func (s *Store) searchScope(ctx context.Context, translationID int64, q *search.Query, hidden Hidden) (
	scope func(*gorm.DB) *gorm.DB, indexed bool, err error) {
	dialect, cols := search.DialectSQLite, searchColumns
	if s.postgres {
		dialect = search.DialectPostgres
	} else if cols.Folded, err = foldedRows(s.q(ctx)); err != nil {
		return nil, false, err
	}
	where, args := q.SQL(cols, dialect)
	candidates := s.trigramCandidates
	if s.postgres {
		candidates = s.pgTrigramCandidates
	}
	pre, preArgs, err := candidates(ctx, translationID, q, cols.Folded)
	if err != nil {
		return nil, false, err
	}
	return func(q *gorm.DB) *gorm.DB {
		tx := hidden.byTranslation(s.q(ctx), q.Model(&Unit{}).Where(where, args...), "units.translation_id")
		if translationID != 0 {
			tx = tx.Where("units.translation_id = ?", translationID)
		}
		if pre != "" { // the index narrows the rows; q's condition still decides
			tx = tx.Where(pre, preArgs...)
		}
		return tx
	}, pre != "", nil
}

// useTextIndex is false in tests that want a search's scanned answer.
var useTextIndex = true

// trigramCandidates is, on SQLite, a condition on units.id that holds for
// every unit matching q and few others: the units unit_text finds for
// q's trigram expression, those edited or deleted since indexed (noted in
// unit_text_dirty), those above the index's mark, and those whose text
// lower() folds into ASCII (folded, a Columns.Folded). Empty when q
// has no trigram expression or nothing is indexed yet: the search scans.
func (s *Store) trigramCandidates(ctx context.Context, _ int64, q *search.Query, folded string) (string, []any, error) {
	match, ok := q.TrigramMatch()
	if !ok || !useTextIndex {
		return "", nil, nil
	}
	through, err := indexedThrough(s.q(ctx))
	if err != nil || through == 0 {
		return "", nil, err
	}
	cond := "units.id IN (SELECT rowid FROM unit_text WHERE unit_text MATCH ? UNION ALL SELECT unit_id FROM unit_text_dirty" +
		" UNION ALL SELECT id FROM units WHERE id > ?"
	if folded != search.NoneFolded {
		cond += " UNION ALL SELECT id FROM units WHERE " + folded
	}
	return cond + ")", []any{match, through}, nil
}

// pgTrigramCandidates is trigramCandidates on PostgreSQL: the units whose
// copy in unit_text holds q's trigram condition, and those queued, whose
// copy is missing or out of date. ILIKE folds a copy as it folds the
// units' text, so no other rows need adding.
//
// The candidates are read first and given to the search as an array: in
// one statement, the planner, unsure how many the lookup finds, chose
// plans that ran it once per unit (19 s over 140k units, and past the
// deadline over 1M). Read in a statement of their own, they miss a unit
// an edit makes match between the two statements, as the search would
// had it run a moment earlier. Empty when there are more than
// pgMaxCandidates: each candidate costs two row reads (its copy's and its
// unit's), and reading the units once is cheaper then.
func (s *Store) pgTrigramCandidates(ctx context.Context, translationID int64, q *search.Query, _ string) (string, []any, error) {
	lookup, args, ok := pgCandidates(q, translationID)
	if !ok || !useTextIndex {
		return "", nil, nil
	}
	if indexed, err := pgTextIndexed(s.q(ctx)); err != nil || !indexed {
		return "", nil, err
	}
	most, err := pgMaxCandidates(s.q(ctx))
	if err != nil {
		return "", nil, err
	}
	ids, err := scanIDs(s.q(ctx).Raw(lookup+" LIMIT ?", append(args, most+1)...))
	if err != nil || int64(len(ids)) > most {
		return "", nil, err
	}
	return "units.id = ANY(?::bigint[])", []any{pgArray(ids)}, nil
}

// pgCandidates is the query of pgTrigramCandidates' units, of one
// translation (0: of all).
func pgCandidates(q *search.Query, translationID int64) (string, []any, bool) {
	tree, ok := q.TrigramTree()
	if !ok {
		return "", nil, false
	}
	copies := cond{sql: "TRUE"}
	if translationID != 0 {
		copies = cond{"ut.translation_id = ?", []any{translationID}}
	}
	set := scopeOf(copies, translationID).units(tree)
	return "SELECT m.id FROM " + set.sql + " AS m(id) UNION SELECT unit_id FROM unit_text_queue", set.args, true
}

// pgMaxCandidates is how many candidates a PostgreSQL search looks up
// before scanning instead: a tenth of the units (as the planner last
// counted them), at least 20,000. A candidate costs about ten times what
// scanning a unit does (two lookups and the condition, against a
// sequential read: over 1M units, 70k candidates took 1.2 s, the scan
// 1.6 s).
func pgMaxCandidates(tx *gorm.DB) (int64, error) {
	var units float64
	err := tx.Raw(`SELECT reltuples FROM pg_class WHERE oid = to_regclass('units')`).Scan(&units).Error
	return max(20000, int64(units)/10), err
}

// scanIDs reads the ids a query selects, in its order.
func scanIDs(q *gorm.DB) ([]int64, error) {
	rows, err := q.Rows()
	if err != nil {
		return nil, err
	}
	defer func() { _ = rows.Close() }() // read-only; Err reports what matters
	var ids []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// pgArray is ids as a PostgreSQL array literal.
func pgArray(ids []int64) string {
	b := make([]byte, 0, 8*len(ids)+2)
	b = append(b, '{')
	for i, id := range ids {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, id, 10)
	}
	return string(append(b, '}'))
}
