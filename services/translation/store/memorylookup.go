package store

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"

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

// Lookup limits: the candidates scored per string (the reference's
// MEMORY_LOOKUP_LIMIT), the words they are looked up by, and the lookups
// run at once.
const (
	memoryCandidates = 50
	memoryKeys       = 4
	memoryParallel   = 4
)

// LookupMemory answers the best match of each text: an exact one first
// (the oldest entry with that very source), else the candidate sharing
// its words whose similarity (tm.Similarity) is highest and reaches the
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
	var fuzzy []int
	for i, text := range texts {
		if out[i].Found {
			continue
		}
		fuzzy = append(fuzzy, i)
		g.Go(func() error {
			cands, err := s.memoryCandidates(gctx, q.Filter, text, q.Threshold)
			if err != nil {
				return err
			}
			out[i] = bestMatch(text, cands, q.Threshold)
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return nil, err
	}
	return out, s.fillMatches(ctx, out, fuzzy)
}

// fillMatches reads the whole entries of the fuzzy matches (out at the
// indexes fuzzy), which the candidates' query answered with their id and
// source only.
func (s *Store) fillMatches(ctx context.Context, out []MemoryMatch, fuzzy []int) error {
	var ids []int64
	for _, i := range fuzzy {
		if out[i].Found {
			ids = append(ids, out[i].Entry.ID)
		}
	}
	if len(ids) == 0 {
		return nil
	}
	var rows []MemoryEntry
	if err := s.q(ctx).Where("id IN ?", ids).Find(&rows).Error; err != nil {
		return err
	}
	byID := make(map[int64]MemoryEntry, len(rows))
	for _, r := range rows {
		byID[r.ID] = r
	}
	for _, i := range fuzzy {
		if e, ok := byID[out[i].Entry.ID]; ok && out[i].Found {
			out[i].Entry = e
		}
	}
	return nil
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

// memoryCandidates answers the id and source of entries f selects that
// share words with text, at most four times memoryCandidates: those holding a pair of its longest
// words (memoryKeys of them; any one of them when it has fewer than
// three), through the engine's word index (SQLite FTS5, ranked by bm25;
// a PostgreSQL GIN index of tsvectors). A near match keeps most of a
// string's words, so it holds such a pair; strings with few or no words
// (CJK scripts without spaces among them) find exact matches only.
func (s *Store) memoryCandidates(ctx context.Context, f MemoryFilter, text string, threshold int) ([]MemoryEntry, error) {
	keys := tm.KeyWords(text, memoryKeys)
	if len(keys) == 0 {
		return nil, nil
	}
	lo, hi := lengthWindow(utf8.RuneCountInString(text), threshold)
	groups := keyGroups(keys)
	var out []MemoryEntry
	if s.postgres {
		var terms []string
		var args []any
		for _, g := range groups {
			var and []string
			for _, w := range g {
				and = append(and, "plainto_tsquery('simple', ?)")
				args = append(args, w)
			}
			terms = append(terms, "("+strings.Join(and, " && ")+")")
		}
		where := "to_tsvector('simple', source) @@ (" + strings.Join(terms, " || ") + ")"
		err := f.apply(s.q(ctx).Model(&MemoryEntry{}).Select("id, source"), true).Where(where, args...).
			Where("length(source) BETWEEN ? AND ?", lo, hi).
			Limit(memoryCandidates).Find(&out).Error
		return out, err
	}
	var terms []string
	for _, g := range groups {
		var and []string
		for _, w := range g {
			and = append(and, `"`+w+`"`)
		}
		terms = append(terms, "("+strings.Join(and, " AND ")+")")
	}
	q := s.q(ctx).Table("memory_words").Select("memory.id, memory.source").
		Joins("JOIN memory ON memory.id = memory_words.rowid").
		Where("memory_words MATCH ?", strings.Join(terms, " OR ")).
		Where("length(memory.source) BETWEEN ? AND ?", lo, hi)
	err := f.apply(q, false).Limit(memoryCandidates).Find(&out).Error
	return out, err
}

// lengthWindow is the range of lengths (in characters) a string may have
// and still reach threshold against one of n characters: the similarity
// is at most 200·min/(n+m) for lengths n and m.
func lengthWindow(n, threshold int) (lo, hi int) {
	t := max(threshold, 1)
	return n * t / (200 - t), n * (200 - t) / t
}

// keyGroups are the word sets a candidate must hold one of: every pair
// of keys when there are three or more, else each key alone.
func keyGroups(keys []string) [][]string {
	if len(keys) < 3 {
		out := make([][]string, len(keys))
		for i, k := range keys {
			out[i] = []string{k}
		}
		return out
	}
	var out [][]string
	for i := range keys {
		for j := i + 1; j < len(keys); j++ {
			out = append(out, []string{keys[i], keys[j]})
		}
	}
	return out
}
