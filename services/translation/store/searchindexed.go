package store

import (
	"context"
	"database/sql"
	"math"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/services/translation/search"
)

// A search made only of substring terms the trigram index answers, under
// AND and OR (search.Query.TrigramExact, TrigramTreeExact), is
// counted from the index: every indexed unit whose entry is its text as
// it is matches q exactly when its entry matches. Only the other units
// (not indexed yet, edited since, or, on SQLite, holding a character the
// index and LIKE fold apart) are read and tested with q's condition.
// Looking each matching unit up instead cost a word found in 70,000 of
// 1M units 245 ms on SQLite and 490 ms on PostgreSQL.

// indexedSets are the two disjoint halves of an indexed search's
// matches: the index's rows, and the units it cannot answer for, tested.
// Each selects one column of unit ids.
type indexedSets struct {
	indexed, tested cond
	// counted, when not empty, is indexed in parts counted apart
	// (PostgreSQL, pgtextcount.go).
	counted []countedPart
}

// cond is an SQL statement or condition with its arguments.
type cond struct {
	sql  string
	args []any
}

// narrow restricts c, whose column col holds translation ids, to one
// translation (0: all) and to those hidden does not hide.
func (c *cond) narrow(tx *gorm.DB, col string, translationID int64, hidden Hidden) {
	if translationID != 0 {
		c.sql += " AND " + col + " = ?"
		c.args = append(c.args, translationID)
	}
	if !hidden.none() {
		c.sql += " AND " + col + " NOT IN (?)"
		c.args = append(c.args, hidden.hiddenTranslations(tx))
	}
}

// searchIndexed is SearchUnits' count and page of ids from the trigram
// index. On SQLite, a search of up to maxListed matches reads their ids
// in one statement; a broader one counts them and reads its page in
// another (one snapshot: the count and the page agree), which looks the
// index up twice but reads no id outside the page: reading a row costs
// more there than finding it. PostgreSQL counts and pages in one
// statement over the matches looked up once (countIndexed). ok is false
// when q or the index does not allow it; the caller searches unit by
// unit.
func (s *Store) searchIndexed(ctx context.Context, translationID int64, q *search.Query, offset, limit int64,
	hidden Hidden) (ids []int64, total int64, ok bool, err error) {
	if !useTextIndex {
		return nil, 0, false, nil
	}
	sets, ok, err := s.indexedSets(ctx, translationID, q, hidden)
	if err != nil || !ok {
		return nil, 0, false, err
	}
	both := cond{sets.indexed.sql + " UNION ALL " + sets.tested.sql,
		append(append([]any{}, sets.indexed.args...), sets.tested.args...)}
	if most := maxListed; !s.postgres && most > 0 {
		if ids, err = scanIDs(s.q(ctx).Raw(both.sql+" ORDER BY 1 LIMIT ?", append(both.args, int64(most)+1)...)); err != nil {
			return nil, 0, false, err
		}
		if len(ids) <= most {
			ids, total = pageOf(ids, offset, limit)
			return ids, total, true, nil
		}
	}
	ids, total, err = s.countIndexed(ctx, sets, both, offset, limit)
	return ids, total, true, err
}

// maxListed is how many matches an indexed search on SQLite lists by id
// before it counts them instead. (A variable for tests, which count
// their few.)
var maxListed = 2000

// pageOf is the page of ids from offset (limit 0: all of them) and how
// many ids there are.
func pageOf(ids []int64, offset, limit int64) ([]int64, int64) {
	total := int64(len(ids))
	if total <= offset {
		return nil, total
	}
	ids = ids[offset:]
	if limit > 0 && int64(len(ids)) > limit {
		ids = ids[:limit]
	}
	return ids, total
}

// countIndexed counts the matches of sets and reads the page of both
// (the two sets), in order, in one statement.
func (s *Store) countIndexed(ctx context.Context, sets indexedSets, both cond, offset, limit int64) (ids []int64, total int64, err error) {
	if limit <= 0 {
		limit = math.MaxInt32
	}
	var query string
	var args []any
	switch counted, countedArgs, ok := pgCountedQuery(sets, offset, limit); {
	case ok:
		query, args = counted, countedArgs
	case s.postgres:
		// The matches are looked up once and kept for the count and the
		// page: over 1M units, a word in 70,000 took 60 ms so, and the
		// ids listed for Go to count and page took 20 ms more.
		query = "WITH m AS MATERIALIZED (" + both.sql + ") SELECT c.total, p.id FROM (SELECT COUNT(*) AS total FROM m) c" +
			" LEFT JOIN (SELECT id FROM m ORDER BY id LIMIT ? OFFSET ?) p ON true ORDER BY p.id"
		args = both.args
	default:
		query = "SELECT c.total, p.id FROM (SELECT (SELECT COUNT(*) FROM (" + sets.indexed.sql + ") i) + (SELECT COUNT(*) FROM (" +
			sets.tested.sql + ") t) AS total) c LEFT JOIN (" + both.sql + " ORDER BY 1 LIMIT ? OFFSET ?) p ON 1 = 1 ORDER BY p.id"
		args = append(append(append([]any{}, sets.indexed.args...), sets.tested.args...), both.args...)
	}
	rows, err := s.q(ctx).Raw(query, append(args, limit, offset)...).Rows()
	if err != nil {
		return nil, 0, err
	}
	defer func() { _ = rows.Close() }() // read-only; Err reports what matters
	for rows.Next() {
		var id sql.NullInt64
		if err := rows.Scan(&total, &id); err != nil {
			return nil, 0, err
		}
		if id.Valid {
			ids = append(ids, id.Int64)
		}
	}
	return ids, total, rows.Err()
}

// pgCountedQuery is countIndexed's statement for sets counted in parts
// (only PostgreSQL's are): the sum of the parts' counts and the tested
// units' (tested once, into t), and the page from as many of each part's
// first ids as it needs; its last arguments, the page's limit and offset,
// are to be added. ok is false when sets are not counted in parts or the
// page is past maxFirst.
func pgCountedQuery(sets indexedSets, offset, limit int64) (query string, args []any, ok bool) {
	first := offset + limit
	if len(sets.counted) == 0 || first > maxFirst {
		return "", nil, false
	}
	total, ids := "(SELECT COUNT(*) FROM t)", "SELECT id FROM t"
	totalArgs := append([]any{}, sets.tested.args...)
	var idArgs []any
	for _, p := range sets.counted {
		total += " + " + p.count.sql
		totalArgs = append(totalArgs, p.count.args...)
		ids += " UNION ALL (" + p.ids.sql + " ORDER BY 1 LIMIT ?)"
		idArgs = append(append(idArgs, p.ids.args...), first)
	}
	query = "WITH t AS MATERIALIZED (" + sets.tested.sql + ") SELECT c.total, p.id FROM (SELECT " + total +
		" AS total) c LEFT JOIN (SELECT x.id FROM (" + ids + ") AS x(id) ORDER BY x.id LIMIT ? OFFSET ?) p ON true ORDER BY p.id"
	return query, append(totalArgs, idArgs...), true
}

// indexedSets splits q's matches for searchIndexed, on the store's
// engine; ok is false when q is not only terms the index decides, or
// when nothing is indexed yet.
func (s *Store) indexedSets(ctx context.Context, translationID int64, q *search.Query, hidden Hidden) (indexedSets, bool, error) {
	if s.postgres {
		return s.pgIndexedSets(ctx, translationID, q, hidden)
	}
	return s.sqliteIndexedSets(ctx, translationID, q, hidden)
}

// sqliteIndexedSets: the rows unit_text matches, less the units its entry
// may not answer for (beside: noted since indexed, above the mark, or
// holding a character FTS5 and LIKE fold apart); and those units, tested.
func (s *Store) sqliteIndexedSets(ctx context.Context, translationID int64, q *search.Query, hidden Hidden) (indexedSets, bool, error) {
	match, ok := q.TrigramExact()
	if !ok {
		return indexedSets{}, false, nil
	}
	tx := s.q(ctx)
	through, err := indexedThrough(tx)
	if err != nil || through == 0 {
		return indexedSets{}, false, err
	}
	cols := searchColumns
	if cols.Folded, err = foldedRows(tx); err != nil {
		return indexedSets{}, false, err
	}
	where, whereArgs := q.SQL(cols, search.DialectSQLite)
	beside := "SELECT unit_id FROM unit_text_dirty UNION ALL SELECT id FROM units WHERE id > ? UNION ALL SELECT id FROM units WHERE " +
		search.IndexFoldCondition(indexFoldColumns...)
	sets := indexedSets{
		indexed: cond{"SELECT rowid AS id FROM unit_text WHERE unit_text MATCH ? AND rowid NOT IN (" + beside + ")", []any{match, through}},
		tested:  cond{"SELECT id FROM units WHERE id IN (" + beside + ") AND (" + where + ")", append([]any{through}, whereArgs...)},
	}
	if translationID != 0 {
		// The translation's units, looked up only within its range of
		// ids: an import gives them one, so few others are read.
		sets.indexed.sql += ` AND rowid BETWEEN (SELECT MIN(id) FROM units WHERE translation_id = ?)
			AND (SELECT MAX(id) FROM units WHERE translation_id = ?)
			AND EXISTS (SELECT 1 FROM units u WHERE u.id = unit_text.rowid AND u.translation_id = ?)`
		sets.indexed.args = append(sets.indexed.args, translationID, translationID, translationID)
	}
	if !hidden.none() {
		// The units of hidden translations, read from units' index by
		// translation: as many as are hidden, none for most callers.
		sets.indexed.sql += " AND rowid NOT IN (?)"
		sets.indexed.args = append(sets.indexed.args, hidden.hiddenUnits(tx))
	}
	sets.tested.narrow(tx, "units.translation_id", translationID, hidden)
	return sets, true, nil
}

// indexFoldColumns are the columns unit_text indexes, over which the
// partial index units_index_fold (SQLite migration 0024) lists the units
// holding a character lower() or FTS5 folds into ASCII.
var indexFoldColumns = []string{"source", "target", "context"}

// pgIndexedSets: the units whose copies match q (copyScope.units), less the
// queued units (their copy is missing or out of date); and the queued
// units, tested. The copies' conditions are the search's own ILIKE, so
// they fold as the units' text would.
//
// The queued units are read first and given as an array, as the
// candidates of pgTrigramCandidates are: in one statement, the planner,
// going by the queue's size when it last counted it (a whole import's,
// say), read the queue for each copy (4 s over 1M units). A unit an edit
// queues between the two statements is answered by its copy, as a search
// run a moment earlier would answer it. More than maxQueued queued: ok is
// false, the search looks up candidates instead.
func (s *Store) pgIndexedSets(ctx context.Context, translationID int64, q *search.Query, hidden Hidden) (indexedSets, bool, error) {
	tree, ok := q.TrigramTree()
	if !ok || !q.TrigramTreeExact() {
		return indexedSets{}, false, nil
	}
	tx := s.q(ctx)
	if indexed, err := pgTextIndexed(tx); err != nil || !indexed {
		return indexedSets{}, false, err
	}
	queued, err := scanIDs(tx.Raw(`SELECT DISTINCT unit_id FROM unit_text_queue LIMIT ?`, maxQueued+1))
	if err != nil || len(queued) > maxQueued {
		return indexedSets{}, false, err
	}
	queuedList := pgArray(queued)
	queuedIn := cond{"ut.unit_id = ANY(?::bigint[])", []any{queuedList}}
	copies := cond{"NOT " + queuedIn.sql, queuedIn.args}
	copies.narrow(tx, "ut.translation_id", translationID, hidden)
	sc := scopeOf(copies, translationID)
	if translationID == 0 && hidden.none() {
		sc.queued = queuedIn // the scope is every copy not queued: counted by pair
	}
	set := sc.units(tree)
	where, whereArgs := q.SQL(searchColumns, search.DialectPostgres)
	sets := indexedSets{
		indexed: cond{"SELECT m.id FROM " + set.sql + " AS m(id)", set.args},
		tested: cond{"SELECT id FROM units WHERE id = ANY(?::bigint[]) AND (" + where + ")",
			append([]any{queuedList}, whereArgs...)},
	}
	sets.tested.narrow(tx, "units.translation_id", translationID, hidden)
	sets.counted, _ = sc.counted(tree)
	return sets, true, nil
}

// maxQueued is how many queued units a PostgreSQL search counted from
// the index tests one by one; as many as the indexer lets wait.
const maxQueued = maxDirty
