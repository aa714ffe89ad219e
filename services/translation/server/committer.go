package server

import (
	"context"
	"time"

	"github.com/tmsproject/tms/pkg/periodic"
)

// RunCommitter commits, every interval until ctx ends, the components
// whose oldest uncommitted edit is older than their commit_pending_age
// (hours), as Weblate's commit_pending task does.
func (s *Server) RunCommitter(ctx context.Context, interval time.Duration) {
	periodic.Run(ctx, interval, s.cfg.Log, "background commit", s.CommitAged)
}

// CommitAged commits the components whose pending work is old enough at now.
func (s *Server) CommitAged(ctx context.Context, now time.Time) error {
	since, err := s.cfg.Store.PendingSince(ctx)
	if err != nil {
		return err
	}
	for id, oldest := range since {
		comp, err := s.component(ctx, id)
		if err != nil {
			continue // component gone or catalog down: next round
		}
		if now.Sub(oldest) < time.Duration(comp.GetCommitPendingAge())*time.Hour {
			continue
		}
		if _, err := s.locked(ctx, comp, "", (*Server).opCommit); err != nil {
			s.cfg.Log.Warn("background commit", "component", id, "err", err)
		}
	}
	s.cfg.Notify()
	return nil
}
