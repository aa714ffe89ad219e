package search

import (
	"strings"
	"unicode/utf8"
)

// indexed reports whether the trigram index (SQLite's FTS5 table
// unit_text, migration 0021) holds f: source, target and context, under
// the names textFieldNames gives them, which its MATCH filters use.
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
	return trigramMatch(q.root)
}

func trigramMatch(n node) (string, bool) {
	switch n := n.(type) {
	case *textNode:
		return n.trigramMatch()
	case *andNode:
		var parts []string
		for _, x := range n.xs {
			if e, ok := trigramMatch(x); ok { // AND: a term left out only widens
				parts = append(parts, e)
			}
		}
		return joinMatch(parts, " AND ")
	case *orNode:
		parts := make([]string, 0, len(n.xs))
		for _, x := range n.xs {
			e, ok := trigramMatch(x)
			if !ok { // OR: one term the index cannot answer, and all rows may match
				return "", false
			}
			parts = append(parts, e)
		}
		return joinMatch(parts, " OR ")
	default:
		return "", false
	}
}

func joinMatch(parts []string, sep string) (string, bool) {
	switch len(parts) {
	case 0:
		return "", false
	case 1:
		return parts[0], true
	}
	return "(" + strings.Join(parts, sep) + ")", true
}

// trigramMatch is the phrase of the term's value in its fields: its
// trigrams in a row, which is a substring in the folded text.
func (n *textNode) trigramMatch() (string, bool) {
	if n.mode != modeSubstring || !trigramValue(n.value) {
		return "", false
	}
	names := make([]string, 0, len(n.fields))
	for _, f := range n.fields {
		if !indexed(f) {
			return "", false
		}
		names = append(names, textFieldNames[f])
	}
	phrase := `"` + strings.ReplaceAll(n.value, `"`, `""`) + `"`
	return "{" + strings.Join(names, " ") + "} : " + phrase, true
}

// trigramValue reports whether a trigram index can look value up: at
// least three characters, printable ASCII (no plural separator, nothing
// folded otherwise).
func trigramValue(v string) bool {
	if utf8.RuneCountInString(v) < minTrigramValue {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < 0x20 || v[i] >= 0x7f {
			return false
		}
	}
	return true
}
