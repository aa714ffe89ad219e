package server

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/machinery"
	"github.com/tmsproject/tms/services/translation/search"
	"github.com/tmsproject/tms/services/translation/store"
)

// errAutoDenied is the reference's refusal of automatic translation.
const errAutoDenied = "Can not auto translate"

// filterQueries are the older filter_type values as queries.
var filterQueries = map[string]string{"all": "", "nottranslated": "state:empty", "todo": "state:<translated", "fuzzy": "state:needs-editing"}

// autoJob is a validated automatic translation.
type autoJob struct {
	task      string
	comp      *catalogv1.Component
	t         store.Translation
	src       string // the component's source language
	mode      string
	q         *search.Query
	others    bool
	sourceTs  []int64 // others: the translations to take from, in order
	engines   []string
	es        engineSet
	threshold int
	actor     string
	review    bool // the project reviews translations
	checks    store.CheckRules
}

// AutoTranslate validates the request as the reference's AutoForm and
// fills the strings in a task.
func (s *Server) AutoTranslate(ctx context.Context, req *translationv1.AutoTranslateRequest) (*translationv1.AutoTranslateResponse, error) { //nolint:contextcheck // the task outlives the call: it runs on the server's context
	comp, t, err := s.componentTranslation(ctx, req.GetComponentId(), req.GetLanguageCode())
	if err != nil {
		return nil, err
	}
	ok, err := s.may(ctx, "translation.auto", comp, t.LanguageCode, true)
	if err = orDeniedIf(ok && !comp.GetLocked() && !t.IsSource, err, errAutoDenied); err != nil {
		return nil, err
	}
	job, err := s.autoJob(ctx, comp, t, req)
	if err != nil {
		return nil, err
	}
	if err = s.mayAutoMode(ctx, comp, t, job.mode); err != nil {
		return nil, err
	}
	task, err := s.cfg.Store.CreateTaskOf(ctx, store.TaskAutoTranslate, uuid.NewString(), comp.GetId(), s.holder())
	if err != nil {
		return nil, err
	}
	job.task = task.ID
	tctx, stop := s.taskContext(s.ctx, task.ID) //nolint:contextcheck // the task outlives the call
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		defer stop()
		s.runAuto(tctx, job)
	}()
	return &translationv1.AutoTranslateResponse{Task: taskProto(task)}, nil
}

// mayAutoMode checks the permission of the mode's edits.
func (s *Server) mayAutoMode(ctx context.Context, comp *catalogv1.Component, t store.Translation, mode string) error {
	if mode == "suggest" {
		if !comp.GetEnableSuggestions() {
			return errSuggestionsOff
		}
		return s.require(ctx, "suggestion.add", comp, t.LanguageCode)
	}
	return s.require(ctx, "unit.edit", comp, t.LanguageCode)
}

// autoJob validates the request's fields, each error on the REST form's
// field name.
func (s *Server) autoJob(ctx context.Context, comp *catalogv1.Component, t store.Translation, req *translationv1.AutoTranslateRequest) (autoJob, error) {
	job := autoJob{comp: comp, t: t, mode: req.GetMode(), others: req.GetAutoSource() == "others",
		threshold: int(req.GetThreshold()), actor: req.GetActor()}
	var v errs.Violations
	choice(&v, "mode", job.mode, "translate", "fuzzy", "suggest")
	choice(&v, "auto_source", req.GetAutoSource(), "others", "mt")
	job.q = autoQuery(&v, req.GetQ(), req.GetFilterType())
	switch th := req.GetThreshold(); {
	case th == 0:
		v.Add("threshold", "required", "This field is required.")
	case th < 1:
		v.Add("threshold", "min_value", "Ensure this value is greater than or equal to 1.")
	case th > 100:
		v.Add("threshold", "max_value", "Ensure this value is less than or equal to 100.")
	}
	var err error
	if job.src, err = s.cfg.Store.SourceLanguage(ctx, comp.GetId()); err != nil {
		return job, err
	}
	if req.GetAutoSource() == "mt" {
		if job.es, err = s.projectEngines(ctx, comp.GetProjectSlug()); err != nil {
			return job, err
		}
		job.engines = autoEngines(&v, job.es, req.GetEngines())
	} else if job.others {
		if job.sourceTs, err = s.autoSources(ctx, &v, comp, t, job.src, req.GetComponent()); err != nil {
			return job, err
		}
	}
	if err = v.Err(); err != nil {
		return job, err
	}
	p, err := s.project(ctx, comp)
	if err != nil {
		return job, err
	}
	job.review = p.GetTranslationReview()
	job.checks, err = s.checkRules(ctx, comp)
	return job, err
}

func choice(v *errs.Violations, field, value string, choices ...string) {
	switch {
	case value == "":
		v.Add(field, "required", "This field is required.")
	case !slices.Contains(choices, value):
		v.Add(field, "invalid_choice", fmt.Sprintf("Select a valid choice. %s is not one of the available choices.", value))
	}
}

// autoQuery is q, or the older filter_type as a query.
func autoQuery(v *errs.Violations, q, filter string) *search.Query {
	field := "q"
	if q == "" && filter != "" {
		field = "filter_type"
		mapped, ok := filterQueries[filter]
		switch {
		case ok:
			q = mapped
		case strings.HasPrefix(filter, "check:"):
			q = filter
		default:
			v.Add(field, "invalid_choice", fmt.Sprintf("Select a valid choice. %s is not one of the available choices.", filter))
			return nil
		}
	}
	if q == "" && field == "q" {
		v.Add("q", "required", "This field is required.")
		return nil
	}
	parsed, err := search.Parse(strings.TrimSpace(q))
	if err != nil {
		v.Add(field, "invalid", fmt.Sprintf("Could not parse query string: %s", err))
	}
	return parsed
}

// autoEngines checks the engines asked for against those configured.
func autoEngines(v *errs.Violations, es engineSet, asked []string) []string {
	known := es.ids()
	var out []string
	for _, id := range known { // in rank order
		if slices.Contains(asked, id) {
			out = append(out, id)
		}
	}
	for _, id := range asked {
		switch why, broken := es.broken[id]; {
		case broken:
			v.Add("engines", "invalid_choice", why)
		case !slices.Contains(known, id):
			v.Add("engines", "invalid_choice", fmt.Sprintf("Select a valid choice. %s is not one of the available choices.", id))
		}
	}
	return out
}

// autoSources are the translations automatic translation takes from:
// the named component's into the language, or those of every other
// component of the project with the same source language.
func (s *Server) autoSources(ctx context.Context, v *errs.Violations, comp *catalogv1.Component, t store.Translation, src, named string) ([]int64, error) {
	if named == "" {
		ts, err := s.cfg.Store.TranslationsIn(ctx, comp.GetProjectSlug(), t.LanguageCode)
		if err != nil {
			return nil, err
		}
		hidden, err := s.hidden(ctx)
		if err != nil {
			return nil, err
		}
		var out []int64
		for _, o := range ts {
			if o.ComponentID == comp.GetId() || slices.Contains(hidden.Components, o.ComponentID) {
				continue
			}
			if os, serr := s.cfg.Store.SourceLanguage(ctx, o.ComponentID); serr != nil {
				return nil, serr
			} else if os == src {
				out = append(out, o.ID)
			}
		}
		return out, nil
	}
	other, err := s.namedComponent(ctx, comp, named)
	if errs.Is(err, errs.NotFound) {
		v.Add("component", "invalid", "Component not found!")
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if ok, cerr := s.sharesWith(ctx, comp, other); cerr != nil || !ok {
		v.Add("component", "invalid", "Project has disabled contribution to shared translation memory.")
		return nil, cerr
	}
	if os, serr := s.cfg.Store.SourceLanguage(ctx, other.GetId()); serr != nil || os != src {
		v.Add("component", "invalid", "Source component needs to have same source language as target one.")
		return nil, serr
	}
	ot, err := s.cfg.Store.GetTranslation(ctx, other.GetId(), t.LanguageCode)
	if errs.Is(err, errs.NotFound) {
		return nil, nil // nothing to take
	}
	return []int64{ot.ID}, err
}

// namedComponent resolves a component named by id, "project/component"
// or a slug of comp's project, as the caller may see it.
func (s *Server) namedComponent(ctx context.Context, comp *catalogv1.Component, named string) (*catalogv1.Component, error) {
	if id, err := strconv.ParseInt(named, 10, 64); err == nil {
		return s.component(ctx, id)
	}
	project, slug, ok := strings.Cut(named, "/")
	if !ok {
		project, slug = comp.GetProjectSlug(), named
	}
	other, err := s.cfg.Store.CatalogComponentBySlugs(ctx, project, slug)
	if err != nil {
		return nil, err
	}
	return other, s.mustSee(ctx, project)
}

// sharesWith tells whether comp may take translations from other: one of
// its own project, or of a project contributing to the shared memory.
func (s *Server) sharesWith(ctx context.Context, comp, other *catalogv1.Component) (bool, error) {
	if other.GetProjectSlug() == comp.GetProjectSlug() || s.cfg.Projects == nil {
		return true, nil
	}
	return s.cfg.Projects.Contributes(ctx, other.GetProjectSlug())
}

// runAuto is the body of an automatic translation task.
func (s *Server) runAuto(ctx context.Context, job autoJob) {
	ctx = policy.System(ctx)
	start := time.Now()
	updated, warnings, err := s.autoTranslate(ctx, job)
	done := context.WithoutCancel(ctx)
	for _, w := range warnings {
		s.taskProgress(done, job.task, -1, w)
	}
	failure := ""
	switch {
	case taskCancelled(ctx):
		failure = cancelledTask
	case err != nil:
		failure = "Automatic translation failed: " + err.Error()
	default:
		s.taskProgress(done, job.task, -1, fmt.Sprintf("[%.2fs] %s", time.Since(start).Seconds(), AutoMessage(updated)))
	}
	if ferr := s.cfg.Store.FinishTask(done, job.task, failure); ferr != nil {
		s.cfg.Log.Error("finish task", "task", job.task, "err", ferr)
	}
	s.cfg.Notify()
}

// AutoMessage is the reference's answer of a finished automatic
// translation.
func AutoMessage(updated int) string {
	switch updated {
	case 0:
		return "Automatic translation completed, no strings were updated."
	case 1:
		return "Automatic translation completed, 1 string was updated."
	}
	return fmt.Sprintf("Automatic translation completed, %d strings were updated.", updated)
}

// autoTranslate finds the strings, their translations, and applies them.
func (s *Server) autoTranslate(ctx context.Context, job autoJob) (int, []string, error) {
	ids, err := s.cfg.Store.SearchUnitIDs(ctx, job.t.ID, job.q, store.Hidden{})
	if err != nil {
		return 0, nil, err
	}
	all, err := s.cfg.Store.UnitsByID(ctx, ids)
	if err != nil {
		return 0, nil, err
	}
	units := slices.DeleteFunc(all, func(u store.Unit) bool {
		return readOnly(u, job.t) || job.mode == "suggest" && u.HasSuggestion
	})
	var found map[int64]string
	var warnings []string
	if job.others {
		found, err = s.fromOthers(ctx, job, units)
	} else {
		found, warnings, err = s.fromEngines(ctx, job, units)
	}
	if err != nil || len(found) == 0 {
		return 0, warnings, err
	}
	n, err := s.applyAuto(ctx, job, found)
	return n, warnings, err
}

// fromOthers takes each string's translation from the source
// translations, matched by the very source text (context is not
// compared, as in the reference).
func (s *Server) fromOthers(ctx context.Context, job autoJob, units []store.Unit) (map[int64]string, error) {
	if len(job.sourceTs) == 0 || len(units) == 0 {
		return nil, nil
	}
	var sources []string
	for _, u := range units {
		sources = append(sources, u.Source)
	}
	slices.Sort(sources)
	got, err := s.cfg.Store.TranslatedSources(ctx, job.sourceTs, slices.Compact(sources))
	if err != nil {
		return nil, err
	}
	out := map[int64]string{}
	for _, u := range units {
		target, ok := got[u.Source]
		if ok && len(store.Split(target)) == pluralForms(store.UnitView{Unit: u, Translation: job.t}) {
			out[u.ID] = target
		}
	}
	return out, nil
}

// autoBatch is how many strings one engine call translates.
const autoBatch = 20

// fromEngines asks each engine in rank order for the strings no earlier
// engine translated. An engine refusing more requests leaves a warning
// and the rest to the next; any other failure ends the task.
func (s *Server) fromEngines(ctx context.Context, job autoJob, units []store.Unit) (map[int64]string, []string, error) {
	out := map[int64]string{}
	var warnings []string
	for _, id := range job.engines {
		var left []store.Unit
		for _, u := range units {
			if _, ok := out[u.ID]; !ok {
				left = append(left, u)
			}
		}
		if id == memoryEngine && len(left) > autoBatch {
			if err := s.cfg.Store.MergeMemoryIndex(ctx); err != nil {
				return nil, warnings, err
			}
		}
		for start := 0; start < len(left); start += autoBatch {
			if ctx.Err() != nil {
				return nil, warnings, ctx.Err()
			}
			got, err := s.fill(ctx, job.es, id, job.src, job.t, left[start:min(start+autoBatch, len(left))], job.threshold)
			if machinery.RateLimited(err) {
				warnings = append(warnings, fmt.Sprintf("%s refused further requests, so some strings were left untranslated. Try again later.", id))
				break
			}
			if err != nil {
				return nil, warnings, fmt.Errorf("%s: %w", id, err)
			}
			for _, f := range got {
				out[f.unitID] = f.target
			}
		}
	}
	return out, warnings, nil
}

// applyAuto writes the translations found, as edits recording
// "Automatically translated" or as suggestions, and counts the strings
// changed. Read-only strings, and approved ones in a project that
// reviews, are left alone.
func (s *Server) applyAuto(ctx context.Context, job autoJob, found map[int64]string) (int, error) {
	ids := make([]int64, 0, len(found))
	for id := range found {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	updated := 0
	if job.mode == "suggest" {
		err := s.cfg.Store.AddSuggestionBatches(ctx, job.actor, func(apply func([]store.NewSuggestion) ([]bool, error)) error {
			for start := 0; start < len(ids); start += uploadBatch {
				var sgs []store.NewSuggestion
				for _, id := range ids[start:min(start+uploadBatch, len(ids))] {
					sgs = append(sgs, store.NewSuggestion{UnitID: id, Target: found[id]})
				}
				added, err := apply(sgs)
				updated += countTrue(added)
				if err != nil {
					return err
				}
			}
			return nil
		})
		return updated, err
	}
	state := weblate.StateTranslated
	if job.mode == "fuzzy" {
		state = weblate.StateFuzzy
	}
	err := s.cfg.Store.EditBatches(ctx, func(apply store.ApplyEdits) error {
		for start := 0; start < len(ids); start += uploadBatch {
			batch := ids[start:min(start+uploadBatch, len(ids))]
			edited, err := apply(batch, func(_ int, cur store.UnitView) (store.Edit, error) {
				target := found[cur.ID]
				if readOnly(cur.Unit, cur.Translation) || (cur.Target == target && cur.State == state) ||
					(cur.State == weblate.StateApproved && job.review) || len(store.Split(target)) != pluralForms(cur) {
					return store.Edit{}, store.ErrSkipEdit
				}
				c := editChange(cur, state, job.actor, target)
				c.Action = typev1.ChangeAction_CHANGE_ACTION_AUTO
				return store.Edit{Target: target, State: state, Author: job.actor, Checks: job.checks,
					Changes: []*changelogv1.Change{c}}, nil
			})
			updated += countTrue(edited)
			if err != nil {
				return err
			}
		}
		return nil
	})
	return updated, err
}

func countTrue(bs []bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}
