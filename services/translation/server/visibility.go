package server

import (
	"context"
	"slices"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// hidden is what every list, count and sum leaves out for the caller of
// ctx: all but the projects it may see, and for everyone the components
// the catalog has deleted whose rows ForgetComponents has not dropped yet.
func (s *Server) hidden(ctx context.Context) (store.Hidden, error) {
	removed, err := s.removed(ctx)
	if err != nil || s.cfg.Projects == nil {
		return store.Hidden{Components: removed}, err
	}
	seen, restricted, err := s.cfg.Projects.Seen(ctx)
	return store.Hidden{Restricted: restricted, Seen: seen, Components: removed}, err
}

// removed lists the components the catalog has deleted (as its snapshots
// told) whose rows ForgetComponents has not dropped yet. The catalog
// delivers a delete's snapshot before the delete answers, and its
// removal, which drops the rows, later.
func (s *Server) removed(ctx context.Context) ([]int64, error) {
	return s.cfg.Store.RemovedComponents(ctx)
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

// mustSeeTranslation answers NotFound unless the caller of ctx may see the
// translation: its project is visible to it and its component is not
// deleted.
func (s *Server) mustSeeTranslation(ctx context.Context, t store.Translation) error {
	removed, err := s.removed(ctx)
	if err != nil {
		return err
	}
	if slices.Contains(removed, t.ComponentID) {
		return errs.NotFoundf("Not found.")
	}
	return s.mustSee(ctx, t.ProjectSlug)
}

// mustSeeComponent answers NotFound unless the caller of ctx may see the
// component: it exists and its project is visible to it. The service's own
// calls and superusers see everything, deleted components included.
func (s *Server) mustSeeComponent(ctx context.Context, id int64) error {
	if _, restricted := policy.Restricted(ctx); !restricted {
		return nil
	}
	_, err := s.component(ctx, id)
	return err
}

// visibleUnit loads a unit the caller of ctx may see (mustSeeTranslation).
func (s *Server) visibleUnit(ctx context.Context, id int64) (store.UnitView, error) {
	u, err := s.cfg.Store.GetUnit(ctx, id)
	if err == nil {
		err = s.mustSeeTranslation(ctx, u.Translation)
	}
	return u, err
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

// require fails with PermissionDenied unless the caller of ctx holds perm
// on the translation of comp in lang (may; the service's own calls pass).
func (s *Server) require(ctx context.Context, perm string, comp *catalogv1.Component, lang string) error {
	ok, err := s.may(ctx, perm, comp, lang, true)
	return orDeniedIf(ok, err, errNoPermission)
}

// requireOwn is require for an object of t written by author: its author
// may act on it without perm, as the reference lets it.
func (s *Server) requireOwn(ctx context.Context, perm string, t store.Translation, author string) error {
	if c, ok := policy.FromContext(ctx); ok && author != "" && c.Username == author {
		return nil
	}
	return s.require(ctx, perm, scopeOf(t), t.LanguageCode)
}

// scopeOf is the component of t as may reads it: its project and slug.
func scopeOf(t store.Translation) *catalogv1.Component {
	return &catalogv1.Component{ProjectSlug: t.ProjectSlug, Slug: t.ComponentSlug}
}

// errNoPermission is the reason of a refusal that gives none.
const errNoPermission = "You do not have permission to perform this action."

// uploadPerms are the permissions each upload method needs besides
// upload.perform: those of the edits it makes (replace deletes the strings
// the file lacks, add adds strings, source rewrites the source strings:
// the reference's upload.perform asks source.edit on a source
// translation), as the reference checks them.
var uploadPerms = map[string]string{
	"translate": "unit.edit", "fuzzy": "unit.edit", "approve": "unit.review",
	"suggest": "suggestion.add", "add": "unit.add", "replace": "component.edit",
	"source": "source.edit",
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
