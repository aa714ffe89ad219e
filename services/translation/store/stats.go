package store

import (
	"context"
	"slices"
	"time"

	"gorm.io/gorm"

	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// Scope selects translations for statistics: a component, a list of
// components, or a language across all components (when LanguageCode is
// set without components).
type Scope struct {
	ComponentIDs []int64
	LanguageCode string
	Hidden       Hidden
}

func (sc Scope) apply(q *gorm.DB) *gorm.DB {
	q = sc.Hidden.translations(q)
	if len(sc.ComponentIDs) > 0 {
		q = q.Where("component_id IN ?", sc.ComponentIDs)
	}
	if sc.LanguageCode != "" {
		q = q.Where("language_code = ?", sc.LanguageCode)
	}
	return q
}

// Summary is the statistics of a scope: summed counters plus activity.
type Summary struct {
	LanguageCode  string
	Stats         Stats
	LastChange    *time.Time
	LastAuthor    string
	RecentChanges int64
}

const sumColumns = `COALESCE(SUM(total),0) AS total, COALESCE(SUM(total_words),0) AS total_words,
COALESCE(SUM(total_chars),0) AS total_chars, COALESCE(SUM(translated),0) AS translated,
COALESCE(SUM(translated_words),0) AS translated_words, COALESCE(SUM(translated_chars),0) AS translated_chars,
COALESCE(SUM(fuzzy),0) AS fuzzy, COALESCE(SUM(fuzzy_words),0) AS fuzzy_words, COALESCE(SUM(fuzzy_chars),0) AS fuzzy_chars,
COALESCE(SUM(approved),0) AS approved, COALESCE(SUM(approved_words),0) AS approved_words,
COALESCE(SUM(approved_chars),0) AS approved_chars, COALESCE(SUM(readonly),0) AS readonly,
COALESCE(SUM(readonly_words),0) AS readonly_words, COALESCE(SUM(readonly_chars),0) AS readonly_chars,
COALESCE(SUM(failing),0) AS failing, COALESCE(SUM(suggestions),0) AS suggestions, COALESCE(SUM(comments),0) AS comments,
COALESCE(SUM(failing_words),0) AS failing_words, COALESCE(SUM(failing_chars),0) AS failing_chars`

// Statistics sums the translation rows of a scope. An empty scope (no
// components, no language) yields zeros rather than the whole database.
func (s *Store) Statistics(ctx context.Context, sc Scope) (Summary, error) {
	rows, err := s.groupStats(ctx, sc, false)
	if err != nil || len(rows) == 0 {
		return Summary{LanguageCode: sc.LanguageCode}, err
	}
	rows[0].LanguageCode = sc.LanguageCode
	return rows[0], nil
}

// LanguageStatistics returns one summary per language over the components,
// ordered by language code.
func (s *Store) LanguageStatistics(ctx context.Context, componentIDs []int64, hidden Hidden) ([]Summary, error) {
	if len(componentIDs) == 0 {
		return nil, nil
	}
	return s.groupStats(ctx, Scope{ComponentIDs: componentIDs, Hidden: hidden}, true)
}

func (s *Store) groupStats(ctx context.Context, sc Scope, byLanguage bool) ([]Summary, error) {
	if len(sc.ComponentIDs) == 0 && sc.LanguageCode == "" {
		return nil, nil
	}
	type row struct {
		LanguageCode string
		Stats        `gorm:"embedded"`
	}
	q := sc.apply(s.q(ctx).Model(&Translation{}))
	var rows []row
	if byLanguage {
		q = q.Select("language_code, " + sumColumns).Group("language_code").Order("language_code")
	} else {
		q = q.Select(sumColumns)
	}
	if err := q.Scan(&rows).Error; err != nil {
		return nil, err
	}
	act, err := s.activity(ctx, sc, byLanguage)
	if err != nil {
		return nil, err
	}
	out := make([]Summary, len(rows))
	for i, r := range rows {
		out[i] = Summary{LanguageCode: r.LanguageCode, Stats: r.Stats}
		key := ""
		if byLanguage {
			key = r.LanguageCode
		}
		if a, ok := act[key]; ok {
			out[i].LastChange, out[i].LastAuthor, out[i].RecentChanges = a.LastChange, a.LastAuthor, a.RecentChanges
		}
	}
	return out, nil
}

// activity finds, per group, the latest change, its author and the count of
// content changes in the window before it. It reads translation rows and the
// small content_changes table only.
func (s *Store) activity(ctx context.Context, sc Scope, byLanguage bool) (map[string]Summary, error) {
	var ts []Translation
	err := sc.apply(s.q(ctx).Model(&Translation{})).Select("id", "language_code", "last_change", "last_author").
		Where("last_change IS NOT NULL").Find(&ts).Error
	if err != nil {
		return nil, err
	}
	out := map[string]Summary{}
	group := map[int64]string{}
	var ids []int64
	for _, t := range ts {
		key := ""
		if byLanguage {
			key = t.LanguageCode
		}
		group[t.ID] = key
		ids = append(ids, t.ID)
		cur := out[key]
		if cur.LastChange == nil || t.LastChange.After(*cur.LastChange) ||
			(t.LastChange.Equal(*cur.LastChange) && cur.LastAuthor == "") {
			cur.LastChange, cur.LastAuthor = t.LastChange, t.LastAuthor
		}
		out[key] = cur
	}
	for start := 0; start < len(ids); start += batchRows {
		var cs []contentChange
		chunk := ids[start:min(start+batchRows, len(ids))]
		if err := s.q(ctx).Where("translation_id IN ?", chunk).Find(&cs).Error; err != nil {
			return nil, err
		}
		for _, c := range cs {
			cur := out[group[c.TranslationID]]
			if !c.At.Before(cur.LastChange.Add(-recentWindow)) {
				cur.RecentChanges++
				out[group[c.TranslationID]] = cur
			}
		}
	}
	return out, nil
}

// DeleteTranslation removes a translation and its units, recording the
// given changes and flagging the working copy for commit.
func (s *Store) DeleteTranslation(ctx context.Context, id int64, changes ...*changelogv1.Change) error {
	return s.q(ctx).Transaction(func(tx *gorm.DB) error {
		var t Translation
		if err := notFound(tx.Where("id = ?", id).Take(&t).Error, "translation"); err != nil {
			return err
		}
		copies, err := copiesOfTranslations(tx, []Translation{t})
		if err != nil {
			return err
		}
		if err := tx.Where("translation_id = ?", id).Delete(&Unit{}).Error; err != nil {
			return err
		}
		if err := tx.Delete(&Translation{}, id).Error; err != nil {
			return err
		}
		if err := copies.reconcile(); err != nil {
			return err
		}
		if err := setNeedsCommit(tx, t.ComponentID); err != nil {
			return err
		}
		return record(tx, now(), changes...)
	})
}

// LanguageCodes lists the language codes of a component's translations.
func (s *Store) LanguageCodes(ctx context.Context, componentID int64) ([]string, error) {
	var codes []string
	err := s.q(ctx).Model(&Translation{}).Where("component_id = ?", componentID).Pluck("language_code", &codes).Error
	slices.Sort(codes)
	return codes, err
}
