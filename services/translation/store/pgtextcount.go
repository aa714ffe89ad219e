package store

import "github.com/tmsproject/tms/services/translation/search"

// A search of every translation, with nothing hidden, counts the units
// of the pairs its terms match from the pairs' counts of copies
// (source_text.copies, migration 0026) instead of looking each unit up,
// and reads only the first of them in order for its page. Over 1M units,
// a word in 70,000 (11,700 pairs) was counted and paged in 55 ms by
// gathering the units of its pairs from unit_text_source; summed, it is
// counted in 27, and its first 50 are read in 5 from the copies in the
// order of their ids (those of a phrase in 300 units, which the planner
// looks up by pair, in 10; the first 1000 of the word's, in 33).

// countedPart is one of a search's disjoint parts, counted and listed
// apart.
type countedPart struct {
	count cond // a parenthesized scalar subquery: how many units
	ids   cond // a parenthesized statement selecting the units' ids
}

// maxFirst is the most ids of matches a counted search reads for its
// page (its offset and limit): a page further on is read from all the
// matches, in order, as it is without counts.
const maxFirst = 1000

// counted is t's parts when the units of its pairs can be counted from
// the pairs: t is one term, or an AND of terms of the source and context
// alone (one set of pairs). ok is false for any other t, and for a scope
// narrower than every copy not queued (sc.queued is set only then).
func (sc copyScope) counted(t search.TextTree) (parts []countedPart, ok bool) {
	if sc.queued.sql == "" {
		return nil, false
	}
	var matched cond
	var others []cond
	switch {
	case t.Term != nil:
		matched, others = sc.termParts(*t.Term, cond{})
	case t.And:
		for _, k := range t.Kids {
			if k.Term == nil || k.Term.Target {
				return nil, false
			}
			matched = andCond(matched, pairMatch(*k.Term))
		}
	default:
		return nil, false
	}
	if matched.sql != "" {
		parts = append(parts, sc.pairPart(matched))
	}
	for _, o := range others {
		parts = append(parts, countedPart{count: cond{"(SELECT COUNT(*) FROM " + o.sql + " AS o)", o.args}, ids: o})
	}
	return parts, true
}

// pairPart is the units whose pair (st) holds pairs, not queued: the sum
// of the pairs' copies less the queued units' copies among them, and
// their ids read from the copies (as many as the page needs, in order).
func (sc copyScope) pairPart(pairs cond) countedPart {
	queuedCopies := andCond(pairs, sc.queued)
	ids := andCond(cond{"EXISTS (SELECT 1 FROM source_text st WHERE st.id = ut.source_text_id AND " + pairs.sql + ")", pairs.args},
		sc.copies)
	return countedPart{
		count: cond{"((SELECT COALESCE(SUM(st.copies), 0) FROM source_text st WHERE " + pairs.sql + ")::bigint - " +
			"(SELECT COUNT(*) FROM source_text st JOIN unit_text ut ON ut.source_text_id = st.id WHERE " + queuedCopies.sql + "))",
			append(append([]any{}, pairs.args...), queuedCopies.args...)},
		ids: cond{"(" + fromCopies + ids.sql + ")", ids.args},
	}
}
