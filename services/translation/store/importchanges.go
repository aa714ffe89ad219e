package store

import (
	"cmp"
	"slices"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/changedetails"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// Change actions of a repository update (COMPAT.md §7).
const (
	actionStringUpdated = typev1.ChangeAction_CHANGE_ACTION_STRING_REPO_UPDATE
	actionStringAdded   = typev1.ChangeAction_CHANGE_ACTION_NEW_UNIT_REPO
)

// unitSnapshot indexes by id_hash the units of a translation before an
// import that records unit changes; nil when it does not.
func unitSnapshot(units []Unit, want bool) map[int64]Unit {
	if !want {
		return nil
	}
	out := make(map[int64]Unit, len(units))
	for _, u := range units {
		out[u.IDHash] = u
	}
	return out
}

// recordUnitChanges compares the units before an import with the file's
// and records what the repository added, changed and removed. Units with
// uncommitted edits keep their stored text, so they count as unchanged.
func recordUnitChanges(tx *gorm.DB, t Translation, before map[int64]Unit, ids map[int64]int64, spec ImportSpec) error {
	if !spec.UnitChanges {
		return nil
	}
	base := &changelogv1.Change{ProjectSlug: t.ProjectSlug, ComponentSlug: t.ComponentSlug, LanguageCode: t.LanguageCode}
	at := now()
	seen := map[int64]bool{}
	var changes []*changelogv1.Change
	for _, u := range spec.Units {
		if seen[u.IDHash] {
			continue
		}
		seen[u.IDHash] = true
		prev, ok := before[u.IDHash]
		switch {
		case !ok:
			changes = append(changes, repoUnitChange(base, actionStringAdded, ids[u.IDHash], u.Target, "",
				map[string]any{"state": u.State, "source": u.Source, "old_state": -1}))
		case prev.Pending:
		case prev.Target != u.Target || prev.State != u.State && !(prev.State == weblate.StateApproved && u.State == weblate.StateTranslated):
			changes = append(changes, repoUnitChange(base, actionStringUpdated, prev.ID, u.Target, prev.Target,
				map[string]any{"state": u.State, "source": u.Source, "old_state": prev.State}))
		}
	}
	var gone []Unit
	for hash, prev := range before {
		if !seen[hash] {
			gone = append(gone, prev)
		}
	}
	slices.SortFunc(gone, func(a, b Unit) int { return cmp.Compare(a.ID, b.ID) })
	for _, prev := range gone {
		// The unit id lets the changelog detach the removed unit from its
		// records; the stored record itself ends up without a unit.
		changes = append(changes, repoUnitChange(base, ActionStringRemove, prev.ID, prev.Target, "",
			map[string]any{"source": prev.Source, "target": prev.Target}))
	}
	return record(tx, at, changes...)
}

func repoUnitChange(base *changelogv1.Change, action typev1.ChangeAction, unitID int64, target, old string, details map[string]any) *changelogv1.Change {
	return &changelogv1.Change{Action: action, ProjectSlug: base.ProjectSlug, ComponentSlug: base.ComponentSlug,
		LanguageCode: base.LanguageCode, UnitId: unitID, Target: target, Old: old, Details: changedetails.FromMap(details)}
}
