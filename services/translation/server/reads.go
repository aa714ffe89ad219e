package server

import (
	"context"
	"slices"
	"strings"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/resname"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/search"
	"github.com/tmsproject/tms/services/translation/store"
)

// ListTranslations pages translations by id.
func (s *Server) ListTranslations(ctx context.Context, req *translationv1.ListTranslationsRequest) (*translationv1.ListTranslationsResponse, error) {
	pg, err := listPage(req)
	if err != nil {
		return nil, err
	}
	hidden, err := s.hidden(ctx)
	if err != nil {
		return nil, err
	}
	components := req.GetComponentIds()
	if id := req.GetComponentId(); id != 0 {
		components = append([]int64{id}, components...)
	}
	ts, total, err := s.cfg.Store.ListTranslations(ctx, components, pg.Offset, pg.Limit, hidden)
	if err != nil {
		return nil, err
	}
	out := &translationv1.ListTranslationsResponse{Total: total, NextPageToken: pg.Next(total)}
	for _, t := range ts {
		out.Translations = append(out.Translations, translationProto(t))
		s.nameAuthors(ctx, out.Translations[len(out.Translations)-1].GetStats())
	}
	return out, nil
}

// GetTranslation finds a translation by component and language, or by
// resource name.
func (s *Server) GetTranslation(ctx context.Context, req *translationv1.GetTranslationRequest) (*translationv1.GetTranslationResponse, error) {
	componentID, code, err := s.requestedTranslation(ctx, req)
	if err != nil {
		return nil, err
	}
	t, err := s.cfg.Store.GetTranslation(ctx, componentID, code)
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

// requestedTranslation is the component id and language code a
// GetTranslation request names. A name's slugs are the catalog's: it
// resolves them (a component the caller may not see is NotFound, before
// any comparison with the ids sent beside the name).
func (s *Server) requestedTranslation(ctx context.Context, req *translationv1.GetTranslationRequest) (int64, string, error) {
	if req.GetName() == "" {
		return req.GetComponentId(), req.GetLanguageCode(), nil
	}
	project, component, language, err := resname.ParseTranslation(req.GetName())
	if err != nil {
		return 0, "", err
	}
	code, err := resname.Agree("language_code", req.GetLanguageCode(), language)
	if err != nil {
		return 0, "", err
	}
	comp, err := s.cfg.Store.CatalogComponentBySlugs(ctx, project, component)
	if err != nil {
		return 0, "", err
	}
	if err = s.mustSee(ctx, project); err != nil {
		return 0, "", err
	}
	id, err := resname.Agree("component_id", req.GetComponentId(), comp.GetId())
	return id, code, err
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

// GetMetrics counts what the caller may see.
func (s *Server) GetMetrics(ctx context.Context, _ *translationv1.GetMetricsRequest) (*translationv1.GetMetricsResponse, error) {
	hidden, err := s.hidden(ctx)
	if err != nil {
		return nil, err
	}
	m, err := s.cfg.Store.Metrics(ctx, hidden)
	if err != nil {
		return nil, err
	}
	return &translationv1.GetMetricsResponse{Translations: m.Translations, Units: m.Units,
		UnitsTranslated: m.UnitsTranslated, Checks: m.Checks, Suggestions: m.Suggestions}, nil
}

// ListLanguageCodes lists the languages with a translation the caller may
// see (Weblate's Language.objects.have_translation, within visibility).
func (s *Server) ListLanguageCodes(ctx context.Context, _ *translationv1.ListLanguageCodesRequest) (*translationv1.ListLanguageCodesResponse, error) {
	hidden, err := s.hidden(ctx)
	if err != nil {
		return nil, err
	}
	codes, err := s.cfg.Store.VisibleLanguageCodes(ctx, hidden)
	if err != nil {
		return nil, err
	}
	return &translationv1.ListLanguageCodesResponse{Codes: codes}, nil
}

// ListUnits pages units by id, filtered by the search expression when one
// is given (a bad expression is a validation error on "q").
func (s *Server) ListUnits(ctx context.Context, req *translationv1.ListUnitsRequest) (*translationv1.ListUnitsResponse, error) {
	var units []store.UnitView
	var total int64
	pg, err := listPage(req)
	if err != nil {
		return nil, err
	}
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
	offset, limit := pg.Offset, pg.Limit
	switch {
	case strings.TrimSpace(req.GetQuery()) != "":
		q, perr := search.Parse(req.GetQuery())
		if perr != nil {
			return nil, errs.Invalid("q", "invalid", perr.Error())
		}
		units, total, err = s.cfg.Store.SearchUnits(ctx, t.ID, q, offset, limit, hidden)
	case t.ID != 0: // the translation read above serves the page
		units, total, err = s.cfg.Store.UnitsOf(ctx, t, offset, limit)
	default:
		units, total, err = s.cfg.Store.ListUnits(ctx, 0, offset, limit, hidden)
	}
	if err != nil {
		return nil, err
	}
	out := &translationv1.ListUnitsResponse{Total: total, NextPageToken: pg.Next(total),
		Units: make([]*translationv1.Unit, 0, len(units))}
	var labelled []*translationv1.Unit
	for _, u := range units {
		out.Units = append(out.Units, unitProto(u))
		if u.Labelled {
			labelled = append(labelled, out.Units[len(out.Units)-1])
		}
	}
	if len(labelled) > 0 {
		s.withLabels(ctx, labelled...)
	}
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

// GetUnit loads one unit by id or resource name.
func (s *Server) GetUnit(ctx context.Context, req *translationv1.GetUnitRequest) (*translationv1.GetUnitResponse, error) {
	id := req.GetId()
	if req.GetName() != "" {
		fromName, err := resname.ParseUnit(req.GetName())
		if err != nil {
			return nil, err
		}
		if id, err = resname.Agree("id", id, fromName); err != nil {
			return nil, err
		}
	}
	u, err := s.visibleUnit(ctx, id)
	if err != nil {
		return nil, err
	}
	return &translationv1.GetUnitResponse{Unit: s.withLabels(ctx, unitProto(u))}, nil
}
