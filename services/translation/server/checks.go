package server

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/checks"
	"github.com/tmsproject/tms/services/translation/search"
	"github.com/tmsproject/tms/services/translation/store"
)

// checkRules are the rules of the quality checks of comp's strings: the
// flags they start from, its effective check flags (its project's, its
// categories', its format's and its own, merged by the catalog in
// Weblate's order; the file's and the strings' own follow), its enforced
// checks, and the names whose words the same check ignores.
func (s *Server) checkRules(ctx context.Context, comp *catalogv1.Component) (store.CheckRules, error) {
	p, err := s.project(ctx, comp)
	if err != nil {
		return store.CheckRules{}, err
	}
	return projectCheckRules(p, comp), nil
}

// projectCheckRules are checkRules with comp's project p at hand.
func projectCheckRules(p *catalogv1.Project, comp *catalogv1.Component) store.CheckRules {
	return store.CheckRules{Flags: []string{comp.GetEffectiveCheckFlags()}, Enforced: comp.GetEnforcedChecks(), Propagate: comp.GetAllowTranslationPropagation(),
		Names: []string{p.GetName(), comp.GetName()}}
}

// errNoDismiss is the refusal of a dismissal: dismissing hides a quality
// problem from the counts releases are gated on, so it takes review
// rights.
const errNoDismiss = "You do not have permission to dismiss checks."

// errEnforced refuses the dismissal of an enforced check, which Weblate
// allows nobody.
const errEnforced = "An enforced check cannot be dismissed."

// ListUnitChecks lists the checks a unit fails, dismissed or not.
func (s *Server) ListUnitChecks(ctx context.Context, req *translationv1.ListUnitChecksRequest) (*translationv1.ListUnitChecksResponse, error) {
	comp, err := s.unitComponent(ctx, req.GetUnitId())
	if err != nil {
		return nil, err
	}
	rules, err := s.checkRules(ctx, comp)
	if err != nil {
		return nil, err
	}
	_, found, err := s.cfg.Store.UnitChecks(ctx, req.GetUnitId(), rules)
	if err != nil {
		return nil, err
	}
	out := &translationv1.ListUnitChecksResponse{Checks: make([]*translationv1.Check, len(found))}
	for i, c := range found {
		out.Checks[i] = checkProto(c)
	}
	return out, nil
}

// unitComponent is the component of unit id, NotFound when the caller may
// not see it.
func (s *Server) unitComponent(ctx context.Context, id int64) (*catalogv1.Component, error) {
	cur, err := s.cfg.Store.GetUnitScope(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.component(ctx, cur.ComponentID)
}

func checkProto(c store.ReportedCheck) *translationv1.Check {
	name := checks.Name(c.Name)
	if name == "" {
		name = c.Name
	}
	return &translationv1.Check{Id: c.Name, Name: name, Message: c.Message, Dismissed: c.Dismissed}
}

// DismissCheck dismisses or restores one check of a unit.
func (s *Server) DismissCheck(ctx context.Context, req *translationv1.DismissCheckRequest) (*translationv1.DismissCheckResponse, error) {
	cur, comp, err := s.unitAllowed(ctx, req.GetUnitId(), "unit.review", errNoDismiss)
	if err != nil {
		return nil, err
	}
	if err = s.cfg.Store.HasCheck(ctx, req.GetUnitId(), req.GetCheck()); err != nil {
		return nil, err
	}
	if !req.GetRestore() && slices.Contains(comp.GetEnforcedChecks(), req.GetCheck()) {
		return nil, errs.New(errs.PermissionDenied, errEnforced)
	}
	_, err = s.cfg.Store.DismissChecks(ctx, cur.TranslationID, []int64{req.GetUnitId()}, req.GetCheck(), !req.GetRestore(), req.GetActor())
	if err != nil {
		return nil, err
	}
	s.cfg.Notify()
	resp, err := s.ListUnitChecks(ctx, &translationv1.ListUnitChecksRequest{UnitId: req.GetUnitId()})
	if err != nil {
		return nil, err
	}
	for _, c := range resp.GetChecks() {
		if c.GetId() == req.GetCheck() {
			return &translationv1.DismissCheckResponse{Check: c}, nil
		}
	}
	return nil, errs.NotFoundf("The string has no failing check %s.", req.GetCheck())
}

// scopeComponents fetches the components of a check scope, each visible
// to the caller (else NotFound) and, with perm, one the caller holds perm
// on (else PermissionDenied).
func (s *Server) scopeComponents(ctx context.Context, sc *translationv1.CheckScope, perm string) ([]*catalogv1.Component, error) {
	if len(sc.GetComponentIds()) == 0 {
		return nil, errs.NotFoundf("Not found.")
	}
	out := make([]*catalogv1.Component, 0, len(sc.GetComponentIds()))
	for _, id := range sc.GetComponentIds() {
		comp, err := s.component(ctx, id)
		if err != nil {
			return nil, err
		}
		out = append(out, comp)
	}
	if perm == "" {
		return out, nil
	}
	for _, comp := range out {
		ok, err := s.may(ctx, perm, comp, sc.GetLanguageCode(), true)
		if err != nil || !ok {
			return nil, orDenied(err, errNoDismiss)
		}
	}
	return out, nil
}

// SummarizeChecks counts the failing and dismissed checks of a scope.
func (s *Server) SummarizeChecks(ctx context.Context, req *translationv1.SummarizeChecksRequest) (*translationv1.SummarizeChecksResponse, error) {
	if _, err := s.scopeComponents(ctx, req.GetScope(), ""); err != nil {
		return nil, err
	}
	ts, err := s.scopeTranslations(ctx, req.GetScope())
	if err != nil {
		return nil, err
	}
	ids := make([]int64, len(ts))
	for i, t := range ts {
		ids[i] = t.ID
	}
	counts, err := s.cfg.Store.CheckSummary(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := &translationv1.SummarizeChecksResponse{}
	for _, c := range counts {
		p := checkProto(store.ReportedCheck{Name: c.Name})
		out.Checks = append(out.Checks, &translationv1.CheckCount{Id: p.GetId(), Name: p.GetName(), Failing: c.Failing, Dismissed: c.Dismissed})
	}
	return out, nil
}

// scopeTranslations lists the translations of a check scope that the
// caller may see.
func (s *Server) scopeTranslations(ctx context.Context, sc *translationv1.CheckScope) ([]store.Translation, error) {
	hidden, err := s.hidden(ctx)
	if err != nil {
		return nil, err
	}
	return s.cfg.Store.ScopeTranslations(ctx, store.Scope{ComponentIDs: sc.GetComponentIds(), LanguageCode: sc.GetLanguageCode(), Hidden: hidden})
}

// DismissChecks starts a bulk dismissal (or restoration) as a task.
func (s *Server) DismissChecks(ctx context.Context, req *translationv1.DismissChecksRequest) (*translationv1.DismissChecksResponse, error) { //nolint:contextcheck // the task outlives the call: it runs on the server's context
	comps, err := s.scopeComponents(ctx, req.GetScope(), "unit.review")
	if err != nil {
		return nil, err
	}
	var v errs.Violations
	if req.GetCheck() == "" {
		v.Add("check", "required", "This field is required.")
	} else if checks.Name(req.GetCheck()) == "" {
		v.Add("check", "invalid", fmt.Sprintf("Unknown check: %s.", req.GetCheck()))
	}
	for _, comp := range comps {
		if !req.GetRestore() && slices.Contains(comp.GetEnforcedChecks(), req.GetCheck()) {
			v.Add("check", "invalid", errEnforced)
			break
		}
	}
	q, perr := search.Parse(strings.TrimSpace(req.GetQ()))
	if perr != nil {
		v.Add("q", "invalid", perr.Error())
	}
	if err = v.Err(); err != nil {
		return nil, err
	}
	ts, err := s.scopeTranslations(ctx, req.GetScope())
	if err != nil {
		return nil, err
	}
	task, err := s.cfg.Store.CreateTaskOf(ctx, store.TaskDismiss, uuid.NewString(), comps[0].GetId(), s.holder())
	if err != nil {
		return nil, err
	}
	hidden, err := s.hidden(ctx)
	if err != nil {
		return nil, err
	}
	job := dismissJob{task: task.ID, ts: ts, q: q, check: req.GetCheck(), dismiss: !req.GetRestore(), actor: req.GetActor(), hidden: hidden}
	tctx, stop := s.taskContext(s.ctx, task.ID)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer stop()
		s.runDismiss(tctx, job)
	}()
	return &translationv1.DismissChecksResponse{Task: taskProto(task)}, nil
}

// dismissJob is the work of a bulk dismissal: its translations, the
// query choosing the units, and what to do with their check.
type dismissJob struct {
	task         string
	ts           []store.Translation
	q            *search.Query
	check, actor string
	dismiss      bool
	hidden       store.Hidden
}

// runDismiss is the body of a bulk dismissal task: each translation in
// its own transaction, the task's log counting what changed.
func (s *Server) runDismiss(ctx context.Context, job dismissJob) {
	ctx = policy.System(ctx)
	total, failure := 0, ""
	for i, t := range job.ts {
		n, err := s.dismissIn(ctx, t, job)
		if err != nil {
			failure = err.Error()
			break
		}
		total += n
		s.taskProgress(ctx, job.task, 100*(i+1)/len(job.ts), "")
	}
	verb := "dismissed"
	if !job.dismiss {
		verb = "restored"
	}
	done := context.WithoutCancel(ctx)
	s.taskProgress(done, job.task, -1, fmt.Sprintf("%d checks %s", total, verb))
	if taskCancelled(ctx) {
		failure = cancelledTask
	}
	if err := s.cfg.Store.FinishTask(done, job.task, failure); err != nil {
		s.cfg.Log.Error("finish task", "task", job.task, "err", err)
	}
	s.cfg.Notify()
}

// dismissIn is runDismiss of one translation.
func (s *Server) dismissIn(ctx context.Context, t store.Translation, job dismissJob) (int, error) {
	q := job.q.And(search.Check(job.check, !job.dismiss))
	ids, err := s.cfg.Store.SearchUnitIDs(ctx, t.ID, q, job.hidden)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	return s.cfg.Store.DismissChecks(ctx, t.ID, ids, job.check, job.dismiss, job.actor)
}

// taskProgress records a task's progress (pct < 0: unchanged) and a log
// line; a failure to record is logged, not fatal to the task.
func (s *Server) taskProgress(ctx context.Context, id string, pct int, line string) {
	var err error
	if pct < 0 {
		err = s.cfg.Store.AppendTaskLog(ctx, id, line)
	} else {
		err = s.cfg.Store.UpdateTask(ctx, id, pct, line)
	}
	if err != nil {
		s.cfg.Log.Warn("task progress", "task", id, "err", err)
	}
}

// RecheckComponents starts a recheck task per known component.
func (s *Server) RecheckComponents(ctx context.Context, req *translationv1.RecheckComponentsRequest) (*translationv1.RecheckComponentsResponse, error) {
	if _, restricted := policy.Restricted(ctx); restricted {
		return nil, errs.New(errs.PermissionDenied, "Only the services recheck components.")
	}
	out := &translationv1.RecheckComponentsResponse{}
	for _, id := range req.GetComponentIds() {
		if slices.ContainsFunc(out.GetTasks(), func(t *translationv1.Task) bool { return t.GetComponentId() == id }) {
			continue
		}
		task, err := s.startRecheck(ctx, id, req.GetEnforce())
		if errs.Is(err, errs.NotFound) {
			continue // deleted meanwhile
		}
		if err != nil {
			return nil, err
		}
		out.Tasks = append(out.Tasks, taskProto(task))
	}
	return out, nil
}

// startRecheck runs a recheck task of component id in the background;
// with enforce, one that also applies the enforced checks.
func (s *Server) startRecheck(ctx context.Context, id int64, enforce bool) (store.Task, error) { //nolint:contextcheck // the task outlives the call: it runs on the server's context
	comp, err := s.component(policy.System(ctx), id)
	if err != nil {
		return store.Task{}, err
	}
	kind := store.TaskRecheck
	if enforce {
		kind = store.TaskEnforce
	}
	task, err := s.cfg.Store.CreateTaskOf(ctx, kind, uuid.NewString(), id, s.holder())
	if err != nil {
		return task, err
	}
	tctx, stop := s.taskContext(policy.System(s.ctx), task.ID)
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer stop()
		s.runRecheck(tctx, task.ID, comp, enforce)
	}()
	return task, nil
}

// runRecheck runs the checks of every translation of comp again, each in
// its own transaction, with the flags the component now has; with
// enforce, the translated strings failing an enforced check then need
// editing.
func (s *Server) runRecheck(ctx context.Context, taskID string, comp *catalogv1.Component, enforce bool) {
	failure := ""
	defer func() {
		if taskCancelled(ctx) {
			failure = cancelledTask
		}
		if err := s.cfg.Store.FinishTask(context.WithoutCancel(ctx), taskID, failure); err != nil {
			s.cfg.Log.Error("finish task", "task", taskID, "err", err)
		}
		s.cfg.Notify()
	}()
	rules, err := s.checkRules(ctx, comp)
	if err != nil {
		failure = err.Error()
		return
	}
	ts, _, err := s.cfg.Store.ListTranslations(ctx, []int64{comp.GetId()}, 0, 0, store.Hidden{})
	if err != nil {
		failure = err.Error()
		return
	}
	changed, demoted := 0, 0
	for i, t := range ts {
		n, err := s.cfg.Store.RecheckTranslation(ctx, t.ID, rules)
		changed += n
		if err == nil && enforce {
			n, err = s.applyEnforced(ctx, t, rules)
			demoted += n
		}
		if err != nil {
			failure = err.Error()
			return
		}
		s.taskProgress(ctx, taskID, 100*(i+1)/len(ts), "")
	}
	s.taskProgress(ctx, taskID, -1, fmt.Sprintf("%d strings changed their failing state, %d need editing", changed, demoted))
}

// updateSourceProps sets the extra flags and/or the explanation of a
// source string, as the reference allows: on a unit of the source
// translation, with source.edit.
func (s *Server) updateSourceProps(ctx context.Context, req *translationv1.UpdateUnitRequest) (*translationv1.UpdateUnitResponse, error) {
	cur, comp, err := s.unitAndComponent(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	ok, err := s.may(ctx, "source.edit", comp, cur.Translation.LanguageCode, true)
	if err != nil || !ok || !cur.Translation.IsSource {
		return nil, orDenied(err, "Source strings properties can be set only on source strings")
	}
	extra := strings.TrimSpace(req.GetExtraFlags())
	if req.GetSetExtraFlags() {
		if err = validateFlags(extra); err != nil {
			return nil, err
		}
	}
	v := cur
	if req.GetSetExplanation() { // DRF trims a text field's blanks
		if v, err = s.cfg.Store.SetExplanation(ctx, req.GetId(), strings.TrimSpace(req.GetExplanation())); err != nil {
			return nil, err
		}
	}
	if req.GetSetExtraFlags() {
		rules, rerr := s.checkRules(ctx, comp)
		if rerr != nil {
			return nil, rerr
		}
		if v, err = s.cfg.Store.SetExtraFlags(ctx, req.GetId(), extra, req.GetActor(), rules); err != nil {
			return nil, err
		}
		s.cfg.Notify()
	}
	return &translationv1.UpdateUnitResponse{Unit: s.withLabels(ctx, unitProto(v))}, nil
}

// validateFlags refuses flags text that does not parse, or a flag whose
// parameter must be a number and is not, as the reference's validator
// does.
func validateFlags(text string) error {
	parsed, err := checks.ParseFlags(text)
	if err != nil {
		return errs.Invalid("extra_flags", "invalid", "Invalid translation flags: "+err.Error())
	}
	var f checks.Flags
	f.Merge(parsed...)
	for _, name := range []string{"max-length", "max-lines"} {
		if !f.Has(name) {
			continue
		}
		if _, err := f.Int(name); err != nil {
			return errs.Invalid("extra_flags", "invalid", fmt.Sprintf("Invalid number for %s: %v", name, err))
		}
	}
	return nil
}

// applyEnforced makes the translated and approved strings of t that fail
// an enforced check (dismissed or not) need editing, as the reference's
// update_enforced_checks does, each recorded as "Applied enforced check"
// (76) by nobody; it returns how many.
func (s *Server) applyEnforced(ctx context.Context, t store.Translation, rules store.CheckRules) (int, error) {
	ids, err := s.cfg.Store.EnforcedFailures(ctx, t.ID, rules.Enforced)
	if err != nil || len(ids) == 0 {
		return 0, err
	}
	edited, err := s.cfg.Store.EditUnits(ctx, ids, func(_ int, u store.UnitView) (store.Edit, error) {
		if u.State != weblate.StateTranslated && u.State != weblate.StateApproved {
			return store.Edit{}, store.ErrSkipEdit // edited meanwhile
		}
		c := editChange(u, weblate.StateFuzzy, "", u.Target)
		c.Action = typev1.ChangeAction_CHANGE_ACTION_ENFORCED_CHECK
		return store.Edit{Target: u.Target, State: weblate.StateFuzzy, Checks: rules, Changes: []*changelogv1.Change{c}}, nil
	})
	n := 0
	for _, ok := range edited {
		if ok {
			n++
		}
	}
	return n, err
}
