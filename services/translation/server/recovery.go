package server

import (
	"context"
	"errors"
	"time"

	"github.com/google/uuid"
	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// The reference's alert names: an import that failed (the repository
// could not be fetched, or its files could not be read), a merge and a
// push that failed.
const (
	alertUpdateFailure = "UpdateFailure"
	alertParseError    = "ParseError"
	// A merge or rebase, and a push, that failed; standing until one
	// succeeds.
	alertMergeFailure = "MergeFailure"
	alertPushFailure  = "PushFailure"
)

// importFailure is a failed import with the alert it raises.
type importFailure struct {
	alert string
	err   error
}

func (f importFailure) Error() string { return f.err.Error() }
func (f importFailure) Unwrap() error { return f.err }

// importOutcome keeps the component's import alerts in step with the last
// import: a failure raises its alert (with an "Alert triggered" record the
// first time), a success clears both.
func (s *Server) importOutcome(ctx context.Context, comp *catalogv1.Component, err error, detail string) error {
	var f importFailure
	if err == nil {
		return s.cfg.Store.ClearAlerts(ctx, comp.GetId(), alertUpdateFailure, alertParseError)
	}
	if !errors.As(err, &f) || errors.Is(err, context.Canceled) {
		return nil // not the repository's fault: nothing to alert on
	}
	other := alertParseError
	if f.alert == alertParseError {
		other = alertUpdateFailure
	}
	if cerr := s.cfg.Store.ClearAlerts(ctx, comp.GetId(), other); cerr != nil {
		return cerr
	}
	return s.cfg.Store.RaiseAlert(ctx, comp.GetId(), f.alert, detail,
		change(comp, actionAlert, "", map[string]any{"alert": f.alert}))
}

// needsImport tells whether the component's files were never brought in
// whole: its latest import failed, or it has no working copy.
func (s *Server) needsImport(ctx context.Context, comp *catalogv1.Component) (bool, error) {
	t, err := s.cfg.Store.LatestTask(ctx, comp.GetId())
	switch {
	case err == nil && !t.Completed:
		return false, nil // running: the operation waits for its lock
	case err == nil && t.Error != "":
		return true, nil
	case err != nil && !errs.Is(err, errs.NotFound):
		return false, err
	}
	has, err := s.hasCopy(ctx, comp.GetId())
	return !has, err
}

// importAsOperation runs a whole import as the answer to pull or reset on
// a component whose import failed: recorded as a task like any import, the
// outcome is the operation's result.
func (s *Server) importAsOperation(ctx context.Context, comp *catalogv1.Component) (opResult, error) {
	task, err := s.cfg.Store.CreateTask(ctx, uuid.NewString(), comp.GetId(), s.holder())
	if err != nil {
		return opResult{}, err
	}
	if err := s.runImport(ctx, task.ID, comp); err != nil {
		return opResult{detail: s.scrub(comp, err)}, nil
	}
	return opResult{ok: true}, nil
}

// ResumeImports runs again the imports a dead process left unfinished
// (their components, from TakeOverImports). The catalog may not
// serve yet in a split deployment: each component is retried until ctx ends.
func (s *Server) ResumeImports(ctx context.Context, componentIDs []int64) {
	for _, id := range componentIDs {
		for wait := time.Second; ; wait = min(2*wait, time.Minute) {
			comp, err := s.component(ctx, id)
			if err == nil {
				if _, err = s.startImport(ctx, comp); err == nil {
					break
				}
			}
			if errs.Is(err, errs.NotFound) {
				break // deleted meanwhile
			}
			s.cfg.Log.Warn("resume interrupted import", "component", id, "err", err, "retry_in", wait)
			select {
			case <-ctx.Done():
				return
			case <-time.After(wait):
			}
		}
	}
}

// ListAlerts lists the standing alerts of a component the caller may see.
func (s *Server) ListAlerts(ctx context.Context, req *translationv1.ListAlertsRequest) (*translationv1.ListAlertsResponse, error) {
	if err := s.mustSeeComponent(ctx, req.GetComponentId()); err != nil {
		return nil, err
	}
	alerts, err := s.cfg.Store.Alerts(ctx, req.GetComponentId())
	if err != nil {
		return nil, err
	}
	out := &translationv1.ListAlertsResponse{}
	for _, a := range alerts {
		out.Alerts = append(out.Alerts, alertProto(a))
	}
	return out, nil
}

func alertProto(a store.Alert) *translationv1.Alert {
	return &translationv1.Alert{Name: a.Name, Detail: a.Detail,
		CreateTime: timestamppb.New(a.CreatedAt.UTC()), UpdateTime: timestamppb.New(a.UpdatedAt.UTC())}
}
