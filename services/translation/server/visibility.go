package server

import (
	"context"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/services/translation/store"
)

// hidden lists the projects the caller of ctx may not see, for the store
// to leave out of lists, counts and sums.
func (s *Server) hidden(ctx context.Context) (store.Hidden, error) {
	if s.cfg.Projects == nil {
		return nil, nil
	}
	h, err := s.cfg.Projects.Hidden(ctx)
	return store.Hidden(h), err
}

// mustSee answers NotFound unless the caller of ctx may see the project:
// what it may not see does not exist for it.
func (s *Server) mustSee(ctx context.Context, projectSlug string) error {
	if s.cfg.Projects == nil {
		return nil
	}
	ok, err := s.cfg.Projects.Visible(ctx, projectSlug)
	if err != nil {
		return err
	}
	if !ok {
		return errs.NotFoundf("Not found.")
	}
	return nil
}

// mayManageStrings tells whether the caller of ctx may add and delete the
// strings of a translation: superusers (the REST routes that add and
// delete units admit them only) and the services' own work.
func mayManageStrings(ctx context.Context) bool {
	c, ok := policy.FromContext(ctx)
	return !ok || c.Superuser
}
