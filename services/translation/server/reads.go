package server

import (
	"context"
	"slices"
	"strings"

	"github.com/tmsproject/tms/pkg/errs"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/search"
	"github.com/tmsproject/tms/services/translation/store"
)

// ListTranslations pages translations by id.
func (s *Server) ListTranslations(ctx context.Context, req *translationv1.ListTranslationsRequest) (*translationv1.ListTranslationsResponse, error) {
	hidden, err := s.hidden(ctx)
	if err != nil {
		return nil, err
	}
	ts, total, err := s.cfg.Store.ListTranslations(ctx, req.GetComponentId(), max(req.GetOffset(), 0), req.GetLimit(), hidden)
	if err != nil {
		return nil, err
	}
	out := &translationv1.ListTranslationsResponse{Total: total}
	for _, t := range ts {
		out.Translations = append(out.Translations, translationProto(t))
		s.nameAuthors(ctx, out.Translations[len(out.Translations)-1].GetStats())
	}
	return out, nil
}

// GetTranslation finds a translation by component and language.
func (s *Server) GetTranslation(ctx context.Context, req *translationv1.GetTranslationRequest) (*translationv1.GetTranslationResponse, error) {
	t, err := s.cfg.Store.GetTranslation(ctx, req.GetComponentId(), req.GetLanguageCode())
	if err != nil {
		return nil, err
	}
	if err := s.mustSeeTranslation(ctx, t); err != nil {
		return nil, err
	}
	out := translationProto(t)
	s.nameAuthors(ctx, out.GetStats())
	return &translationv1.GetTranslationResponse{Translation: out}, nil
}

// GetStatistics sums translation rows over a component, a list of
// components or a language (component and language together: one
// translation).
func (s *Server) GetStatistics(ctx context.Context, req *translationv1.GetStatisticsRequest) (*translationv1.GetStatisticsResponse, error) {
	hidden, err := s.hidden(ctx)
	if err != nil {
		return nil, err
	}
	sc := store.Scope{ComponentIDs: req.GetProjectComponentIds(), LanguageCode: req.GetLanguageCode(), Hidden: hidden}
	if req.GetComponentId() != 0 {
		sc.ComponentIDs = []int64{req.GetComponentId()}
	}
	sum, err := s.cfg.Store.Statistics(ctx, sc)
	if err != nil {
		return nil, err
	}
	out := summaryProto(sum)
	s.nameAuthors(ctx, out)
	return &translationv1.GetStatisticsResponse{Stats: out}, nil
}

// ListLanguageStatistics returns one row per language over the components.
func (s *Server) ListLanguageStatistics(ctx context.Context, req *translationv1.ListLanguageStatisticsRequest) (*translationv1.ListLanguageStatisticsResponse, error) {
	hidden, err := s.hidden(ctx)
	if err != nil {
		return nil, err
	}
	rows, err := s.cfg.Store.LanguageStatistics(ctx, req.GetComponentIds(), hidden)
	if err != nil {
		return nil, err
	}
	out := &translationv1.ListLanguageStatisticsResponse{}
	for _, r := range rows {
		out.Stats = append(out.Stats, summaryProto(r))
	}
	s.nameAuthors(ctx, out.Stats...)
	return out, nil
}

// ListUnits pages units by id, filtered by the search expression when one
// is given (a bad expression is a validation error on "q").
func (s *Server) ListUnits(ctx context.Context, req *translationv1.ListUnitsRequest) (*translationv1.ListUnitsResponse, error) {
	var units []store.UnitView
	var total int64
	hidden, err := s.hidden(ctx)
	if err != nil {
		return nil, err
	}
	var t store.Translation
	if req.GetTranslationId() != 0 || req.GetComponentId() != 0 {
		if t, err = s.unitsTranslation(ctx, req); err != nil {
			return nil, err
		}
		if slices.Contains(hidden.Components, t.ComponentID) {
			return nil, errs.NotFoundf("Not found.")
		}
		if err = s.mustSee(ctx, t.ProjectSlug); err != nil {
			return nil, err
		}
	}
	offset := max(req.GetOffset(), 0)
	switch {
	case strings.TrimSpace(req.GetQuery()) != "":
		q, perr := search.Parse(req.GetQuery())
		if perr != nil {
			return nil, errs.Invalid("q", "invalid", perr.Error())
		}
		units, total, err = s.cfg.Store.SearchUnits(ctx, t.ID, q, offset, req.GetLimit(), hidden)
	case t.ID != 0: // the translation read above serves the page
		units, total, err = s.cfg.Store.UnitsOf(ctx, t, offset, req.GetLimit())
	default:
		units, total, err = s.cfg.Store.ListUnits(ctx, 0, offset, req.GetLimit(), hidden)
	}
	if err != nil {
		return nil, err
	}
	out := &translationv1.ListUnitsResponse{Total: total}
	for _, u := range units {
		out.Units = append(out.Units, unitProto(u))
	}
	s.withLabels(ctx, out.Units...)
	return out, nil
}

// unitsTranslation is the translation a ListUnits request names: by id,
// or by component and language.
func (s *Server) unitsTranslation(ctx context.Context, req *translationv1.ListUnitsRequest) (store.Translation, error) {
	if req.GetTranslationId() != 0 {
		return s.cfg.Store.GetTranslationByID(ctx, req.GetTranslationId())
	}
	return s.cfg.Store.GetTranslation(ctx, req.GetComponentId(), req.GetLanguageCode())
}

// FindUnit loads a translation's unit by id_hash.
func (s *Server) FindUnit(ctx context.Context, req *translationv1.FindUnitRequest) (*translationv1.FindUnitResponse, error) {
	u, err := s.cfg.Store.UnitByHash(ctx, req.GetTranslationId(), req.GetIdHash())
	if err != nil {
		return nil, err
	}
	if err := s.mustSeeTranslation(ctx, u.Translation); err != nil {
		return nil, err
	}
	return &translationv1.FindUnitResponse{Unit: s.withLabels(ctx, unitProto(u))}, nil
}

// GetUnit loads one unit.
func (s *Server) GetUnit(ctx context.Context, req *translationv1.GetUnitRequest) (*translationv1.GetUnitResponse, error) {
	u, err := s.visibleUnit(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return &translationv1.GetUnitResponse{Unit: s.withLabels(ctx, unitProto(u))}, nil
}
