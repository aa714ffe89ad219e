package server

import (
	"context"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
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

// may tells whether the caller of ctx holds perm on the translation of
// comp in lang (lang "": the component): the policy of every service,
// from the caller's teams. The service's own calls, which carry no caller,
// hold what fallback says: the flag an internal caller sent.
func (s *Server) may(ctx context.Context, perm string, comp *catalogv1.Component, lang string, fallback bool) (bool, error) {
	c, ok := policy.FromContext(ctx)
	if !ok {
		return fallback, nil
	}
	if s.cfg.Projects == nil {
		return c.Superuser, nil
	}
	err := s.cfg.Projects.Authorize(ctx, perm, policy.Scope{Project: comp.GetProjectSlug(),
		Component: comp.GetSlug(), Language: lang}, "")
	if errs.Is(err, errs.PermissionDenied) {
		return false, nil
	}
	return err == nil, err
}

// uploadPerms are the permissions each upload method needs besides
// upload.perform: those of the edits it makes (replace deletes the strings
// the file lacks, add adds strings), as the reference checks them.
var uploadPerms = map[string]string{
	"translate": "unit.edit", "fuzzy": "unit.edit", "approve": "unit.review",
	"suggest": "suggestion.add", "add": "unit.add", "replace": "component.edit",
}

// orDenied is err, or PermissionDenied with reason when there is none.
// orDeniedIf is orDenied for a check that answered ok: nil when allowed.
func orDeniedIf(ok bool, err error, reason string) error {
	if ok && err == nil {
		return nil
	}
	return orDenied(err, reason)
}

func orDenied(err error, reason string) error {
	if err != nil {
		return err
	}
	return errs.New(errs.PermissionDenied, "%s", reason)
}
