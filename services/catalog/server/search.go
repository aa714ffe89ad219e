package server

import (
	"context"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// searchLimits are the results per kind: Weblate's search answers five.
const (
	searchDefault = 5
	searchMax     = 100
)

// Search finds projects, categories, components and languages by name
// among what the caller may see (the site-wide search).
func (s *Server) Search(ctx context.Context, req *catalogv1.SearchRequest) (*catalogv1.SearchResponse, error) {
	limit := int(req.GetLimit())
	switch {
	case limit < 0 || limit > searchMax:
		return nil, errs.Invalid("limit", "invalid", "Ensure this value is between 0 and 100.")
	case limit == 0:
		limit = searchDefault
	}
	found, err := s.st.Search(ctx, req.GetText(), limit, viewer(ctx))
	if err != nil {
		return nil, storeErr(err, nil)
	}
	out := &catalogv1.SearchResponse{}
	for i := range found.Projects {
		out.Projects = append(out.Projects, projectProto(&found.Projects[i]))
	}
	for i := range found.Categories {
		out.Categories = append(out.Categories, categoryProto(&found.Categories[i]))
	}
	for i := range found.Components {
		out.Components = append(out.Components, shown(ctx, componentProto(&found.Components[i])))
	}
	for i := range found.Languages {
		out.Languages = append(out.Languages, languageProto(&found.Languages[i]))
	}
	return out, nil
}
