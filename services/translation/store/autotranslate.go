package store

import (
	"context"
	"slices"

	"github.com/tmsproject/tms/pkg/weblate"
)

// SourceLanguage is the language code of a component's source strings,
// "" when it has no source translation yet.
func (s *Store) SourceLanguage(ctx context.Context, componentID int64) (string, error) {
	var codes []string
	err := s.q(ctx).Model(&Translation{}).Where("component_id = ? AND is_source = ?", componentID, true).
		Limit(1).Pluck("language_code", &codes).Error
	if err != nil || len(codes) == 0 {
		return "", err
	}
	return codes[0], nil
}

// TranslationsIn lists a project's translations into a language, by id.
func (s *Store) TranslationsIn(ctx context.Context, projectSlug, code string) ([]Translation, error) {
	var out []Translation
	err := s.q(ctx).Where("project_slug = ? AND language_code = ? AND NOT is_source", projectSlug, code).Order("id").Find(&out).Error
	return out, err
}

// inChunk bounds the values of one IN list.
const inChunk = 500

// TranslatedSources answers, for each of sources, the translation a unit
// with that very source has in the translations ts (translated, approved
// or read-only, not empty): the first in ts's order, then by unit id, as
// the reference's automatic translation takes them.
func (s *Store) TranslatedSources(ctx context.Context, ts []int64, sources []string) (map[string]string, error) {
	out := map[string]string{}
	rank := map[int64]int{}
	for i, id := range ts {
		rank[id] = i
	}
	type row struct {
		TranslationID int64
		ID            int64
		Source        string
		Target        string
	}
	var rows []row
	for start := 0; start < len(sources); start += inChunk {
		var part []row
		err := s.q(ctx).Model(&Unit{}).Select("translation_id, id, source, target").
			Where("translation_id IN ? AND source IN ? AND state >= ? AND target <> ''", ts,
				sources[start:min(start+inChunk, len(sources))], weblate.StateTranslated).Scan(&part).Error
		if err != nil {
			return nil, err
		}
		rows = append(rows, part...)
	}
	slices.SortFunc(rows, func(a, b row) int {
		if d := rank[a.TranslationID] - rank[b.TranslationID]; d != 0 {
			return d
		}
		return int(a.ID - b.ID)
	})
	for _, r := range rows {
		if _, ok := out[r.Source]; !ok {
			out[r.Source] = r.Target
		}
	}
	return out, nil
}

// UnitsByID loads units by id (those gone are left out), by id.
func (s *Store) UnitsByID(ctx context.Context, ids []int64) ([]Unit, error) {
	var out []Unit
	for start := 0; start < len(ids); start += inChunk {
		var part []Unit
		if err := s.q(ctx).Where("id IN ?", ids[start:min(start+inChunk, len(ids))]).Find(&part).Error; err != nil {
			return nil, err
		}
		out = append(out, part...)
	}
	slices.SortFunc(out, func(a, b Unit) int { return int(a.ID - b.ID) })
	return out, nil
}
