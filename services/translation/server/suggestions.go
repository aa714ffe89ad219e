package server

import (
	"context"
	"fmt"
	"slices"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

var (
	errSuggestionsOff = errs.New(errs.PermissionDenied, "Suggestions are turned off in the component configuration.")
	errVotingOff      = errs.New(errs.PermissionDenied, "Suggestion voting is turned off in the component configuration.")
)

func readOnly(u store.Unit, t store.Translation) bool {
	return u.State == weblate.StateReadOnly || (t.IsSource && !t.IsTemplate)
}

// CreateSuggestion proposes a target for a unit; a caller acting for a
// user needs suggestion.add on the unit's translation.
func (s *Server) CreateSuggestion(ctx context.Context, req *translationv1.CreateSuggestionRequest) (*translationv1.CreateSuggestionResponse, error) {
	u, err := s.cfg.Store.GetUnit(ctx, req.GetUnitId())
	if err != nil {
		return nil, err
	}
	comp, err := s.component(ctx, u.Translation.ComponentID)
	if err != nil {
		return nil, err
	}
	if err = s.require(ctx, "suggestion.add", comp, u.Translation.LanguageCode); err != nil {
		return nil, err
	}
	switch {
	case comp.GetLocked():
		return nil, errLocked
	case !comp.GetEnableSuggestions():
		return nil, errSuggestionsOff
	case readOnly(u.Unit, u.Translation):
		return nil, errReadOnly
	}
	target := req.GetTarget()
	if len(target) != pluralForms(u) {
		return nil, errs.Invalid("target", "invalid", "Number of plurals does not match")
	}
	if !slices.ContainsFunc(target, nonEmpty) {
		return nil, errs.Invalid("target", "blank", "This field may not be blank.")
	}
	v, err := s.cfg.Store.AddSuggestion(ctx, u.ID, store.Join(target), req.GetActor())
	if err != nil {
		return nil, err
	}
	s.cfg.Notify()
	return &translationv1.CreateSuggestionResponse{Suggestion: suggestionProto(v)}, nil
}

// pluralForms is the number of target forms a unit takes.
func pluralForms(u store.UnitView) int {
	if len(store.Split(u.Source)) > 1 {
		return max(u.Translation.PluralNumber, 1)
	}
	return 1
}

// suggestionComponent loads a suggestion and its component for a caller
// who may see it and holds perm on its translation (or, when own, wrote
// it), refusing changes on a locked component.
func (s *Server) suggestionComponent(ctx context.Context, id int64, perm string, own bool) (*catalogv1.Component, error) {
	v, err := s.cfg.Store.GetSuggestion(ctx, id)
	if err != nil {
		return nil, err
	}
	comp, err := s.component(ctx, v.Translation.ComponentID)
	if err != nil {
		return nil, err
	}
	author := ""
	if own {
		author = v.UserName
	}
	if err = s.requireOwn(ctx, perm, v.Translation, author); err != nil {
		return nil, err
	}
	if comp.GetLocked() {
		return nil, errLocked
	}
	return comp, nil
}

// AcceptSuggestion makes a suggestion the unit's translation; a caller
// acting for a user needs suggestion.accept.
func (s *Server) AcceptSuggestion(ctx context.Context, req *translationv1.AcceptSuggestionRequest) (*translationv1.AcceptSuggestionResponse, error) {
	comp, err := s.suggestionComponent(ctx, req.GetId(), "suggestion.accept", false)
	if err != nil {
		return nil, err
	}
	u, err := s.accept(ctx, comp, req.GetId(), req.GetActor())
	if err != nil {
		return nil, err
	}
	return &translationv1.AcceptSuggestionResponse{Unit: s.withLabels(ctx, unitProto(u))}, nil
}

// accept accepts suggestion id of comp; the quality checks of the result
// read comp's flags and enforce its enforced checks, as an edit's do.
func (s *Server) accept(ctx context.Context, comp *catalogv1.Component, id int64, actor string) (store.UnitView, error) {
	rules, err := s.checkRules(ctx, comp)
	if err != nil {
		return store.UnitView{}, err
	}
	u, err := s.cfg.Store.AcceptSuggestion(ctx, id, actor, rules, s.propagation(ctx, actor, false), func(v store.SuggestionView) error {
		if readOnly(v.Unit, v.Translation) {
			return errReadOnly
		}
		return nil
	})
	if err != nil {
		return u, err
	}
	s.cfg.Notify()
	return u, nil
}

// DeleteSuggestion rejects a suggestion: its author may, and a caller
// holding suggestion.delete.
func (s *Server) DeleteSuggestion(ctx context.Context, req *translationv1.DeleteSuggestionRequest) (*translationv1.DeleteSuggestionResponse, error) {
	if _, err := s.suggestionComponent(ctx, req.GetId(), "suggestion.delete", true); err != nil {
		return nil, err
	}
	if err := s.cfg.Store.DeleteSuggestion(ctx, req.GetId(), req.GetActor(), req.GetRejectionReason()); err != nil {
		return nil, err
	}
	s.cfg.Notify()
	return &translationv1.DeleteSuggestionResponse{}, nil
}

// VoteSuggestion records a vote where the component has voting on and
// accepts the suggestion once its votes reach suggestion_autoaccept; a
// caller acting for a user needs suggestion.vote.
func (s *Server) VoteSuggestion(ctx context.Context, req *translationv1.VoteSuggestionRequest) (*translationv1.VoteSuggestionResponse, error) {
	comp, err := s.suggestionComponent(ctx, req.GetId(), "suggestion.vote", false)
	if err != nil {
		return nil, err
	}
	if !comp.GetSuggestionVoting() {
		return nil, errVotingOff
	}
	if req.GetValue() != 1 && req.GetValue() != -1 {
		return nil, errs.Invalid("value", "invalid_choice", fmt.Sprintf("\"%d\" is not a valid choice.", req.GetValue()))
	}
	v, err := s.cfg.Store.VoteSuggestion(ctx, req.GetId(), req.GetActor(), int64(req.GetValue()))
	if err != nil {
		return nil, err
	}
	accepted := false
	if n := comp.GetSuggestionAutoaccept(); n > 0 && v.Votes >= int64(n) {
		if _, err := s.accept(ctx, comp, v.ID, req.GetActor()); err != nil {
			return nil, err
		}
		accepted = true
	}
	return &translationv1.VoteSuggestionResponse{Suggestion: suggestionProto(v), Accepted: accepted}, nil
}

// ListSuggestions pages the suggestions of a unit (0: all) by id.
func (s *Server) ListSuggestions(ctx context.Context, req *translationv1.ListSuggestionsRequest) (*translationv1.ListSuggestionsResponse, error) {
	if req.GetUnitId() != 0 {
		if _, err := s.visibleUnit(ctx, req.GetUnitId()); err != nil {
			return nil, err
		}
	}
	pg, err := listPage(req)
	if err != nil {
		return nil, err
	}
	hidden, err := s.hidden(ctx)
	if err != nil {
		return nil, err
	}
	list, total, err := s.cfg.Store.ListSuggestions(ctx, req.GetUnitId(), pg.Offset, pg.Limit, hidden)
	if err != nil {
		return nil, err
	}
	out := &translationv1.ListSuggestionsResponse{Total: total, NextPageToken: pg.Next(total)}
	for _, v := range list {
		out.Suggestions = append(out.Suggestions, suggestionProto(v))
	}
	return out, nil
}

// GetSuggestion loads one suggestion.
func (s *Server) GetSuggestion(ctx context.Context, req *translationv1.GetSuggestionRequest) (*translationv1.GetSuggestionResponse, error) {
	v, err := s.cfg.Store.GetSuggestion(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	if err := s.mustSeeTranslation(ctx, v.Translation); err != nil {
		return nil, err
	}
	return &translationv1.GetSuggestionResponse{Suggestion: suggestionProto(v)}, nil
}

func suggestionProto(v store.SuggestionView) *translationv1.Suggestion {
	return &translationv1.Suggestion{Id: v.ID, UnitId: v.UnitID, Target: store.Split(v.Target), User: v.UserName,
		Timestamp: timestamppb.New(v.CreatedAt), Votes: v.Votes, ProjectSlug: v.Translation.ProjectSlug,
		ComponentSlug: v.Translation.ComponentSlug, LanguageCode: v.Translation.LanguageCode}
}
