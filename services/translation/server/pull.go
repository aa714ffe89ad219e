package server

import (
	"context"
	"fmt"
	"strings"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/importer"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// opPull commits pending changes, fetches and integrates the remote branch
// per merge_style, then re-reads the files that changed: strings added,
// changed and removed upstream are recorded (71, 59, 63). A conflict
// leaves the working copy as it was, records "Repository merge failed"
// (or rebase failed) with a MergeFailure alert, and keeps the failure for
// the repository status.
func (s *Server) opPull(ctx context.Context, comp *catalogv1.Component, repo *workcopy.Repo, actor string) (opResult, error) {
	if _, err := s.commitLocked(ctx, comp, repo, actor); err != nil {
		return opResult{}, err
	}
	return s.integrateRemote(ctx, comp, repo, actor)
}

// integrateRemote fetches and integrates the remote branch per
// merge_style (pull's work after its commit, and push's when the remote
// has moved).
func (s *Server) integrateRemote(ctx context.Context, comp *catalogv1.Component, repo *workcopy.Repo, actor string) (opResult, error) {
	if err := repo.Fetch(ctx); err != nil {
		return opResult{detail: s.scrub(comp, err)}, nil
	}
	style, ok, failed := workcopy.StyleMerge, actionMerged, actionMergeFailed
	if comp.GetMergeStyle() == typev1.MergeStyle_MERGE_STYLE_REBASE {
		style, ok, failed = workcopy.StyleRebase, actionRebased, actionRebaseFail
	}
	msg := s.newMessageContext(ctx, comp).renderMerge()
	res, err := repo.Merge(style, msg, s.cfg.Git.committer())
	if err != nil {
		return s.mergeFailed(ctx, comp, actor, failed, err)
	}
	if res.UpToDate {
		return opResult{ok: true}, s.cfg.Store.SetMergeFailure(ctx, comp.GetId(), "")
	}
	if err := s.reimport(ctx, comp, repo, true); err != nil {
		return opResult{}, err
	}
	done := change(comp, ok, actor, nil)
	return opResult{ok: true}, s.cfg.Store.SetMergeFailure(ctx, comp.GetId(), "", done)
}

// mergeFailed records a failed merge or rebase; the answer carries git's
// wording of a conflict.
func (s *Server) mergeFailed(ctx context.Context, comp *catalogv1.Component, actor string, action typev1.ChangeAction, err error) (opResult, error) {
	detail := s.scrub(comp, err)
	if ce, ok := isConflict(err); ok {
		var b strings.Builder
		for _, p := range ce.Paths {
			fmt.Fprintf(&b, "CONFLICT (content): Merge conflict in %s\n", p)
		}
		b.WriteString("Automatic merge failed; fix conflicts and then commit the result.")
		detail = b.String()
	}
	c := change(comp, action, actor, map[string]any{"error": detail})
	c.Target = detail
	if err := s.cfg.Store.SetMergeFailure(ctx, comp.GetId(), detail, c); err != nil {
		return opResult{}, err
	}
	// The alert stands, listed by /alerts/, until a merge succeeds; its
	// "Alert triggered" record is written when it is raised.
	alert := change(comp, actionAlert, "", map[string]any{"alert": alertMergeFailure})
	if err := s.cfg.Store.RaiseAlert(ctx, comp.GetId(), alertMergeFailure, detail, alert); err != nil {
		return opResult{}, err
	}
	if comp.GetAutoLockError() && !comp.GetLocked() {
		s.autoLock(ctx, comp)
	}
	return opResult{detail: detail}, nil
}

// reimport re-reads the working copy after its files moved, recording the
// string-level changes; onlyChanged skips files whose content the store
// already has.
func (s *Server) reimport(ctx context.Context, comp *catalogv1.Component, repo *workcopy.Repo, onlyChanged bool) error {
	return s.reimportAs(ctx, comp, repo, onlyChanged, typev1.ChangeAction_CHANGE_ACTION_UNSPECIFIED)
}

// reimportAs is reimport recording each re-read file with action ("Resource
// updated" when unspecified).
func (s *Server) reimportAs(ctx context.Context, comp *catalogv1.Component, repo *workcopy.Repo, onlyChanged bool, action typev1.ChangeAction) error {
	return s.reimportIn(ctx, s.cfg.Store, comp, repo, onlyChanged, action)
}

// reimportIn is reimportAs writing through st (a transaction's store).
func (s *Server) reimportIn(ctx context.Context, st Store, comp *catalogv1.Component, repo *workcopy.Repo, onlyChanged bool, action typev1.ChangeAction) error {
	im := &importer.Importer{Store: st, Languages: copyLanguages{s: s, st: st}, Log: s.cfg.Log,
		OnlyChanged: onlyChanged, UnitChanges: true, Review: s.translationReview, CheckRules: s.checkRules, Action: action}
	if err := im.Import(ctx, comp, repo.Dir, func(int, string) {}); err != nil {
		return fmt.Errorf("re-read the repository: %w", err)
	}
	head, err := repo.Head()
	if err != nil {
		return err
	}
	r, err := st.GetRepository(ctx, comp.GetId())
	if err != nil {
		return err
	}
	r.URL, r.Branch, r.Revision = comp.GetRepo(), repo.Branch, head
	return st.SaveRepository(ctx, r)
}

// opReset moves the working copy to the remote branch, dropping local
// commits and pending edits, and re-reads every file (19).
func (s *Server) opReset(ctx context.Context, comp *catalogv1.Component, repo *workcopy.Repo, actor string) (opResult, error) {
	if err := repo.Fetch(ctx); err != nil {
		return opResult{detail: s.scrub(comp, err)}, nil
	}
	previous, _ := repo.Head()
	if _, err := repo.ResetHard(); err != nil {
		return opResult{detail: s.scrub(comp, err)}, nil
	}
	if err := s.cfg.Store.DiscardPending(ctx, comp.GetId()); err != nil {
		return opResult{}, err
	}
	if err := s.reimport(ctx, comp, repo, false); err != nil {
		return opResult{}, err
	}
	head, _ := repo.Head()
	c := change(comp, actionReset, actor, map[string]any{"previous_head": previous, "new_head": head})
	return opResult{ok: true}, s.cfg.Store.SetMergeFailure(ctx, comp.GetId(), "", c)
}

// opCleanup removes untracked files from the working copy (88) and drops
// the translations whose files went with them.
func (s *Server) opCleanup(ctx context.Context, comp *catalogv1.Component, repo *workcopy.Repo, actor string) (opResult, error) {
	n, err := repo.Clean()
	if err != nil {
		return opResult{detail: s.scrub(comp, err)}, nil
	}
	if n > 0 {
		if err := s.reimport(ctx, comp, repo, true); err != nil {
			return opResult{}, err
		}
	}
	return opResult{ok: true}, s.cfg.Store.RecordChanges(ctx, change(comp, actionCleanup, actor, nil))
}
