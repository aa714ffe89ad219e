package store

import (
	"cmp"
	"context"
	"slices"
	"strings"

	"golang.org/x/sync/errgroup"
	"gorm.io/gorm/clause"

	"github.com/tmsproject/tms/services/translation/tm"
)

// MemoryQuery is a lookup in the memory: the languages, the entries the
// caller may see (Filter's Restricted, Seen and Project), and how alike a
// match must be.
type MemoryQuery struct {
	Filter MemoryFilter
	// Exact answers exact matches only.
	Exact bool
	// Threshold is the lowest similarity answered, 1 to 100.
	Threshold int
}

// MemoryMatch is a string's best match: Found false when none reached the
// threshold.
type MemoryMatch struct {
	Entry   MemoryEntry
	Quality int
	Found   bool
}

// Lookup limits: the nearest candidates scored per string (the
// reference's MEMORY_LOOKUP_LIMIT), the rarest trigrams SQLite looks them
// up by, and the lookups run at once.
const (
	memoryCandidates = 50
	memoryGrams      = 12
	memoryParallel   = 4
)

// LookupMemory answers the best match of each text: an exact one first
// (the oldest entry with that very source), else the candidate nearest by
// trigrams whose similarity (tm.Similarity) is highest and reaches the
// threshold, ties to the oldest entry.
func (s *Store) LookupMemory(ctx context.Context, q MemoryQuery, texts []string) ([]MemoryMatch, error) {
	out := make([]MemoryMatch, len(texts))
	if err := s.exactMatches(ctx, q.Filter, texts, out); err != nil {
		return nil, err
	}
	if q.Exact || q.Threshold > 100 {
		return out, nil
	}
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(memoryParallel)
	for i, text := range texts {
		if out[i].Found {
			continue
		}
		g.Go(func() error {
			cands, err := s.memoryCandidates(gctx, q.Filter, text)
			if err != nil {
				return err
			}
			out[i] = bestMatch(text, cands, q.Threshold)
			return nil
		})
	}
	return out, g.Wait()
}

// exactMatches fills out with the entries whose source is the text.
func (s *Store) exactMatches(ctx context.Context, f MemoryFilter, texts []string, out []MemoryMatch) error {
	hashes := make([]int64, len(texts))
	for i, t := range texts {
		hashes[i] = SourceHash(t)
	}
	var found []MemoryEntry
	err := f.apply(s.q(ctx), s.postgres).Where("source_hash IN ?", hashes).Order("id").Find(&found).Error
	if err != nil {
		return err
	}
	first := map[string]MemoryEntry{}
	for _, e := range found {
		if _, ok := first[e.Source]; !ok {
			first[e.Source] = e
		}
	}
	for i, t := range texts {
		if e, ok := first[t]; ok {
			out[i] = MemoryMatch{Entry: e, Quality: 100, Found: true}
		}
	}
	return nil
}

// bestMatch scores the candidates against text.
func bestMatch(text string, cands []MemoryEntry, threshold int) MemoryMatch {
	slices.SortFunc(cands, func(a, b MemoryEntry) int { return cmp.Compare(a.ID, b.ID) })
	var best MemoryMatch
	for _, c := range cands {
		if q := tm.Similarity(text, c.Source); q >= threshold && q > best.Quality {
			best = MemoryMatch{Entry: c, Quality: q, Found: true}
		}
	}
	return best
}

// memoryCandidates answers the entries f selects nearest to text by
// trigrams, at most memoryCandidates: on PostgreSQL by pg_trgm's distance
// through its GiST index, on SQLite those holding most of the text's
// rarest trigrams through the FTS5 trigram index.
func (s *Store) memoryCandidates(ctx context.Context, f MemoryFilter, text string) ([]MemoryEntry, error) {
	var out []MemoryEntry
	if s.postgres {
		op, err := s.trigramOperator(ctx)
		if err != nil {
			return nil, err
		}
		// gorm's Order drops an expression's arguments: the clause is built here.
		nearest := clause.OrderBy{Expression: clause.Expr{SQL: "source " + op + " ?", Vars: []any{text}, WithoutParentheses: true}}
		err = f.apply(s.q(ctx), true).Clauses(nearest).Limit(memoryCandidates).Find(&out).Error
		return out, err
	}
	match, err := s.rareTrigrams(ctx, text)
	if err != nil || match == "" {
		return nil, err
	}
	q := s.q(ctx).Table("memory_fts").Select("memory.*").
		Joins("JOIN memory ON memory.id = memory_fts.rowid").
		Where("memory_fts MATCH ?", match)
	err = f.apply(q, false).Order("memory_fts.rank").Limit(memoryCandidates).Find(&out).Error
	return out, err
}

// rareTrigrams is an FTS5 query for the entries holding any of text's
// memoryGrams rarest trigrams (those no entry holds left out), "" when no
// entry holds any.
func (s *Store) rareTrigrams(ctx context.Context, text string) (string, error) {
	grams := tm.Trigrams(text)
	if len(grams) == 0 {
		return "", nil
	}
	var counts []struct {
		Term string
		Doc  int64
	}
	err := s.q(ctx).Raw("SELECT term, doc FROM memory_fts_terms WHERE term IN ?", grams).Scan(&counts).Error
	if err != nil {
		return "", err
	}
	slices.SortFunc(counts, func(a, b struct {
		Term string
		Doc  int64
	}) int {
		return cmp.Or(cmp.Compare(a.Doc, b.Doc), cmp.Compare(a.Term, b.Term))
	})
	var terms []string
	for _, c := range counts[:min(len(counts), memoryGrams)] {
		terms = append(terms, `"`+strings.ReplaceAll(c.Term, `"`, `""`)+`"`)
	}
	return strings.Join(terms, " OR "), nil
}

// trigramOperator is pg_trgm's distance operator, named with the schema
// the extension lives in (which need not be on the search path).
func (s *Store) trigramOperator(ctx context.Context) (string, error) {
	t := s.trgm
	t.once.Do(func() {
		var schema string
		t.err = s.q(ctx).Raw(`SELECT n.nspname FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace
			WHERE e.extname = 'pg_trgm'`).Scan(&schema).Error
		t.op = `OPERATOR("` + schema + `".<->)`
	})
	return t.op, t.err
}
