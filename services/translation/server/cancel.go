package server

import (
	"context"
	"errors"
	"time"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// errTaskCancelled is the cause of a task's context cancelled on request.
var errTaskCancelled = errors.New("task cancelled")

// cancelledTask is the failure of a cancelled task.
const cancelledTask = "The task was cancelled."

// cancelPoll is how often a running task looks for a cancellation asked on
// another replica.
const cancelPoll = time.Second

// taskContext is the context a background task runs under: parent,
// cancelled with errTaskCancelled once someone asks (CancelTask) on this
// replica at once, or on another through the task's row. stop releases it
// when the task is done.
func (s *Server) taskContext(parent context.Context, id string) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancelCause(parent)
	s.running.Store(id, cancel)
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(cancelPoll)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
				if asked, err := s.cfg.Store.TaskCancelled(ctx, id); err == nil && asked {
					cancel(errTaskCancelled)
					return
				}
			}
		}
	}()
	return ctx, func() {
		close(done)
		s.running.Delete(id)
		cancel(nil)
	}
}

// taskCancelled tells whether a task's context ended on request.
func taskCancelled(ctx context.Context) bool { return errors.Is(context.Cause(ctx), errTaskCancelled) }

// CancelTask stops a running task of a component the caller may edit, as
// the reference's task revocation: the replica running it stops at its
// next step and finishes it as failed ("The task was cancelled."). A task
// already finished is left as it is.
func (s *Server) CancelTask(ctx context.Context, req *translationv1.CancelTaskRequest) (*translationv1.CancelTaskResponse, error) {
	t, err := s.cfg.Store.GetTask(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	if err = s.mayCancel(ctx, t); err != nil {
		return nil, err
	}
	if _, err = s.cfg.Store.CancelTask(ctx, t.ID); err != nil {
		return nil, err
	}
	if cancel, ok := s.running.Load(t.ID); ok {
		cancel.(context.CancelCauseFunc)(errTaskCancelled)
	}
	return &translationv1.CancelTaskResponse{}, nil
}

// mayCancel answers NotFound unless the caller sees the task's project,
// PermissionDenied unless it may edit its component (memory.edit on the
// project, for a memory import).
func (s *Server) mayCancel(ctx context.Context, t store.Task) error {
	if t.ComponentID == 0 && t.ProjectSlug != "" {
		if err := s.mustSee(ctx, t.ProjectSlug); err != nil {
			return err
		}
		return s.require(ctx, "memory.edit", &catalogv1.Component{ProjectSlug: t.ProjectSlug}, "")
	}
	if err := s.mustSeeComponent(ctx, t.ComponentID); err != nil {
		return err
	}
	comp, err := s.component(ctx, t.ComponentID)
	if err != nil {
		return err
	}
	return s.require(ctx, "component.edit", comp, "")
}
