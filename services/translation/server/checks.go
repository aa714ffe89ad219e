package server

import (
	"context"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// checkFlags are the flags the quality checks of comp's strings start
// from: its project's check_flags, then its own (Weblate's merge order;
// the file's and the strings' own follow).
func (s *Server) checkFlags(ctx context.Context, comp *catalogv1.Component) ([]string, error) {
	p, err := s.project(ctx, comp)
	if err != nil {
		return nil, err
	}
	return projectCheckFlags(p, comp), nil
}

func projectCheckFlags(p *catalogv1.Project, comp *catalogv1.Component) []string {
	return []string{p.GetCheckFlags(), comp.GetCheckFlags()}
}
