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
	t, ok := textTree(q.root, func(n *textNode) bool { return n.lookedUp() && printableASCII(n.value) })
	if !ok {
		return "", false
	}
	return t.ftsMatch(), true
}

// TextTerm is one substring term of a query, for a trigram index to look
// up: the fields it tests and its value as a LIKE pattern (escaped with
// a backslash), to be tested with ILIKE, which folds as the search does.
type TextTerm struct {
	Source, Target, Context bool
	Pattern                 string
}

// TextTree is the part of a query a trigram index answers, for
// PostgreSQL, which looks it up as sets of units: a term, or terms joined
// by AND or OR (Kids). Every unit matching the query matches the tree;
// the units it selects, tested again with the query's condition, are
// exactly the query's, whatever the value's alphabet, for its terms are
// the search's own tests (ILIKE).
type TextTree struct {
	Term *TextTerm // a term; else Kids, joined by AND (And) or OR
	And  bool
	Kids []TextTree
	node *textNode // the term's
}

// TrigramTree is q's TextTree. ok is false where TrigramMatch's is, but
// for terms of other alphabets and with control characters, which ILIKE
// folds as the search does.
func (q *Query) TrigramTree() (TextTree, bool) { return textTree(q.root, (*textNode).lookedUp) }

// textTree is the part of n a trigram index answers, of the terms leaf
// accepts.
func textTree(n node, leaf func(*textNode) bool) (TextTree, bool) {
	var kids []TextTree
	switch n := n.(type) {
	case *textNode:
		if !leaf(n) {
			return TextTree{}, false
		}
		t := n.textTerm()
		return TextTree{Term: &t, node: n}, true
	case *andNode:
		for _, x := range n.xs {
			if k, ok := textTree(x, leaf); ok { // AND: a term left out only widens
				kids = append(kids, k)
			}
		}
		return joinTree(kids, true)
	case *orNode:
		for _, x := range n.xs {
			k, ok := textTree(x, leaf)
			if !ok { // OR: one term the index cannot answer, and all units may match
				return TextTree{}, false
			}
			kids = append(kids, k)
		}
		return joinTree(kids, false)
	}
	return TextTree{}, false
}

func joinTree(kids []TextTree, and bool) (TextTree, bool) {
	switch len(kids) {
	case 0:
		return TextTree{}, false
	case 1:
		return kids[0], true
	}
	return TextTree{And: and, Kids: kids}, true
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

// TrigramTreeExact reports whether TrigramTree decides q alone: q is only
// substring terms the index answers, under AND and OR. Its terms are the
// search's own tests on a copy of the text, so no unit is an exception.
func (q *Query) TrigramTreeExact() bool {
	return exactTree(q.root, (*textNode).lookedUp)
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

// ftsMatch renders t as an FTS5 MATCH expression: each term the phrase
// of its value in its fields (its trigrams in a row, which is a
// substring in the folded text), joined by AND and OR.
func (t TextTree) ftsMatch() string {
	if t.node != nil {
		names := make([]string, len(t.node.fields))
		for i, f := range t.node.fields {
			names[i] = textFieldNames[f]
		}
		return "{" + strings.Join(names, " ") + "} : " + `"` + strings.ReplaceAll(t.node.value, `"`, `""`) + `"`
	}
	parts := make([]string, len(t.Kids))
	for i, k := range t.Kids {
		parts[i] = k.ftsMatch()
	}
	op := " OR "
	if t.And {
		op = " AND "
	}
	return "(" + strings.Join(parts, op) + ")"
}

// textTerm is the term for a trigram index to look up.
func (n *textNode) textTerm() TextTerm {
	t := TextTerm{Pattern: likePattern(n.value)}
	for _, f := range n.fields {
		switch f {
		case fieldSource:
			t.Source = true
		case fieldTarget:
			t.Target = true
		case fieldContext:
			t.Context = true
		}
	}
	return t
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
