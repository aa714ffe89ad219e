package server

import (
	"context"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// startImport has the translation service check the binding of the
// committed component c and import it in the background, and returns the
// import's task id. Creating a component and importing it are one
// operation of the catalog, whoever calls it (the gateway or any internal
// caller): when the translation service refuses the binding at once (a
// repository it may not fetch, a bad file mask) or cannot be reached,
// undo puts the catalog back as it was before the write (the new
// component removed, the former binding restored) and the refusal is
// the answer. The import runs as the catalog's own call: the caller's
// right to change the component was checked here.
func (s *Server) startImport(ctx context.Context, c *store.Component, actor string, undo func() error) (string, error) {
	if s.translation == nil {
		return "", nil
	}
	req := &translationv1.ImportComponentRequest{ComponentId: c.ID, Actor: actor}
	snap, err := s.st.Snapshot(ctx, c.ProjectID)
	if err != nil {
		return "", s.undoImport(ctx, c, undo, err)
	}
	req.Snapshot = SnapshotProto(snap)
	resp, err := s.translation.ImportComponent(policy.System(ctx), req)
	if err == nil {
		return resp.GetTask().GetId(), nil
	}
	return "", s.undoImport(ctx, c, undo, err)
}

// undoImport undoes the write of c whose import failed with err, and
// answers err.
func (s *Server) undoImport(ctx context.Context, c *store.Component, undo func() error, err error) error {
	if uerr := undo(); uerr != nil {
		s.log.ErrorContext(ctx, "undo a write whose import was refused", "component", c.ID, "err", uerr)
	} else {
		s.notify()
		s.removed()
		s.lifecycle()
	}
	return errs.FromStatus(err)
}

// rebinds tells whether an update changed what the component's files are
// read from, so that they must be imported again.
func rebinds(old, updated *store.Component) bool {
	return old.Repo != updated.Repo || old.Branch != updated.Branch || old.Filemask != updated.Filemask ||
		old.Template != updated.Template || old.NewBase != updated.NewBase || old.Intermediate != updated.Intermediate
}

// RecordImportOutcomes records the branches the translation service's
// imports found for components bound without one (its outbox delivers
// them).
func (s *Server) RecordImportOutcomes(ctx context.Context, req *catalogv1.RecordImportOutcomesRequest) (*catalogv1.RecordImportOutcomesResponse, error) {
	if _, restricted := policy.Restricted(ctx); restricted {
		return nil, errs.New(errs.PermissionDenied, "Only the translation service records what its imports found.")
	}
	languages := false
	for _, o := range req.GetOutcomes() {
		if err := s.st.RecordBranch(ctx, o.GetComponentId(), o.GetBranch()); err != nil {
			return nil, storeErr(err, nil)
		}
		for _, use := range o.GetLanguages() {
			languages = true
			if _, err := s.EnsureLanguage(ctx, use); err != nil && errs.FromStatus(err).Kind != errs.InvalidArgument {
				return nil, err
			}
		}
	}
	// The reporter lacked these: it gets the table again even when they
	// were stored already (by another import, or before its copy).
	if languages {
		if err := s.st.TouchLanguages(ctx); err != nil {
			return nil, storeErr(err, nil)
		}
	}
	return &catalogv1.RecordImportOutcomesResponse{}, nil
}
