package store

import (
	"maps"
	"slices"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// translationSuggestions loads the suggestions of a translation's units,
// by id, before an import changes or removes those units.
func translationSuggestions(tx *gorm.DB, translationID int64) ([]Suggestion, error) {
	var list []Suggestion
	err := tx.Where("unit_id IN (?)", tx.Model(&Unit{}).Select("id").Where("translation_id = ?", translationID)).
		Order("id").Find(&list).Error
	return list, err
}

// cleanupImported is the suggestion cleanup after a repository update, as
// Weblate's cleanup_suggestions task does it for the translation: a
// suggestion equal to the target of its translated unit is obsolete, and
// one whose unit the file no longer has has nothing left to suggest for.
// Each goes with a "Suggestion removed during cleanup" record (the unit
// detached when it is gone), recorded after the string changes of the
// update, and the surviving units' has_suggestion follows; the
// translation's counter is recounted by the caller. suggestions are those
// of the translation before the import.
func cleanupImported(tx *gorm.DB, t Translation, suggestions []Suggestion) error {
	if len(suggestions) == 0 {
		return nil
	}
	units, err := unitsOf(tx, suggestions)
	if err != nil {
		return err
	}
	var gone []Suggestion
	touched := map[int64]bool{}
	for _, sg := range suggestions {
		u, kept := units[sg.UnitID]
		if kept && !(u.State >= weblate.StateTranslated && u.Target == sg.Target) {
			continue
		}
		gone = append(gone, sg)
		touched[sg.UnitID] = kept
	}
	changes, err := dropSuggestions(tx, gone, t, units)
	if err != nil {
		return err
	}
	for _, id := range slices.Sorted(maps.Keys(touched)) { // one row order for every writer
		if u := units[id]; touched[id] {
			if _, err := refreshUnitFlags(tx, &u); err != nil {
				return err
			}
		}
	}
	return record(tx, now(), changes...)
}

// unitsOf loads the units the suggestions belong to that still exist.
func unitsOf(tx *gorm.DB, suggestions []Suggestion) (map[int64]Unit, error) {
	seen := map[int64]bool{}
	var ids []int64
	for _, sg := range suggestions {
		if !seen[sg.UnitID] {
			seen[sg.UnitID] = true
			ids = append(ids, sg.UnitID)
		}
	}
	out := make(map[int64]Unit, len(ids))
	for start := 0; start < len(ids); start += batchRows {
		var units []Unit
		if err := tx.Where("id IN ?", ids[start:min(start+batchRows, len(ids))]).Find(&units).Error; err != nil {
			return nil, err
		}
		for _, u := range units {
			out[u.ID] = u
		}
	}
	return out, nil
}

// dropSuggestions deletes suggestions (their votes go with them) and
// returns one "Suggestion removed during cleanup" record each, credited to
// the anonymous user as the edit cleanup is. A suggestion whose unit is
// not in units (removed) gets a record without a unit: no record links to
// a unit that answers 404. The caller refreshes the flags.
func dropSuggestions(tx *gorm.DB, gone []Suggestion, t Translation, units map[int64]Unit) ([]*changelogv1.Change, error) {
	ids := make([]int64, len(gone))
	changes := make([]*changelogv1.Change, len(gone))
	for i, sg := range gone {
		ids[i] = sg.ID
		c := unitChange(ActionSuggestionCleanup, units[sg.UnitID], t, "", AnonymousUser)
		c.Target = sg.Target
		changes[i] = c
	}
	for start := 0; start < len(ids); start += batchRows {
		if err := tx.Where("id IN ?", ids[start:min(start+batchRows, len(ids))]).Delete(&Suggestion{}).Error; err != nil {
			return nil, err
		}
	}
	return changes, nil
}
