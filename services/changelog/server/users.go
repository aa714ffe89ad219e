package server

import (
	"context"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	"github.com/tmsproject/tms/services/changelog/store"
)

// hidden is what the caller of ctx sees (policy.Projects.Seen).
func (s *Server) hidden(ctx context.Context) (store.Seen, error) {
	if s.projects == nil {
		return store.Seen{}, nil
	}
	slugs, restricted, err := s.projects.Seen(ctx)
	return store.Seen{Restricted: restricted, Projects: slugs}, err
}

// GetUserActivity counts a user's records per action.
func (s *Server) GetUserActivity(ctx context.Context, req *changelogv1.GetUserActivityRequest) (*changelogv1.GetUserActivityResponse, error) {
	if req.GetUser() == "" {
		return nil, errs.Invalid("user", "required", "This field is required.")
	}
	hidden, err := s.hidden(ctx)
	if err != nil {
		return nil, err
	}
	counts, languages, err := s.store.UserActivity(ctx, req.GetUser(), hidden)
	if err != nil {
		return nil, err
	}
	out := &changelogv1.GetUserActivityResponse{Languages: languages}
	var sums activity
	for _, c := range counts {
		a := weblate.ChangeActions.EnumOf(c.Action)
		out.Actions = append(out.Actions, &changelogv1.ActionCount{Action: a, Count: c.Count})
		sums.add(a, c.Count)
	}
	out.Translated, out.Suggested, out.Uploaded, out.Commented = sums.translated, sums.suggested, sums.uploaded, sums.commented
	return out, nil
}

// ListContributions pages the translations a user has records in.
func (s *Server) ListContributions(ctx context.Context, req *changelogv1.ListContributionsRequest) (*changelogv1.ListContributionsResponse, error) {
	pg, perr := listLimits.Read(req)
	if perr != nil {
		return nil, perr
	}
	var v errs.Violations
	v.Paging(pg.Offset, pg.Limit)
	if req.GetUser() == "" {
		v.Add("user", "required", "This field is required.")
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	hidden, err := s.hidden(ctx)
	if err != nil {
		return nil, err
	}
	list, total, err := s.store.Contributions(ctx, req.GetUser(), hidden, int(pg.Offset), int(pg.Limit))
	if err != nil {
		return nil, err
	}
	out := &changelogv1.ListContributionsResponse{Total: total, NextPageToken: pg.Next(total)}
	for _, c := range list {
		out.Contributions = append(out.Contributions, &changelogv1.Contribution{ProjectSlug: c.ProjectSlug,
			ComponentSlug: c.ComponentSlug, LanguageCode: c.LanguageCode, Changes: c.Changes})
	}
	return out, nil
}

// ListChangesAfter follows the log from a cursor, oldest first.
func (s *Server) ListChangesAfter(ctx context.Context, req *changelogv1.ListChangesAfterRequest) (*changelogv1.ListChangesAfterResponse, error) {
	if req.GetAfterId() < 0 || req.GetLimit() < 0 {
		return nil, errs.Invalid("after_id", "min_value", "Ensure this value is greater than or equal to 0.")
	}
	hidden, err := s.hidden(ctx)
	if err != nil {
		return nil, err
	}
	list, err := s.store.After(ctx, req.GetAfterId(), int(req.GetLimit()), hidden)
	if err != nil {
		return nil, err
	}
	out := &changelogv1.ListChangesAfterResponse{Changes: make([]*changelogv1.Change, len(list))}
	for i, c := range list {
		out.Changes[i] = toProto(c)
	}
	return out, nil
}

// ListCredits counts the matching records per language and credited
// author, within what the caller may see.
func (s *Server) ListCredits(ctx context.Context, req *changelogv1.ListCreditsRequest) (*changelogv1.ListCreditsResponse, error) {
	var v errs.Violations
	after := timeArg(&v, "timestamp_after", req.GetTimestampAfter())
	before := timeArg(&v, "timestamp_before", req.GetTimestampBefore())
	actions := req.GetActions()
	if req.GetContentChanges() {
		if len(actions) > 0 {
			v.Add("actions", "invalid", "actions and content_changes cannot be combined.")
		}
		actions = contentActions
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	if p := req.GetProjectSlug(); p != "" && s.projects != nil {
		ok, err := s.projects.Visible(ctx, p)
		if err != nil {
			return nil, err
		}
		if !ok {
			return nil, errs.NotFoundf("Not found.")
		}
	}
	hidden, err := s.hidden(ctx)
	if err != nil {
		return nil, err
	}
	author, err := s.creditedAuthor(ctx, req)
	if err != nil {
		return nil, err
	}
	credits, err := s.store.Credits(ctx, store.Filter{ProjectSlug: req.GetProjectSlug(), ComponentSlug: req.GetComponentSlug(),
		LanguageCode: req.GetLanguageCode(), Actions: storedActions(actions), After: after, Before: before, Seen: hidden,
		Author: author})
	if err != nil {
		return nil, err
	}
	out := &changelogv1.ListCreditsResponse{}
	for _, c := range credits {
		out.Credits = append(out.Credits, &changelogv1.Credit{LanguageCode: c.LanguageCode, Author: c.Author, Changes: c.Changes})
	}
	return out, nil
}

// creditedAuthor is whose credits the caller of ctx may read, as the
// reference rules: "" (everyone's) for the services' own calls, superusers
// and holders of reports.view on the scope; only their own for other
// users; nothing for the anonymous caller (Unauthenticated).
func (s *Server) creditedAuthor(ctx context.Context, req *changelogv1.ListCreditsRequest) (string, error) {
	c, restricted := policy.Restricted(ctx)
	if !restricted {
		return "", nil
	}
	if c.Username == "" {
		return "", errs.New(errs.Unauthenticated, "Must be authenticated to get credits")
	}
	if req.GetProjectSlug() == "" || s.projects == nil {
		return c.Username, nil
	}
	err := s.projects.Authorize(ctx, "reports.view", policy.Scope{Project: req.GetProjectSlug(), Component: req.GetComponentSlug()}, "")
	switch {
	case err == nil:
		return "", nil
	case errs.Is(err, errs.PermissionDenied):
		return c.Username, nil
	}
	return "", err
}
