package server

import (
	"context"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// ListRemovedComponents lists the deleted components whose removal the
// translation service has not taken yet (store.Removals), for the
// services to leave out of their reads. A caller acting for a user other
// than a superuser is refused before anything is read.
func (s *Server) ListRemovedComponents(ctx context.Context, _ *catalogv1.ListRemovedComponentsRequest) (*catalogv1.ListRemovedComponentsResponse, error) {
	if _, restricted := policy.Restricted(ctx); restricted {
		return nil, errs.New(errs.PermissionDenied, "%s", errNoPermission)
	}
	ids, err := s.st.RemovedComponents(ctx)
	if err != nil {
		return nil, storeErr(err, nil)
	}
	return &catalogv1.ListRemovedComponentsResponse{ComponentIds: ids}, nil
}
