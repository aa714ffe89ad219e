package server

import (
	"context"
	"errors"

	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// opPush commits pending changes, then pushes.
func (s *Server) opPush(ctx context.Context, comp *catalogv1.Component, repo *workcopy.Repo, actor string) (opResult, error) {
	if _, err := s.commitLocked(ctx, comp, repo, actor); err != nil {
		return opResult{}, err
	}
	return s.pushLocked(ctx, comp, repo, actor)
}

// pushLocked pushes the branch to the component's push URL (or its
// repository) and push branch (or branch). When the remote branch has moved
// on, the remote is integrated first (merge or rebase) and the push tried
// again. A refused push records "Repository push failed" and a PushFailure
// alert, and locks the component when auto_lock_error is set; the answer is
// then result false.
func (s *Server) pushLocked(ctx context.Context, comp *catalogv1.Component, repo *workcopy.Repo, actor string) (opResult, error) {
	url, branch := or(comp.GetPush(), comp.GetRepo()), or(comp.GetPushBranch(), repo.Branch)
	if url == comp.GetRepo() && branch == repo.Branch {
		if st, err := repo.State(); err == nil && st.Remote != nil && st.Ahead == 0 {
			return opResult{ok: true}, nil // nothing to push
		}
	}
	err := repo.Push(ctx, url, branch)
	if errors.Is(err, workcopy.ErrPushRejected) && url == comp.GetRepo() && branch == repo.Branch {
		// The remote has moved: as the reference does, update from it per
		// merge_style first, then push again; a conflict is the merge's
		// failure (recorded by integrateRemote), not a push failure.
		res, ierr := s.integrateRemote(ctx, comp, repo, actor)
		if ierr != nil || !res.ok {
			return res, ierr
		}
		err = repo.Push(ctx, url, branch)
	}
	if err == nil {
		if cerr := s.cfg.Store.ClearAlerts(ctx, comp.GetId(), alertPushFailure); cerr != nil {
			return opResult{}, cerr
		}
		return opResult{ok: true}, s.cfg.Store.RecordChanges(ctx, change(comp, actionPushed, actor, nil))
	}
	detail := s.scrub(comp, err)
	if !errors.Is(err, workcopy.ErrPushRejected) {
		s.cfg.Log.Warn("push failed", "component", comp.GetId(), "err", err)
	}
	failed := change(comp, actionPushFailed, actor, map[string]any{"error": detail})
	failed.Target = detail
	if err := s.cfg.Store.RecordChanges(ctx, failed); err != nil {
		return opResult{}, err
	}
	alert := change(comp, actionAlert, "", map[string]any{"alert": alertPushFailure})
	if err := s.cfg.Store.RaiseAlert(ctx, comp.GetId(), alertPushFailure, detail, alert); err != nil {
		return opResult{}, err
	}
	if comp.GetAutoLockError() && !comp.GetLocked() {
		s.autoLock(ctx, comp)
	}
	return opResult{detail: detail}, nil
}

// autoLock locks a component after a repository error (the catalog
// records "Component locked" with details.auto true). The lock is the
// service's own doing, not the caller's: whoever pushed need not hold
// component.lock.
func (s *Server) autoLock(ctx context.Context, comp *catalogv1.Component) {
	_, err := s.cfg.Catalog.SetComponentLock(policy.System(ctx), &catalogv1.SetComponentLockRequest{
		ProjectSlug: comp.GetProjectSlug(), Slug: comp.GetSlug(), Locked: true, Auto: true})
	if err != nil {
		s.cfg.Log.Warn("auto lock", "component", comp.GetId(), "err", err)
	}
}

func or(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
