package search

import (
	"strings"
	"unicode/utf8"
)

// indexed reports whether the trigram indexes hold f: source, target and
// context (SQLite's FTS5 table unit_text and PostgreSQL's, under the
// names textFieldNames gives them, which its MATCH filters use).
func indexed(f textField) bool {
	return f == fieldSource || f == fieldTarget || f == fieldContext
}

// minTrigramValue is the shortest value a trigram index can look up: a
// shorter one holds no trigram, and only a scan finds it.
const minTrigramValue = 3

// TrigramMatch is an FTS5 MATCH expression, over a trigram-tokenized table
// of the indexed fields (case folded), that every row matching q also matches,
// so that the rows it finds, tested again with q's own condition, are
// exactly q's. ok is false when q has no such expression: a term a
// trigram index cannot answer (shorter than three characters, not ASCII,
// a regular expression, another field) left under OR or NOT; the search
// then scans.
//
// ASCII only: for an ASCII value, the case-insensitive substring test
// (SQLite's LIKE on ASCII letters) holds only where the folded trigrams
// hold, except in a row with a character that lower() or the index folds
// into ASCII (Columns.Folded); the caller adds those rows. Other
// alphabets fold differently in Go's lower() and in FTS5, so their terms
// are left to the scan.
func (q *Query) TrigramMatch() (expr string, ok bool) {
	c, ok := trigramTree(q.root, (*textNode).ftsPhrase)
	return c.sql, ok
}

// TrigramCondition is TrigramMatch for PostgreSQL: a condition on table,
// which holds a unit's source, target and context (never NULL) in columns
// of those names, each with a pg_trgm index, that every row matching q
// also holds. Its terms are the search's own tests (ILIKE, folding as the
// database does), so the rows it selects, tested again with q's
// condition, are exactly q's, whatever the value's alphabet.
func (q *Query) TrigramCondition(table string) (sql string, args []any, ok bool) {
	c, ok := trigramTree(q.root, func(n *textNode) (cond, bool) { return n.columnsLike(table) })
	return c.sql, c.args, ok
}

// TrigramExact is TrigramMatch when its expression decides q alone: q is
// only substring terms the index answers, under AND and OR, so that a
// row the index holds as it is matches q exactly when it matches the
// expression, save a row whose text holds a character lower() or the
// index folds into ASCII (IndexFoldCondition), which FTS5 and LIKE fold
// apart. The search can then count the index's rows instead of testing
// each unit.
func (q *Query) TrigramExact() (expr string, ok bool) {
	if !exactTree(q.root, func(n *textNode) bool { return n.lookedUp() && printableASCII(n.value) }) {
		return "", false
	}
	return q.TrigramMatch()
}

// TrigramConditionExact is TrigramCondition when its condition decides q
// alone: q is only substring terms the index answers, under AND and OR.
// The condition is the search's own test on a copy of the text, so no
// row is an exception.
func (q *Query) TrigramConditionExact(table string) (sql string, args []any, ok bool) {
	if !exactTree(q.root, (*textNode).lookedUp) {
		return "", nil, false
	}
	return q.TrigramCondition(table)
}

// exactTree reports whether n is AND and OR of terms that leaf accepts.
func exactTree(n node, leaf func(*textNode) bool) bool {
	var xs []node
	switch n := n.(type) {
	case *textNode:
		return leaf(n)
	case *andNode:
		xs = n.xs
	case *orNode:
		xs = n.xs
	default:
		return false
	}
	for _, x := range xs {
		if !exactTree(x, leaf) {
			return false
		}
	}
	return true
}

// cond is an SQL condition or match expression with its arguments.
type cond struct {
	sql  string
	args []any
}

// trigramTree renders the part of n a trigram index answers, leaf
// rendering each term it can look up.
func trigramTree(n node, leaf func(*textNode) (cond, bool)) (cond, bool) {
	switch n := n.(type) {
	case *textNode:
		return leaf(n)
	case *andNode:
		var parts []cond
		for _, x := range n.xs {
			if c, ok := trigramTree(x, leaf); ok { // AND: a term left out only widens
				parts = append(parts, c)
			}
		}
		return joinConds(parts, " AND ")
	case *orNode:
		parts := make([]cond, 0, len(n.xs))
		for _, x := range n.xs {
			c, ok := trigramTree(x, leaf)
			if !ok { // OR: one term the index cannot answer, and all rows may match
				return cond{}, false
			}
			parts = append(parts, c)
		}
		return joinConds(parts, " OR ")
	default:
		return cond{}, false
	}
}

func joinConds(parts []cond, sep string) (cond, bool) {
	switch len(parts) {
	case 0:
		return cond{}, false
	case 1:
		return parts[0], true
	}
	sqls := make([]string, len(parts))
	var args []any
	for i, p := range parts {
		sqls[i] = p.sql
		args = append(args, p.args...)
	}
	return cond{sql: "(" + strings.Join(sqls, sep) + ")", args: args}, true
}

// lookedUp reports whether a trigram index answers the term: a substring
// of indexed fields only, at least a trigram long.
func (n *textNode) lookedUp() bool {
	if n.mode != modeSubstring || utf8.RuneCountInString(n.value) < minTrigramValue {
		return false
	}
	for _, f := range n.fields {
		if !indexed(f) {
			return false
		}
	}
	return true
}

// ftsPhrase is the phrase of the term's value in its fields: its
// trigrams in a row, which is a substring in the folded text.
func (n *textNode) ftsPhrase() (cond, bool) {
	if !n.lookedUp() || !printableASCII(n.value) {
		return cond{}, false
	}
	names := make([]string, len(n.fields))
	for i, f := range n.fields {
		names[i] = textFieldNames[f]
	}
	phrase := `"` + strings.ReplaceAll(n.value, `"`, `""`) + `"`
	return cond{sql: "{" + strings.Join(names, " ") + "} : " + phrase}, true
}

// columnsLike is the term's substring test on its fields' columns of table.
func (n *textNode) columnsLike(table string) (cond, bool) {
	if !n.lookedUp() {
		return cond{}, false
	}
	parts := make([]cond, len(n.fields))
	pattern := likePattern(n.value)
	for i, f := range n.fields {
		parts[i] = cond{sql: table + "." + textFieldNames[f] + ` ILIKE ? ESCAPE '\'`, args: []any{pattern}}
	}
	return joinConds(parts, " OR ")
}

// printableASCII reports whether FTS5's trigrams fold value as lower()
// does: printable ASCII (no plural separator, nothing folded otherwise).
func printableASCII(v string) bool {
	for i := 0; i < len(v); i++ {
		if v[i] < 0x20 || v[i] >= 0x7f {
			return false
		}
	}
	return true
}
