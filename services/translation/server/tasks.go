package server

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/obs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/filemask"
	"github.com/tmsproject/tms/services/translation/store"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// ImportComponent validates the repository binding, then clones and imports
// in the background; the task reports the outcome. The catalog calls it
// when a component is created or rebound; a caller acting for a user
// needs component.edit.
func (s *Server) ImportComponent(ctx context.Context, req *translationv1.ImportComponentRequest) (*translationv1.ImportComponentResponse, error) {
	if snap := req.GetSnapshot(); snap != nil {
		if err := s.applySnapshots(ctx, snap); err != nil {
			return nil, err
		}
	}
	comp, err := s.component(ctx, req.GetComponentId())
	if err != nil {
		return nil, err
	}
	if err = s.require(ctx, "component.edit", comp, ""); err != nil {
		return nil, err
	}
	var v errs.Violations
	remotes := []struct{ field, url string }{{"repo", comp.GetRepo()}, {"push", comp.GetPush()}}
	for _, r := range remotes {
		if r.url == "" && r.field == "push" {
			continue
		}
		if err = workcopy.ValidateRemote(r.field, r.url, s.cfg.AllowLocalRepos); err != nil {
			var e *errs.Error
			if errors.As(err, &e) {
				v = append(v, e.Fields...)
			}
		}
	}
	if _, err = filemask.Parse(comp.GetFilemask()); err != nil {
		v.Add("filemask", "invalid", "File mask does not contain * as a language placeholder or leaves the repository.")
	}
	if err = v.Err(); err != nil {
		return nil, err
	}
	task, err := s.startImport(ctx, comp)
	if err != nil {
		return nil, err
	}
	return &translationv1.ImportComponentResponse{Task: taskProto(task)}, nil
}

// startImport runs an import task of comp in the background.
func (s *Server) startImport(ctx context.Context, comp *catalogv1.Component) (store.Task, error) { //nolint:contextcheck // the task outlives the call: it runs on the server's context
	task, err := s.cfg.Store.CreateTask(ctx, uuid.NewString(), comp.GetId(), s.holder())
	if err != nil {
		return task, err
	}
	tctx, stop := s.taskContext(s.ctx, task.ID)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer stop()
		_ = s.runImport(tctx, task.ID, comp)
	}()
	return task, nil
}

// runImport is the body of an import task. A failure finishes the task with
// the reason and raises the component's alert; a success clears the alerts
// of earlier failed imports.
func (s *Server) runImport(ctx context.Context, taskID string, comp *catalogv1.Component) (err error) {
	defer observeSince(obs.ImportDuration, time.Now(), &err)
	log := s.cfg.Log.With("task", taskID, "component", comp.GetId())
	start := time.Now()
	progress := func(pct int, line string) {
		line = fmt.Sprintf("[%.2fs] %s", time.Since(start).Seconds(), line)
		if uerr := s.cfg.Store.UpdateTask(ctx, taskID, pct, line); uerr != nil {
			log.Warn("task progress", "err", uerr)
		}
	}
	err = s.importNow(ctx, comp, progress)
	// The task row is finished even when ctx is cancelled (shutdown).
	done := context.WithoutCancel(ctx)
	failure := ""
	if err != nil {
		failure = s.scrub(comp, err)
		log.Warn("import failed", "err", failure)
	}
	switch {
	case taskCancelled(ctx):
		failure = cancelledTask
	case errors.Is(err, errComponentGone):
		failure = "The component was deleted."
	default:
		if aerr := s.importOutcome(done, comp, err, failure); aerr != nil {
			log.Error("record import outcome", "err", aerr)
		}
	}
	if ferr := s.cfg.Store.FinishTask(done, taskID, failure); ferr != nil {
		log.Error("finish task", "err", ferr)
	}
	s.cfg.Notify()
	return err
}

func (s *Server) importNow(ctx context.Context, comp *catalogv1.Component, progress func(int, string)) error {
	unlock, err := s.lockLive(ctx, comp)
	if err != nil {
		return err
	}
	defer unlock()
	prev, err := s.cfg.Store.GetRepository(ctx, comp.GetId())
	if err != nil {
		return err
	}
	rebinding, err := s.keepLocalWork(ctx, comp, prev)
	if err != nil {
		return err
	}
	progress(1, "cloning "+policy.RedactURL(comp.GetRepo(), true))
	repo, err := s.cfg.Repos.Sync(ctx, comp.GetId(), comp.GetRepo(), comp.GetBranch())
	if err != nil {
		return importFailure{alertUpdateFailure, fmt.Errorf("could not fetch the repository: %w", err)}
	}
	if rebinding {
		if merr := s.mergeNewRemote(ctx, comp, repo); merr != nil {
			return merr
		}
	}
	head, err := repo.Head()
	if err != nil {
		return importFailure{alertUpdateFailure, err}
	}
	prev.URL, prev.Branch, prev.Revision = comp.GetRepo(), repo.Branch, head
	if err := s.cfg.Store.SaveRepository(ctx, prev); err != nil {
		return err
	}
	if comp.GetBranch() == "" {
		s.recordBranch(ctx, comp, repo.Branch)
	}
	progress(20, "checked out "+repo.Branch+" at "+head)
	if err := s.importer.Import(ctx, comp, repo.Dir, progress); err != nil {
		return importFailure{alertParseError, err}
	}
	return nil
}

// keepLocalWork prepares a re-import of a component whose working copy
// has work of its own: the copy is brought up to date with the database
// (rebuilt from its snapshot on a replica that lacks it) and, when the
// binding changed (repo or branch), the pending edits are committed, so
// that Sync keeps them with the other unpushed commits instead of cloning
// them away. It reports whether the binding changed with a copy to keep.
func (s *Server) keepLocalWork(ctx context.Context, comp *catalogv1.Component, prev store.Repository) (bool, error) {
	repo, err := s.openRepo(ctx, comp.GetId())
	if err != nil {
		snap, ok, serr := s.cfg.Store.GetSnapshot(ctx, comp.GetId())
		if serr != nil || !ok || snap.Head == snap.RemoteHead {
			return false, serr // nothing of its own: a fresh clone loses nothing
		}
		// The former remote is gone: the new one may still carry the
		// history the unpushed commits build on.
		ws := workcopy.Snapshot{Branch: snap.Branch, Head: snap.Head, RemoteHead: snap.RemoteHead, Pack: snap.Pack}
		if repo, err = s.cfg.Repos.Rebuild(ctx, comp.GetId(), comp.GetRepo(), ws); err != nil {
			return false, importFailure{alertUpdateFailure, fmt.Errorf("the unpushed commits could not be restored, and are kept: %w", err)}
		}
	}
	if repo == nil || prev.URL == "" {
		return false, nil
	}
	rebinding := prev.URL != comp.GetRepo() || (comp.GetBranch() != "" && comp.GetBranch() != prev.Branch)
	if !rebinding {
		return false, nil
	}
	if _, err := s.commitLocked(ctx, comp, repo, ""); err != nil {
		return false, err
	}
	return true, s.saveSnapshot(ctx, comp.GetId())
}

// mergeNewRemote integrates the new remote of a rebound component into the
// local commits per its merge_style. A conflict is recorded as a failed
// merge (with its MergeFailure alert) and the import goes on with the
// local files: nothing is dropped, and the push waits for the conflict to
// be resolved.
func (s *Server) mergeNewRemote(ctx context.Context, comp *catalogv1.Component, repo *workcopy.Repo) error {
	style, failed := workcopy.StyleMerge, actionMergeFailed
	if comp.GetMergeStyle() == typev1.MergeStyle_MERGE_STYLE_REBASE {
		style, failed = workcopy.StyleRebase, actionRebaseFail
	}
	if _, err := repo.Merge(style, s.newMessageContext(ctx, comp).renderMerge(), s.cfg.Git.committer()); err != nil {
		_, ferr := s.mergeFailed(ctx, comp, "", failed, err)
		return ferr
	}
	return s.cfg.Store.SetMergeFailure(ctx, comp.GetId(), "")
}

// recordBranch tells the catalog, through the outbox of import outcomes
// (store.Outcomes), which branch the remote HEAD named; a failure only
// costs the display of the branch.
func (s *Server) recordBranch(ctx context.Context, comp *catalogv1.Component, branch string) {
	err := s.cfg.Store.RecordImportOutcome(ctx, &catalogv1.ImportOutcome{ComponentId: comp.GetId(), Branch: branch})
	if err != nil {
		s.cfg.Log.Warn("record branch", "component", comp.GetId(), "err", err)
		return
	}
	s.cfg.Outcome()
}

// GetTask reports an import task, or the latest of a component, of a
// project the caller may see.
func (s *Server) GetTask(ctx context.Context, req *translationv1.GetTaskRequest) (*translationv1.GetTaskResponse, error) {
	var (
		t   store.Task
		err error
	)
	if req.GetId() == "" {
		t, err = s.cfg.Store.LatestTask(ctx, req.GetComponentId())
	} else {
		t, err = s.cfg.Store.GetTask(ctx, req.GetId())
	}
	if err != nil {
		return nil, err
	}
	if t.ComponentID == 0 && t.ProjectSlug != "" {
		err = s.mustSee(ctx, t.ProjectSlug)
	} else {
		err = s.mustSeeComponent(ctx, t.ComponentID)
	}
	if err != nil {
		return nil, err
	}
	return &translationv1.GetTaskResponse{Task: taskProto(t)}, nil
}

// ForgetComponent is ForgetComponents of one component.
func (s *Server) ForgetComponent(ctx context.Context, req *translationv1.ForgetComponentRequest) (*translationv1.ForgetComponentResponse, error) {
	_, err := s.ForgetComponents(ctx, &translationv1.ForgetComponentsRequest{ComponentIds: []int64{req.GetComponentId()}})
	if err != nil {
		return nil, err
	}
	return &translationv1.ForgetComponentResponse{}, nil
}

// ForgetComponents drops the rows and working copies of deleted components
// and the labels of deleted projects: the consumer of the catalog's
// removal outbox, which delivers each delete until this succeeds, so
// forgetting what is already gone succeeds. Each component is forgotten
// under its working copy lock, after any import or repository operation
// holding it; those check the component still exists once they hold the
// lock (lockLive), so none writes it back afterwards.
func (s *Server) ForgetComponents(ctx context.Context, req *translationv1.ForgetComponentsRequest) (*translationv1.ForgetComponentsResponse, error) {
	if _, restricted := policy.Restricted(ctx); restricted {
		return nil, errs.New(errs.PermissionDenied, "Only the services forget deleted components.")
	}
	for _, id := range req.GetComponentIds() {
		if err := s.forget(ctx, id); err != nil {
			return nil, err
		}
	}
	if err := s.cfg.Store.ForgetCatalogComponents(ctx, req.GetComponentIds()); err != nil {
		return nil, err
	}
	if err := s.cfg.Store.ForgetProjects(ctx, req.GetProjectIds()); err != nil {
		return nil, err
	}
	if err := s.cfg.Store.ForgetMemoryProjects(ctx, req.GetProjectSlugs()); err != nil {
		return nil, err
	}
	return &translationv1.ForgetComponentsResponse{}, nil
}

// RenameComponents gives the translations of components the slugs the
// catalog names them by now (delivered by the catalog's outbox).
func (s *Server) RenameComponents(ctx context.Context, req *translationv1.RenameComponentsRequest) (*translationv1.RenameComponentsResponse, error) {
	if _, restricted := policy.Restricted(ctx); restricted {
		return nil, errs.New(errs.PermissionDenied, "Only the services rename components.")
	}
	names := make([]store.ComponentName, len(req.GetComponents()))
	for i, c := range req.GetComponents() {
		if c.GetProjectSlug() == "" || c.GetComponentSlug() == "" {
			return nil, errs.Invalid(fmt.Sprintf("components.%d", i), "required", "Both slugs are required.")
		}
		names[i] = store.ComponentName{ComponentID: c.GetComponentId(), ProjectSlug: c.GetProjectSlug(), ComponentSlug: c.GetComponentSlug()}
	}
	if err := s.cfg.Store.RenameComponents(ctx, names); err != nil {
		return nil, err
	}
	return &translationv1.RenameComponentsResponse{}, nil
}

func (s *Server) forget(ctx context.Context, componentID int64) error {
	release, err := s.holdRepo(ctx, componentID)
	if err != nil {
		return err
	}
	defer release()
	if err := s.cfg.Store.ForgetComponent(ctx, componentID); err != nil {
		return err
	}
	if err := s.cfg.Repos.Remove(componentID); err != nil {
		return errs.Wrap(errs.Internal, err, "remove working copy")
	}
	return nil
}

// lockLive takes the working copy lock of comp and, holding it, checks
// that the catalog still has the component: a delete whose removal was
// forgotten while this call waited for the lock must not be written back.
func (s *Server) lockLive(ctx context.Context, comp *catalogv1.Component) (unlock func(), err error) {
	if unlock, err = s.holdRepo(ctx, comp.GetId()); err != nil {
		return nil, err
	}
	if _, err = s.cfg.Store.CatalogComponent(ctx, comp.GetId()); err != nil {
		unlock()
		if errs.Is(err, errs.NotFound) {
			return nil, errComponentGone
		}
		return nil, err
	}
	return unlock, nil
}

// errComponentGone is the answer of work on a component deleted meanwhile.
var errComponentGone = errs.NotFoundf("Not found.")

func taskProto(t store.Task) *translationv1.Task {
	return &translationv1.Task{Id: t.ID, ComponentId: t.ComponentID, Completed: t.Completed,
		Progress: int32(t.Progress), Error: t.Error, Log: t.Log} //nolint:gosec // G115: a percentage
}

// observeSince records the duration of an operation that started at start
// and ended with *err.
func observeSince(h *prometheus.HistogramVec, start time.Time, err *error) {
	h.WithLabelValues(obs.Result(*err)).Observe(time.Since(start).Seconds())
}

// ApplyCatalogSnapshots keeps the catalog's snapshots of projects in the
// service's copy (delivered by the catalog's outbox).
func (s *Server) ApplyCatalogSnapshots(ctx context.Context, req *translationv1.ApplyCatalogSnapshotsRequest) (*translationv1.ApplyCatalogSnapshotsResponse, error) {
	if err := s.applySnapshots(ctx, req.GetSnapshots()...); err != nil {
		return nil, err
	}
	if t := req.GetLanguages(); t != nil {
		if _, err := s.cfg.Store.ApplyLanguages(ctx, t); err != nil {
			return nil, err
		}
	}
	return &translationv1.ApplyCatalogSnapshotsResponse{}, nil
}

// applySnapshots keeps snapshots sent by the services' own calls (or a
// superuser) in the copy of the catalog; anyone else is refused, as a
// snapshot rewrites what every read sees.
func (s *Server) applySnapshots(ctx context.Context, snaps ...*translationv1.CatalogSnapshot) error {
	if _, restricted := policy.Restricted(ctx); restricted {
		return errs.New(errs.PermissionDenied, "Only the catalog sends its snapshots.")
	}
	for _, snap := range snaps {
		if _, err := s.cfg.Store.ApplySnapshot(ctx, snap); err != nil {
			return err
		}
	}
	return nil
}
