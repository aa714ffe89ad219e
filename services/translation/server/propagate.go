package server

import (
	"context"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// propagation decides, for an edit by actor, the edit of each copy of
// the string in the project's other components that take propagated
// translations (Weblate's propagate): the caller may edit the copy
// (unit.edit in its component and language; unit.review for an approved
// one where the project reviews), and the edit's own rules hold there
// (not read-only, component not locked). A copy it may not edit is left
// as it is. canReview is the fallback for a caller without a policy, as
// for the edit itself. The copy records "Propagated change".
func (s *Server) propagation(ctx context.Context, actor string, canReview bool) func(store.UnitView, string, int) (store.Edit, bool) {
	type scope struct {
		comp    *catalogv1.Component
		project *catalogv1.Project
		err     error
	}
	scopes := map[int64]scope{}
	return func(cp store.UnitView, target string, state int) (store.Edit, bool) {
		sc, ok := scopes[cp.Translation.ComponentID]
		if !ok {
			sc.comp, sc.err = s.component(ctx, cp.Translation.ComponentID)
			if sc.err == nil {
				sc.project, sc.err = s.project(ctx, sc.comp)
			}
			scopes[cp.Translation.ComponentID] = sc
		}
		if sc.err != nil {
			return store.Edit{}, false
		}
		lang := cp.Translation.LanguageCode
		if may, err := s.may(ctx, "unit.edit", sc.comp, lang, true); err != nil || !may {
			return store.Edit{}, false
		}
		review, err := s.may(ctx, "unit.review", sc.comp, lang, canReview)
		if err != nil || checkEdit(cp, sc.comp, sc.project, store.Split(target), state, review) != nil {
			return store.Edit{}, false
		}
		c := editChange(cp, state, actor, target)
		c.Action = typev1.ChangeAction_CHANGE_ACTION_PROPAGATED_EDIT
		return store.Edit{Target: target, State: state, Author: actor, Checks: projectCheckRules(sc.project, sc.comp),
			Changes: []*changelogv1.Change{c}}, true
	}
}
