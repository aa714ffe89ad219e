package server

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	"github.com/tmsproject/tms/services/catalog/store"
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

// GetProjectAccess answers the access level of every project and its
// version (a hash of them), or only that they are unchanged since
// known_version. A caller acting for a user other than a superuser is
// refused before anything is read.
func (s *Server) GetProjectAccess(ctx context.Context, req *catalogv1.GetProjectAccessRequest) (*catalogv1.GetProjectAccessResponse, error) {
	if _, restricted := policy.Restricted(ctx); restricted {
		return nil, errs.New(errs.PermissionDenied, "%s", errNoPermission)
	}
	levels, err := s.st.ProjectAccess(ctx)
	if err != nil {
		return nil, storeErr(err, nil)
	}
	version := accessVersion(levels)
	if version == req.GetKnownVersion() {
		return &catalogv1.GetProjectAccessResponse{Version: version, Unchanged: true}, nil
	}
	out := &catalogv1.GetProjectAccessResponse{Version: version, Projects: make([]*catalogv1.ProjectAccess, len(levels))}
	for i, l := range levels {
		out.Projects[i] = &catalogv1.ProjectAccess{Slug: l.Slug, AccessControl: weblate.AccessControls.EnumOf(l.AccessControl),
			UseSharedTm: l.UseSharedTM, ContributeSharedTm: l.ContributeSharedTM}
	}
	return out, nil
}

// accessVersion hashes the levels (sorted by slug): equal levels give the
// same version on every replica, and any change gives another. The hash
// is cryptographic because whoever may create projects chooses slugs: a
// collision would keep a project visible after it was made private.
func accessVersion(levels []store.ProjectLevel) string {
	h := sha256.New()
	for _, l := range levels {
		_, _ = fmt.Fprintf(h, "%d:%s:%d:%t:%t\n", len(l.Slug), l.Slug, l.AccessControl, // a hash.Hash never fails
			l.UseSharedTM, l.ContributeSharedTM)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}
