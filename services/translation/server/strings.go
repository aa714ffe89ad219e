package server

import (
	"context"
	"fmt"
	"slices"
	"unicode"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/textstat"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// Refusals shared by the string, suggestion and comment operations, in
// Weblate's words.
var (
	errLocked      = errs.New(errs.PermissionDenied, "This component is currently locked.")
	errReadOnly    = errs.New(errs.PermissionDenied, "The string is read-only.")
	errManageUnits = errs.New(errs.PermissionDenied, "Adding strings is disabled in the component configuration.")
	errSourceOnly  = errs.New(errs.PermissionDenied, "Add the string to the source language instead.")
)

// checkManageUnits is Weblate's check_manage_units plus the lock: strings
// are added and removed only where the component manages them. Monolingual
// components (with a template) take strings on the source only: they go
// into the template, and every translation gets them empty.
func checkManageUnits(comp *catalogv1.Component, t store.Translation) error {
	if comp.GetTemplate() != "" && !t.IsSource {
		return errSourceOnly
	}
	if !comp.GetManageUnits() {
		return errManageUnits
	}
	if comp.GetLocked() {
		return errLocked
	}
	return nil
}

// CreateUnit adds a string to every translation of a bilingual component
// (Weblate's add_unit with validate_new_unit_data's rules); a caller acting
// for a user needs unit.add on the translation.
func (s *Server) CreateUnit(ctx context.Context, req *translationv1.CreateUnitRequest) (*translationv1.CreateUnitResponse, error) {
	t, err := s.cfg.Store.GetTranslationByID(ctx, req.GetTranslationId())
	if err != nil {
		return nil, err
	}
	comp, err := s.component(ctx, t.ComponentID)
	if err != nil {
		return nil, err
	}
	if err = s.require(ctx, "unit.add", comp, t.LanguageCode); err != nil {
		return nil, err
	}
	v, err := s.createUnit(ctx, comp, t, req)
	if err != nil {
		return nil, err
	}
	s.cfg.Notify()
	return &translationv1.CreateUnitResponse{Unit: s.withLabels(ctx, unitProto(v))}, nil
}

// createUnit is CreateUnit once the translation and its component are
// loaded (an "add" upload creates many strings of one translation).
func (s *Server) createUnit(ctx context.Context, comp *catalogv1.Component, t store.Translation, req *translationv1.CreateUnitRequest) (store.UnitView, error) {
	if err := checkManageUnits(comp, t); err != nil {
		return store.UnitView{}, err
	}
	ns, err := s.newString(ctx, comp, t, req)
	if err != nil {
		return store.UnitView{}, err
	}
	rules, err := s.checkRules(ctx, comp)
	if err != nil {
		return store.UnitView{}, err
	}
	return s.cfg.Store.CreateUnit(ctx, ns, rules)
}

// newString validates a request and computes the string's hashes and counts.
func (s *Server) newString(ctx context.Context, comp *catalogv1.Component, t store.Translation, req *translationv1.CreateUnitRequest) (store.NewString, error) {
	source, target := req.GetSource(), req.GetTarget()
	mono := comp.GetTemplate() != ""
	var v errs.Violations
	switch {
	case mono && req.GetContext() == "":
		v.Add("key", "blank", "This field may not be blank.")
	case mono && len(source) == 0:
		v.Add("value", "required", "This field is required.")
	case mono:
	case len(source) == 0 || source[0] == "":
		v.Add("source", "blank", "This field may not be blank.")
	case len(source) > 2:
		v.Add("source", "invalid", "A PO string has at most two source forms (singular and plural).")
	}
	for _, text := range append(slices.Clone(source), req.GetContext()) {
		if i := slices.IndexFunc([]rune(text), isControl); i >= 0 {
			v.Add("non_field_errors", "invalid", fmt.Sprintf("String contains control character: %q", text))
			break
		}
	}
	forms := 1
	if len(source) > 1 {
		forms = max(t.PluralNumber, 1)
	}
	switch {
	case mono && t.IsSource: // the value is the source text
		target = source
	case len(target) == 0 || t.IsSource:
		target = make([]string, forms)
	case len(target) != forms:
		v.Add("target", "invalid", "Number of plurals does not match")
	}
	state, err := s.newState(ctx, comp, req.GetState(), slices.ContainsFunc(target, nonEmpty))
	if err != nil {
		return store.NewString{}, err
	}
	if err := v.Err(); err != nil {
		return store.NewString{}, err
	}
	cjk := textstat.IsCJK(comp.GetSourceLanguageCode())
	idHash := textstat.IDHash(source, req.GetContext())
	if mono { // Weblate hashes a monolingual unit's key alone
		idHash = textstat.Hash(req.GetContext())
	}
	return store.NewString{ComponentID: comp.GetId(), TranslationID: t.ID, Context: req.GetContext(),
		Source: source, Target: target, State: state,
		IDHash: idHash, ContentHash: textstat.ContentHash(source, req.GetContext()),
		NumWords: int64(textstat.Words(source, cjk)), NumChars: int64(textstat.Chars(source)), User: req.GetActor()}, nil
}

func nonEmpty(s string) bool { return s != "" }

// isControl matches Weblate's CONTROLCHARS: C0 controls but tab and newlines.
func isControl(r rune) bool {
	return unicode.IsControl(r) && r < 0x20 && r != '\t' && r != '\n' && r != '\r'
}

// newState follows add_unit: without a translation the string is empty
// whatever was asked; with one, "empty" means translated. Approval needs
// reviews on the project.
func (s *Server) newState(ctx context.Context, comp *catalogv1.Component, asked typev1.UnitState, translated bool) (int, error) {
	state := weblate.StateEmpty // unspecified
	if asked != typev1.UnitState_UNIT_STATE_UNSPECIFIED {
		n, ok := weblate.UnitStates.Ref(asked)
		if !ok {
			n = int32(asked) // named by its number, as the reference names a bad choice
		}
		if !ok || !editableState(int(n)) {
			return 0, errs.Invalid("state", "invalid_choice", fmt.Sprintf("\"%d\" is not a valid choice.", n))
		}
		state = int(n)
	}
	if state == weblate.StateApproved {
		project, err := s.project(ctx, comp)
		if err != nil {
			return 0, err
		}
		if !project.GetTranslationReview() {
			return 0, errs.Invalid("state", "invalid", "Approved state is not available as reviews are not enabled.")
		}
	}
	switch {
	case !translated:
		return weblate.StateEmpty, nil
	case state == weblate.StateEmpty:
		return weblate.StateTranslated, nil
	}
	return state, nil
}

// DeleteUnit removes a string from every translation of its component; a
// caller acting for a user needs unit.delete on the unit's translation.
func (s *Server) DeleteUnit(ctx context.Context, req *translationv1.DeleteUnitRequest) (*translationv1.DeleteUnitResponse, error) {
	u, err := s.cfg.Store.GetUnit(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	comp, err := s.component(ctx, u.Translation.ComponentID)
	if err != nil {
		return nil, err
	}
	if err = s.require(ctx, "unit.delete", comp, u.Translation.LanguageCode); err != nil {
		return nil, err
	}
	if err := checkManageUnits(comp, u.Translation); err != nil {
		return nil, err
	}
	if err := s.cfg.Store.DeleteUnit(ctx, u.ID, req.GetActor()); err != nil {
		return nil, err
	}
	s.cfg.Notify()
	return &translationv1.DeleteUnitResponse{}, nil
}

// ListUnitTranslations returns the other units of a unit's string.
func (s *Server) ListUnitTranslations(ctx context.Context, req *translationv1.ListUnitTranslationsRequest) (*translationv1.ListUnitTranslationsResponse, error) {
	if _, err := s.visibleUnit(ctx, req.GetId()); err != nil {
		return nil, err
	}
	units, err := s.cfg.Store.UnitTranslations(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	out := &translationv1.ListUnitTranslationsResponse{}
	for _, u := range units {
		out.Units = append(out.Units, unitProto(u))
	}
	s.withLabels(ctx, out.Units...)
	return out, nil
}
