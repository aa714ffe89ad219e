package store

import (
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/textstat"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

const actionSourceChanged = typev1.ChangeAction_CHANGE_ACTION_SOURCE_CHANGE

// sourceText is what a source string counts as once its text is text:
// words and characters of the source language, and the content hash.
type sourceText struct {
	text        string
	words       int64
	chars       int64
	contentHash int64
}

// editsSource reports whether an edit of u in t to target changes a
// monolingual source string, which the other translations then follow.
// Bilingual components (no template) never get here beyond this test.
func editsSource(t Translation, u Unit, target string) bool {
	return t.IsSource && t.IsTemplate && target != u.Target
}

// newSourceText counts text as a source string of key context in the
// source language code.
func newSourceText(text, context, code string) sourceText {
	forms := Split(text)
	return sourceText{
		text:        text,
		words:       int64(textstat.Words(forms, textstat.IsCJK(code))),
		chars:       int64(textstat.Chars(forms)),
		contentHash: textstat.ContentHash(forms, context),
	}
}

// setSource writes the source columns of the edited source unit u.
func setSource(tx *gorm.DB, u *Unit, st sourceText) error {
	u.Source, u.NumWords, u.NumChars, u.ContentHash = st.text, st.words, st.chars, st.contentHash
	return tx.Exec(`UPDATE units SET source = ?, num_words = ?, num_chars = ?, content_hash = ? WHERE id = ?`,
		u.Source, u.NumWords, u.NumChars, u.ContentHash, u.ID).Error
}

// propagateSource carries the edit of source unit src, whose text was old,
// to the units of the same key in the other translations, as Weblate's
// Unit.update_source_units: each gets the new source and counts; a
// translated one needs editing (read-only stays so) and keeps old as
// previous_source; a fuzzy one whose previous_source is the new text is
// reverted to translated. Every unit gets a "Source string changed"
// record, and each translation's counters move by its units' difference.
func (s *Store) propagateSource(tx *gorm.DB, src Unit, old, author string, at time.Time) ([]*changelogv1.Change, error) {
	var units []Unit
	if err := s.forUpdate(tx).Where("source_unit_id = ? AND id <> ?", src.ID, src.ID).Order("id").Find(&units).Error; err != nil {
		return nil, err
	}
	if len(units) == 0 {
		return nil, nil
	}
	deltas := map[int64]*Stats{}
	var changes []*changelogv1.Change
	for i := range units {
		u := &units[i]
		oldState := u.State
		d := deltas[u.TranslationID]
		if d == nil {
			d = &Stats{}
			deltas[u.TranslationID] = d
		}
		d.Count(u.State, u.NumWords, u.NumChars, -1)
		followSource(u, src, old)
		d.Count(u.State, u.NumWords, u.NumChars, 1)
		u.LastUpdated = at
		err := tx.Exec(`UPDATE units SET source = ?, num_words = ?, num_chars = ?, content_hash = ?, state = ?,
			previous_source = ?, pending = ?, last_updated = ? WHERE id = ?`,
			u.Source, u.NumWords, u.NumChars, u.ContentHash, u.State, u.PreviousSource, u.Pending, at, u.ID).Error
		if err != nil {
			return nil, err
		}
		changes = append(changes, &changelogv1.Change{Action: actionSourceChanged, UnitId: u.ID,
			User: author, Author: author, Old: old, Target: src.Source,
			Details: UnitDetails(u.State, oldState, *u)})
	}
	if err := labelChanges(tx, deltas, units, changes); err != nil {
		return nil, err
	}
	for id, d := range deltas {
		if err := moveCountersOnly(tx, id, *d, nil); err != nil {
			return nil, err
		}
	}
	return changes, nil
}

// followSource applies the new text of source unit src (old before) to u,
// a unit of the same key in another translation.
func followSource(u *Unit, src Unit, old string) {
	u.Source, u.NumWords, u.NumChars, u.ContentHash = src.Source, src.NumWords, src.NumChars, src.ContentHash
	switch {
	case u.State == weblate.StateFuzzy && u.PreviousSource == src.Source && u.Target != "":
		u.State, u.PreviousSource, u.Pending = weblate.StateTranslated, "", true // the change was reverted
	case u.State >= weblate.StateTranslated && u.Target != "":
		if u.State < weblate.StateReadOnly {
			u.State, u.Pending = weblate.StateFuzzy, true
		}
		u.PreviousSource = old
	}
}

// labelChanges fills in where each change happened (changes[i] is of
// units[i]): the project, component and language of its translation.
func labelChanges(tx *gorm.DB, deltas map[int64]*Stats, units []Unit, changes []*changelogv1.Change) error {
	ids := make([]int64, 0, len(deltas))
	for id := range deltas {
		ids = append(ids, id)
	}
	var ts []Translation
	if err := tx.Select("id", "project_slug", "component_slug", "language_code").Where("id IN ?", ids).Find(&ts).Error; err != nil {
		return err
	}
	byID := map[int64]Translation{}
	for _, t := range ts {
		byID[t.ID] = t
	}
	for i, c := range changes {
		t := byID[units[i].TranslationID]
		c.ProjectSlug, c.ComponentSlug, c.LanguageCode = t.ProjectSlug, t.ComponentSlug, t.LanguageCode
	}
	return nil
}

// followTemplate applies to u, a re-imported unit of a monolingual
// translation, a change of its template source since prev was stored, as
// Weblate's Unit.update_from_unit: with the same target, a translated unit
// whose source changed needs editing and keeps the stored source as
// previous_source, unless the change reverts the one prev is fuzzy for.
// A fuzzy unit keeps its previous_source when the file has none.
func followTemplate(prev, u *Unit) {
	if u.State == weblate.StateReadOnly || u.Target != prev.Target {
		return
	}
	switch {
	case u.Source != prev.Source && (u.State == weblate.StateTranslated || u.State == weblate.StateApproved):
		if prev.State == weblate.StateFuzzy && prev.PreviousSource == u.Source {
			u.State, u.PreviousSource = weblate.StateTranslated, ""
		} else {
			if u.PreviousSource == "" {
				u.PreviousSource = prev.Source
			}
			u.State = weblate.StateFuzzy
		}
	case prev.State == weblate.StateFuzzy && u.State == weblate.StateFuzzy && u.PreviousSource == "":
		u.PreviousSource = prev.PreviousSource
	}
}
