package server

import (
	"context"
	"errors"
	"slices"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// Change actions recorded by unit edits (COMPAT.md §7).
const (
	actionChanged   = typev1.ChangeAction_CHANGE_ACTION_CHANGE
	actionAdded     = typev1.ChangeAction_CHANGE_ACTION_NEW
	actionRemoved   = typev1.ChangeAction_CHANGE_ACTION_REMOVE_TRANSLATION
	actionApproved  = typev1.ChangeAction_CHANGE_ACTION_APPROVE
	actionMarked    = typev1.ChangeAction_CHANGE_ACTION_MARKED_EDIT
	actionLangAdded = typev1.ChangeAction_CHANGE_ACTION_ADDED_LANGUAGE
)

// UpdateUnit sets a unit's target and state following Weblate's API rules,
// in the order Weblate checks them.
func (s *Server) UpdateUnit(ctx context.Context, req *translationv1.UpdateUnitRequest) (*translationv1.UpdateUnitResponse, error) {
	if req.GetSetExtraFlags() || req.GetSetExplanation() {
		v, err := s.updateSourceProps(ctx, req)
		if err != nil || (req.GetLabelsOnly() && !req.GetSetLabels()) {
			return v, err
		}
	}
	if req.GetSetLabels() || req.GetLabelsOnly() {
		return s.updateUnitLabels(ctx, req)
	}
	cur, comp, err := s.unitAllowed(ctx, req.GetId(), "unit.edit", "You do not have permission to edit this string.")
	if err != nil {
		return nil, err
	}
	v, err := s.editUnit(ctx, comp, cur.LanguageCode, cur.State, req)
	if err != nil {
		return nil, err
	}
	u := unitProto(v)
	if v.Labelled { // the edit's read of the unit tells: most have none
		s.withLabels(ctx, u)
	}
	return &translationv1.UpdateUnitResponse{Unit: u}, nil
}

// unitAllowed reads the scope and component of unit id: NotFound when
// the caller may not see it, PermissionDenied (reason) without perm on its
// translation.
func (s *Server) unitAllowed(ctx context.Context, id int64, perm, reason string) (store.UnitScope, *catalogv1.Component, error) {
	cur, err := s.cfg.Store.GetUnitScope(ctx, id)
	if err != nil {
		return cur, nil, err
	}
	comp, err := s.component(ctx, cur.ComponentID)
	if err != nil {
		return cur, nil, err
	}
	ok, err := s.may(ctx, perm, comp, cur.LanguageCode, true)
	if err != nil || !ok {
		return cur, nil, orDenied(err, reason)
	}
	return cur, comp, nil
}

// unitAndComponent reads unit id and its component: NotFound when the
// caller may not see it.
func (s *Server) unitAndComponent(ctx context.Context, id int64) (store.UnitView, *catalogv1.Component, error) {
	cur, err := s.cfg.Store.GetUnit(ctx, id)
	if err != nil {
		return cur, nil, err
	}
	comp, err := s.component(ctx, cur.Translation.ComponentID)
	return cur, comp, err
}

// updateUnitLabels is UpdateUnit of a request that sets labels, alone or
// with an edit.
func (s *Server) updateUnitLabels(ctx context.Context, req *translationv1.UpdateUnitRequest) (*translationv1.UpdateUnitResponse, error) {
	cur, comp, err := s.unitAndComponent(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	lang := cur.Translation.LanguageCode
	ok, err := s.may(ctx, "unit.edit", comp, lang, true)
	if err != nil || !ok {
		return nil, orDenied(err, "You do not have permission to edit this string.")
	}
	if err = s.checkLabels(ctx, comp, cur, req.GetLabelIds()); err != nil {
		return nil, err
	}
	if req.GetLabelsOnly() {
		return s.setLabels(ctx, cur, req)
	}
	v, err := s.editUnit(ctx, comp, lang, cur.State, req)
	if err != nil {
		return nil, err
	}
	return s.setLabels(ctx, v, req)
}

// editUnit applies the target and state of req to the unit under lock
// (COMPAT.md §5); state is the unit's before, for the project lookup that
// approvals need.
func (s *Server) editUnit(ctx context.Context, comp *catalogv1.Component, lang string, state int, req *translationv1.UpdateUnitRequest) (store.UnitView, error) {
	canReview, err := s.may(ctx, "unit.review", comp, lang, req.GetActorCanReview())
	if err != nil {
		return store.UnitView{}, err
	}
	want, err := storedState(req.GetState())
	if err != nil {
		return store.UnitView{}, err
	}
	project, err := s.project(ctx, comp) // for approvals and check flags
	if err != nil {
		return store.UnitView{}, err
	}
	rules := projectCheckRules(project, comp)
	if want != weblate.StateApproved && state != weblate.StateApproved {
		project = nil // approvals need not be looked at
	}
	changed := true
	v, err := s.cfg.Store.EditUnit(ctx, req.GetId(), func(u store.UnitView) (store.Edit, error) {
		if u.State == weblate.StateApproved && project == nil { // approved meanwhile
			return store.Edit{}, errs.New(errs.FailedPrecondition, "The string was approved meanwhile; try again.")
		}
		if cerr := checkEdit(u, comp, project, req.GetTarget(), want, canReview); cerr != nil {
			return store.Edit{}, cerr
		}
		target := store.Join(req.GetTarget())
		if target == u.Target && want == u.State {
			changed = false
			return store.Edit{}, errUnchanged
		}
		return store.Edit{Target: target, State: want, Author: req.GetActor(), Checks: rules,
			Changes:   []*changelogv1.Change{editChange(u, want, req.GetActor(), target)},
			Propagate: s.propagation(ctx, req.GetActor(), req.GetActorCanReview())}, nil
	})
	if errors.Is(err, errUnchanged) && !changed {
		return s.cfg.Store.GetUnit(ctx, req.GetId())
	}
	if err != nil {
		return store.UnitView{}, err
	}
	s.cfg.Notify()
	return v, nil
}

// errUnchanged aborts the transaction of an edit that changes nothing;
// Weblate records nothing then.
var errUnchanged = errs.New(errs.Internal, "unchanged")

// checkEdit applies COMPAT.md §5 to the locked current unit.
func checkEdit(u store.UnitView, comp *catalogv1.Component, project *catalogv1.Project, target []string, state int, canReview bool) error {
	if len(target) != pluralForms(u) {
		return errs.Invalid("target", "invalid", "Number of plurals does not match")
	}
	if readOnly(u.Unit, u.Translation) {
		return errReadOnly
	}
	if !editableState(state) {
		return errs.Invalid("state", "invalid", "Invalid state")
	}
	filled := slices.ContainsFunc(target, nonEmpty)
	if state == weblate.StateEmpty && filled {
		return errs.Invalid("state", "invalid", "Can not use empty state with non empty target")
	}
	if state != weblate.StateEmpty && !filled {
		return errs.Invalid("state", "invalid", "Can not use non empty state with empty target")
	}
	if comp.GetLocked() {
		return errs.New(errs.PermissionDenied, "The component is locked.")
	}
	review := project != nil && project.GetTranslationReview()
	if u.State == weblate.StateApproved && review && !canReview {
		return errs.New(errs.PermissionDenied, "Insufficient privileges for editing approved strings.")
	}
	if state == weblate.StateApproved {
		if !review {
			return errs.Invalid("state", "invalid", "Translation reviews are turned off.")
		}
		if !canReview {
			// Visible but not allowed: 403 with the reason (COMPAT.md §4).
			return errs.New(errs.PermissionDenied, "Insufficient privileges for approving translations.")
		}
	}
	return nil
}

// editAction picks the change action of an edit (COMPAT.md §7).
func editAction(oldState, newState int) typev1.ChangeAction {
	switch {
	case newState == weblate.StateFuzzy:
		return actionMarked
	case newState == weblate.StateApproved:
		return actionApproved
	case oldState >= weblate.StateFuzzy:
		return actionChanged
	default:
		return actionAdded
	}
}

// editableState reports a state an edit may set (COMPAT.md §6): not
// read-only.
func editableState(state int) bool {
	return slices.Contains([]int{weblate.StateEmpty, weblate.StateFuzzy, weblate.StateTranslated, weblate.StateApproved}, state)
}

// editChange is the record of actor's edit of u to target in state.
func editChange(u store.UnitView, state int, actor, target string) *changelogv1.Change {
	return &changelogv1.Change{
		Action: editAction(u.State, state), ProjectSlug: u.Translation.ProjectSlug,
		ComponentSlug: u.Translation.ComponentSlug, LanguageCode: u.Translation.LanguageCode,
		UnitId: u.ID, User: actor, Author: actor,
		Target: target, Old: u.Target, Details: store.UnitDetails(state, u.State, u.Unit),
	}
}
