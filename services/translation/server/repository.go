package server

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/changedetails"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// GetRepository reports the working copy state of the components: pending
// changes (limited to one language when asked), commits to push or merge
// against the remote-tracking branch as last fetched, the HEAD and remote
// commits, a `git status` summary and the last merge failure.
func (s *Server) GetRepository(ctx context.Context, req *translationv1.GetRepositoryRequest) (*translationv1.GetRepositoryResponse, error) {
	ids := req.GetComponentIds()
	out := &translationv1.Repository{}
	var err error
	if out.NeedsCommit, err = s.cfg.Store.NeedsCommit(ctx, ids, req.GetLanguageCode()); err != nil {
		return nil, err
	}
	if out.MergeFailure, err = s.cfg.Store.MergeFailure(ctx, ids); err != nil {
		return nil, err
	}
	for i, id := range ids {
		comp, err := s.component(ctx, id)
		if err != nil {
			return nil, err
		}
		st, branch, err := s.repoState(ctx, id)
		if err != nil {
			continue // not cloned (yet): nothing to report
		}
		out.NeedsPush = out.NeedsPush || st.Ahead > 0
		out.NeedsMerge = out.NeedsMerge || st.Behind > 0
		if i == 0 {
			out.Url, out.Branch, out.Status = policy.ShowURL(ctx, comp.GetRepo()), branch, st.Status(branch)
			out.LocalCommit, out.RemoteCommit = commitProto(st.Local), commitProto(st.Remote)
		}
	}
	return &translationv1.GetRepositoryResponse{Repository: out}, nil
}

// repoState is the component's working copy state as last recorded with
// its snapshot, so that any replica answers without a working copy; a
// component without one (imported before snapshots) is read from its copy.
func (s *Server) repoState(ctx context.Context, componentID int64) (workcopy.State, string, error) {
	branch, state, ok, err := s.cfg.Store.SnapshotState(ctx, componentID)
	if err != nil {
		return workcopy.State{}, "", err
	}
	if ok && state != "" {
		var st workcopy.State
		return st, branch, json.Unmarshal([]byte(state), &st)
	}
	release, err := s.holdRepo(ctx, componentID)
	if err != nil {
		return workcopy.State{}, "", err
	}
	defer release()
	repo, err := s.openRepo(ctx, componentID)
	if err != nil {
		return workcopy.State{}, "", err
	}
	st, err := repo.State()
	return st, repo.Branch, err
}

func commitProto(c *workcopy.CommitInfo) *translationv1.Commit {
	if c == nil {
		return nil
	}
	return &translationv1.Commit{Revision: c.Hash, ShortRevision: c.Hash[:7], AuthorName: c.AuthorName,
		AuthorEmail: c.AuthorEmail, Message: c.Message, AuthorTime: timestamppb.New(c.AuthorTime.UTC()),
		CommitterName: c.CommitterName, CommitterEmail: c.CommitterEmail, CommitTime: timestamppb.New(c.CommitTime.UTC())}
}

// opResult is the answer of one repository operation on one component.
type opResult struct {
	ok     bool
	detail string
	noRepo bool // there was no working copy to run on
}

// repositoryOp runs with the component's working copy locked and open.
type repositoryOp func(s *Server, ctx context.Context, comp *catalogv1.Component, repo *workcopy.Repo, actor string) (opResult, error)

// repositoryOps are the operations by name, with the permission a caller
// acting for a user needs on each component (the REST API's).
var repositoryOps = map[string]struct {
	run  repositoryOp
	perm string
}{
	"commit":  {(*Server).opCommit, "vcs.commit"},
	"push":    {(*Server).opPush, "vcs.push"},
	"pull":    {(*Server).opPull, "vcs.update"},
	"reset":   {(*Server).opReset, "vcs.reset"},
	"cleanup": {(*Server).opCleanup, "vcs.reset"},
}

// RunRepositoryOperation runs commit, push, pull, reset or cleanup on each
// component, one at a time under its working copy lock. A failure of the
// operation itself (a rejected push, a merge conflict) is an answer with
// result false and the reason in detail, not an error. A caller acting for
// a user needs the operation's permission on every component (in the
// language, when one is given) before anything runs.
func (s *Server) RunRepositoryOperation(ctx context.Context, req *translationv1.RunRepositoryOperationRequest) (*translationv1.RunRepositoryOperationResponse, error) {
	op, ok := repositoryOps[req.GetOperation()]
	if !ok {
		return nil, errs.Invalid("operation", "invalid_choice", "\""+req.GetOperation()+"\" is not a valid choice.")
	}
	// Every component is checked before any is touched.
	comps := make([]*catalogv1.Component, 0, len(req.GetComponentIds()))
	for _, id := range req.GetComponentIds() {
		comp, err := s.component(ctx, id)
		if err != nil {
			return nil, err
		}
		if err = s.require(ctx, op.perm, comp, req.GetLanguageCode()); err != nil {
			return nil, err
		}
		comps = append(comps, comp)
	}
	out := &translationv1.RunRepositoryOperationResponse{Result: true}
	for _, comp := range comps {
		res, err := s.runOperation(ctx, comp, req.GetOperation(), req.GetActor(), op.run)
		if err != nil {
			return nil, err
		}
		if !res.ok && out.Result {
			out.Result, out.Detail = false, res.detail
		}
	}
	s.cfg.Notify()
	return out, nil
}

// runOperation runs op on comp; pull and reset of a component whose import
// failed (or never ran) import it afresh instead, which is how a broken
// component is repaired without deleting it.
func (s *Server) runOperation(ctx context.Context, comp *catalogv1.Component, name, actor string, op repositoryOp) (opResult, error) {
	if name == "pull" || name == "reset" {
		again, err := s.needsImport(ctx, comp)
		if err != nil {
			return opResult{}, err
		}
		if again {
			return s.importAsOperation(ctx, comp)
		}
		// An import was running: if it failed meanwhile, there is still no
		// working copy once its lock is ours, and the import runs again.
		res, err := s.locked(ctx, comp, actor, op)
		if err == nil && res.noRepo {
			return s.importAsOperation(ctx, comp)
		}
		return res, err
	}
	return s.locked(ctx, comp, actor, op)
}

func (s *Server) locked(ctx context.Context, comp *catalogv1.Component, actor string, op repositoryOp) (opResult, error) {
	unlock, err := s.lockLive(ctx, comp)
	if err != nil {
		return opResult{}, err
	}
	defer unlock()
	repo, err := s.openRepo(ctx, comp.GetId())
	if err != nil {
		detail := "The repository is not available: its import has not succeeded yet; pull or reset imports it again."
		if ok, _ := s.hasCopy(ctx, comp.GetId()); ok {
			detail = "The repository could not be restored from its remote: " + s.scrub(comp, err)
		}
		return opResult{detail: detail, noRepo: true}, nil
	}
	return op(s, ctx, comp, repo, actor)
}

// opCommit commits pending changes and pushes when push_on_commit is set.
func (s *Server) opCommit(ctx context.Context, comp *catalogv1.Component, repo *workcopy.Repo, actor string) (opResult, error) {
	committed, err := s.commitLocked(ctx, comp, repo, actor)
	if err != nil {
		return opResult{}, err
	}
	if committed && comp.GetPushOnCommit() {
		return s.pushLocked(ctx, comp, repo, actor)
	}
	return opResult{ok: true}, nil
}

// change builds a component-level change record of comp.
func change(comp *catalogv1.Component, action typev1.ChangeAction, actor string, details map[string]any) *changelogv1.Change {
	c := &changelogv1.Change{Action: action, ProjectSlug: comp.GetProjectSlug(), ComponentSlug: comp.GetSlug(), User: actor}
	if details != nil {
		c.Details = changedetails.FromMap(details)
	}
	return c
}

// scrub removes local paths and URL credentials from a git error shown to
// clients.
func (s *Server) scrub(comp *catalogv1.Component, err error) string {
	msg := policy.ScrubText(err.Error())
	msg = strings.ReplaceAll(msg, s.cfg.Repos.Dir(comp.GetId()), "")
	if home, herr := os.UserHomeDir(); herr == nil && home != "/" {
		msg = strings.ReplaceAll(msg, home, "~")
	}
	return msg
}

// isConflict reports a merge conflict.
func isConflict(err error) (*workcopy.ConflictError, bool) {
	var ce *workcopy.ConflictError
	return ce, errors.As(err, &ce)
}
