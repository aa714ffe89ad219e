package store

import (
	"strings"

	"github.com/tmsproject/tms/services/translation/search"
)

// PostgreSQL looks a search's terms up in the copies of the units' text
// (migration 0025) as sets of units: a source or context term selects
// pairs of source_text, and the units that refer to them from an index
// (unit_text_source) without reading a copy; a target term selects
// copies by their target. Counting a word in 70,000 of 1M units takes 60
// ms this way; testing a copy per unit took 220.

// copyScope is what a search's sets of units are drawn from.
type copyScope struct {
	// copies is a condition on the copy ut: of the translation searched,
	// not hidden, not queued.
	copies cond
	// queued, when not empty, is the condition on ut that copies
	// negates: the unit is queued (its copy is missing or out of date).
	queued cond
	// same, when not empty, is a condition evaluated once that holds when
	// some copy in scope has its target as its source: false, it spares a
	// target term looking its value up among the sources (every unit of
	// a source-language translation is such a copy, few others are).
	same cond
}

// scopeOf is the scope of the copies copies selects, of one translation
// (0: all, where the source language's copies are).
func scopeOf(copies cond, translationID int64) copyScope {
	sc := copyScope{copies: copies}
	if translationID != 0 {
		sc.same = cond{"EXISTS (SELECT 1 FROM unit_text x WHERE x.target_is_source AND x.translation_id = ?)", []any{translationID}}
	}
	return sc
}

// fromPairs and fromCopies begin a statement selecting units by their
// copies, with their pair or alone.
const (
	fromPairs  = "SELECT ut.unit_id FROM source_text st JOIN unit_text ut ON ut.source_text_id = st.id WHERE "
	fromCopies = "SELECT ut.unit_id FROM unit_text ut WHERE "
	likeEsc    = ` ILIKE ? ESCAPE '\'`
)

// units renders t as a parenthesized set expression of the ids of the
// units in scope whose copies match it.
func (sc copyScope) units(t search.TextTree) cond { return sc.unitsWhere(t, cond{}) }

// unitsWhere is units of the units whose pair also holds pairs (a
// condition on st; empty: none). Under AND, the terms only of source and
// context narrow the pairs the others are looked up with, instead of
// each selecting its own units: source:backup AND target:restore looks
// restore up among the targets of backup's pairs, not 70,000 units of
// backup against 12,000 of restore.
func (sc copyScope) unitsWhere(t search.TextTree, pairs cond) cond {
	if t.Term != nil {
		return sc.termUnits(*t.Term, pairs)
	}
	if !t.And {
		return sc.join(t.Kids, pairs, " UNION ")
	}
	var others []search.TextTree
	for _, k := range t.Kids {
		if k.Term != nil && !k.Term.Target {
			pairs = andCond(pairs, pairMatch(*k.Term))
		} else {
			others = append(others, k)
		}
	}
	if len(others) == 0 {
		return sc.part(fromPairs, pairs)
	}
	return sc.join(others, pairs, " INTERSECT ")
}

func (sc copyScope) join(kids []search.TextTree, pairs cond, op string) cond {
	parts := make([]cond, len(kids))
	for i, k := range kids {
		parts[i] = sc.unitsWhere(k, pairs)
	}
	return joinSets(parts, op)
}

// joinSets joins parenthesized set expressions with op, parenthesized.
func joinSets(parts []cond, op string) cond {
	if len(parts) == 1 {
		return parts[0]
	}
	sqls := make([]string, len(parts))
	var args []any
	for i, p := range parts {
		sqls[i], args = p.sql, append(args, p.args...)
	}
	return cond{"(" + strings.Join(sqls, op) + ")", args}
}

// termUnits is the units of one term, in disjoint parts (no unit is
// counted twice): those whose pair matches the term's source or context
// fields; apart from them, those whose copied target does; and, when the
// term tests the target and not the source, the copies whose target is
// their source (not copied again) and whose source does.
func (sc copyScope) termUnits(t search.TextTerm, pairs cond) cond {
	matched, parts := sc.termParts(t, pairs)
	if matched.sql != "" {
		parts = append(parts, sc.part(fromPairs, matched))
	}
	return joinSets(parts, " UNION ALL ")
}

// termParts is termUnits' parts: the condition on the pairs whose units
// match the term as a whole (empty: none), and the other parts.
func (sc copyScope) termParts(t search.TextTerm, pairs cond) (matched cond, parts []cond) {
	match := pairMatch(t)
	if match.sql != "" {
		matched = andCond(match, pairs)
	}
	if t.Target {
		apart := pairs
		if match.sql != "" {
			apart = andCond(cond{"NOT " + match.sql, match.args}, pairs)
		}
		from := fromPairs
		if apart.sql == "" {
			from = fromCopies
		}
		target := cond{"ut.target" + likeEsc + " AND NOT ut.target_is_source", []any{t.Pattern}}
		parts = append(parts, sc.part(from, andCond(target, apart)))
		if !t.Source {
			same := cond{"st.source" + likeEsc + " AND ut.target_is_source", []any{t.Pattern}}
			parts = append(parts, sc.part(fromPairs, andCond(andCond(same, apart), sc.same)))
		}
	}
	return matched, parts
}

// part is a parenthesized statement, from fromPairs or fromCopies,
// selecting the units in scope whose copies hold c.
func (sc copyScope) part(from string, c cond) cond {
	c = andCond(c, sc.copies)
	return cond{"(" + from + c.sql + ")", c.args}
}

// pairMatch is a term's test of the pair st: its value in the source or
// the context, as the term's fields say; empty for a term of the target
// alone.
func pairMatch(t search.TextTerm) cond {
	var c cond
	for _, f := range []struct {
		on  bool
		col string
	}{{t.Source, "st.source"}, {t.Context, "st.context"}} {
		if !f.on {
			continue
		}
		if c.sql != "" {
			c.sql += " OR "
		}
		c.sql += f.col + likeEsc
		c.args = append(c.args, t.Pattern)
	}
	if c.sql != "" {
		c.sql = "(" + c.sql + ")"
	}
	return c
}

// andCond is a AND b, either of which may be empty.
func andCond(a, b cond) cond {
	switch {
	case b.sql == "":
		return a
	case a.sql == "":
		return b
	}
	return cond{a.sql + " AND " + b.sql, append(append([]any{}, a.args...), b.args...)}
}
