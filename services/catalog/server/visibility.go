package server

import (
	"context"

	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/services/catalog/store"
)

// viewer is what the caller of ctx may see (policy.CanView): everything
// for superusers and the services' own calls, else public and protected
// projects only.
func viewer(ctx context.Context) store.Viewer {
	_, restricted := policy.Restricted(ctx)
	return store.Viewer{All: !restricted}
}

// visibleProject fails with NotFound unless the caller may see the
// project: what it may not see does not exist for it, writes included.
func (s *Server) visibleProject(ctx context.Context, slug string) error {
	p, err := s.st.GetProject(ctx, slug)
	if err != nil {
		return storeErr(err, nil)
	}
	if !viewer(ctx).Sees(p.AccessControl) {
		return notFound()
	}
	return nil
}
