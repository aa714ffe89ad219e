package server

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/services/translation/store"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// Leases is what the server takes leases with (lease.Leases).
type Leases interface {
	Acquire(ctx context.Context, name string, ttl time.Duration) (bool, error)
	Release(ctx context.Context, name string) error
	Holding(ctx context.Context, name string) (holder string, until time.Time, err error)
	Holder() string
}

// DefaultRepoLease is how long a component's repository lease lasts
// without renewal; the holder renews it every third of that while it
// works, so only a dead holder lets it run out.
const DefaultRepoLease = 30 * time.Second

func (s *Server) repoLease() time.Duration {
	if s.cfg.RepoLease > 0 {
		return s.cfg.RepoLease
	}
	return DefaultRepoLease
}

func repoLeaseName(componentID int64) string {
	return "translation.repo." + strconv.FormatInt(componentID, 10)
}

// holdRepo serialises the repository work of a component across replicas:
// the process's own lock, then the component's lease in the database,
// waited for until ctx ends. The returned release records what the
// working copy holds that the remote does not (saveSnapshot), then gives
// both up.
func (s *Server) holdRepo(ctx context.Context, componentID int64) (release func(), err error) {
	unlock := s.cfg.Repos.Lock(componentID)
	stop := func() {}
	if s.cfg.Leases != nil {
		if stop, err = s.takeLease(ctx, repoLeaseName(componentID)); err != nil {
			unlock()
			return nil, err
		}
	}
	return func() {
		done, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		if err := s.saveSnapshot(done, componentID); err != nil {
			s.cfg.Log.Warn("keep the unpushed commits in the database", "component", componentID, "err", err)
		}
		stop()
		unlock()
	}, nil
}

// takeLease waits for the named lease and keeps it renewed until the
// returned stop releases it.
func (s *Server) takeLease(ctx context.Context, name string) (stop func(), err error) {
	ttl, start := s.repoLease(), time.Now()
	for wait := 20 * time.Millisecond; ; wait = min(2*wait, 500*time.Millisecond) {
		held, err := s.cfg.Leases.Acquire(ctx, name, ttl)
		if err != nil {
			return nil, err
		}
		if held {
			break
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
	}
	if waited := time.Since(start); waited > ttl/2 {
		s.cfg.Log.Info("repository lease taken over", "lease", name, "waited", waited.Round(time.Millisecond))
	}
	renewCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	renewed := make(chan struct{})
	go func() {
		defer close(renewed)
		t := time.NewTicker(ttl / 3)
		defer t.Stop()
		for {
			select {
			case <-renewCtx.Done():
				return
			case <-t.C:
				if held, err := s.cfg.Leases.Acquire(renewCtx, name, ttl); err != nil || !held {
					s.cfg.Log.Warn("repository lease not renewed", "lease", name, "held", held, "err", err)
				}
			}
		}
	}()
	return func() {
		cancel()
		<-renewed
		rctx, rcancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer rcancel()
		if err := s.cfg.Leases.Release(rctx, name); err != nil {
			s.cfg.Log.Warn("release repository lease", "lease", name, "err", err)
		}
	}, nil
}

// openRepo opens the component's working copy as the database knows it:
// one at the snapshot's commit is used as it is; a missing or outdated one
// (another replica worked on the component since) is rebuilt from the
// remote and the snapshot. Without a snapshot (never imported) it is the
// copy on disk, if any. The caller holds the component (holdRepo).
func (s *Server) openRepo(ctx context.Context, componentID int64) (*workcopy.Repo, error) {
	snap, ok, err := s.cfg.Store.GetSnapshot(ctx, componentID)
	if err != nil {
		return nil, err
	}
	repo, oerr := s.cfg.Repos.Open(componentID)
	if !ok {
		return repo, oerr
	}
	want := workcopy.Snapshot{Branch: snap.Branch, Head: snap.Head, RemoteHead: snap.RemoteHead, Pack: snap.Pack}
	if oerr == nil && repo.Matches(want) {
		return repo, nil
	}
	// An outdated copy catches up: the remote's new commits fetched, the
	// snapshot's added; a clone is the last resort.
	if oerr == nil && repo.CatchUp(ctx, want) == nil {
		return repo, nil
	}
	s.cfg.Log.Info("rebuilding working copy", "component", componentID, "head", snap.Head, "unpushed_bytes", len(snap.Pack))
	return s.cfg.Repos.Rebuild(ctx, componentID, snap.URL, want)
}

// refreshRepo brings the working copy up to date with the database before
// its files are read or written directly; a component with no copy
// anywhere is left as it is (the caller reports the missing file).
func (s *Server) refreshRepo(ctx context.Context, componentID int64) error {
	if _, err := s.openRepo(ctx, componentID); err != nil {
		if has, herr := s.hasCopy(ctx, componentID); herr != nil || has {
			return errs.Wrap(errs.FailedPrecondition, errors.Join(err, herr), "The repository is not available.")
		}
	}
	return nil
}

// saveSnapshot records the working copy's unpushed commits in the
// database when its HEAD or remote-tracking branch moved since the last
// record, so that losing this replica's disk loses nothing.
func (s *Server) saveSnapshot(ctx context.Context, componentID int64) error {
	repo, err := s.cfg.Repos.Open(componentID)
	if err != nil {
		return nil // no working copy (removed, or never cloned): nothing to keep
	}
	head, remoteHead, err := repo.Position()
	if err != nil {
		return nil //nolint:nilerr // an empty repository has no HEAD yet: nothing to keep
	}
	st, err := repo.State()
	if err != nil {
		return err
	}
	state, err := json.Marshal(st)
	if err != nil {
		return err
	}
	last, ok, err := s.cfg.Store.GetSnapshot(ctx, componentID)
	if err != nil {
		return err
	}
	moved := !ok || last.Head != head || last.RemoteHead != remoteHead || last.Branch != repo.Branch
	if !moved && last.State == string(state) {
		return nil
	}
	snap := workcopy.Snapshot{Branch: last.Branch, Head: last.Head, RemoteHead: last.RemoteHead, Pack: last.Pack}
	if moved {
		if snap, err = repo.Snapshot(ctx); err != nil {
			return err
		}
	}
	url, err := repo.OriginURL()
	if err != nil {
		return err
	}
	return s.cfg.Store.SaveSnapshot(ctx, store.Snapshot{ComponentID: componentID, URL: url, Branch: snap.Branch,
		Head: snap.Head, RemoteHead: snap.RemoteHead, Pack: snap.Pack, State: string(state)})
}

// hasCopy tells whether the component has a working copy to work on: on
// this disk, or in the database for any replica to rebuild.
func (s *Server) hasCopy(ctx context.Context, componentID int64) (bool, error) {
	if _, ok, err := s.cfg.Store.GetSnapshot(ctx, componentID); err != nil || ok {
		return ok, err
	}
	_, err := s.cfg.Repos.Open(componentID)
	return err == nil, nil
}

// Heartbeat: each process holds a lease of its own while it lives, so that
// the others know whose tasks are orphaned.
const (
	heartbeatTTL   = 10 * time.Second
	heartbeatEvery = 3 * time.Second
)

func heartbeatName(holder string) string { return "translation.replica." + holder }

// holder names this process in task rows ("" without leases).
func (s *Server) holder() string {
	if s.cfg.Leases == nil {
		return ""
	}
	return s.cfg.Leases.Holder()
}

// interruptedTask is the failure of an import whose process died.
const interruptedTask = "The service restarted during the task."

// TakeOverImports finishes, as failed, the imports a process that is gone
// left running, each taken over by one replica, and returns their
// components, whose imports the caller runs again (ResumeImports). Without
// leases (the database's only process) call it before serving: whatever
// runs then was left by a previous process.
func (s *Server) TakeOverImports(ctx context.Context) []int64 { return s.takeOverImports(ctx) }

// RunReplica keeps this process's heartbeat and, every interval, takes
// over the imports of processes that are gone, until ctx ends. Without
// leases it returns at once.
func (s *Server) RunReplica(ctx context.Context, interval time.Duration) {
	if s.cfg.Leases == nil {
		return
	}
	beat := time.NewTicker(heartbeatEvery)
	defer beat.Stop()
	sweep := time.NewTimer(0)
	defer sweep.Stop()
	// Resuming waits for the catalog; the heartbeat must not.
	var resuming sync.WaitGroup
	defer resuming.Wait()
	for {
		if _, err := s.cfg.Leases.Acquire(ctx, heartbeatName(s.holder()), heartbeatTTL); err != nil && ctx.Err() == nil {
			s.cfg.Log.Warn("replica heartbeat", "err", err)
		}
		select {
		case <-ctx.Done():
			rctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
			_ = s.cfg.Leases.Release(rctx, heartbeatName(s.holder()))
			cancel()
			return
		case <-beat.C:
		case <-sweep.C:
			if comps := s.takeOverImports(ctx); len(comps) > 0 {
				resuming.Go(func() { s.ResumeImports(ctx, comps) })
			}
			sweep.Reset(interval)
		}
	}
}

// takeOverImports finishes the running tasks of dead processes as failed,
// each taken over by one replica, and returns the components of the
// imports among them, which the caller runs again. A recheck is started
// again here; a bulk dismissal stays failed.
func (s *Server) takeOverImports(ctx context.Context) []int64 {
	running, err := s.cfg.Store.RunningTasks(ctx)
	if err != nil {
		s.cfg.Log.Warn("list running tasks", "err", err)
		return nil
	}
	var comps []int64
	for _, t := range running {
		if t.Holder == s.holder() && s.cfg.Leases != nil {
			continue // ours, running
		}
		if t.Holder != "" && s.cfg.Leases != nil {
			if alive, _, err := s.cfg.Leases.Holding(ctx, heartbeatName(t.Holder)); err != nil || alive != "" {
				continue
			}
		}
		failure := interruptedTask
		if t.Cancelled {
			failure = cancelledTask
		}
		took, err := s.cfg.Store.TakeOverTask(ctx, t.ID, t.Holder, s.holder(), failure)
		if err != nil {
			s.cfg.Log.Warn("take over task", "task", t.ID, "err", err)
			continue
		}
		switch {
		case !took, t.Cancelled: // a cancelled task is not run again
		case t.Kind == store.TaskRecheck || t.Kind == store.TaskEnforce: // idempotent: run again here
			if _, err := s.startRecheck(ctx, t.ComponentID, t.Kind == store.TaskEnforce); err != nil && !errs.Is(err, errs.NotFound) {
				s.cfg.Log.Warn("resume recheck", "component", t.ComponentID, "err", err)
			}
		case t.Kind == store.TaskDismiss, t.Kind == store.TaskAutoTranslate, t.Kind == store.TaskMemoryImport:
			// failed: the caller may ask again; each is idempotent
		case !slices.Contains(comps, t.ComponentID):
			comps = append(comps, t.ComponentID)
		}
	}
	return comps
}
