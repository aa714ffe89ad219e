package server

import (
	"context"
	"fmt"
	"slices"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// uploadMerge is Weblate's merge_translations: each translated entry
// updates its unit (translate: 20, fuzzy or a processed fuzzy entry: 10,
// approve: 30) unless the conflicts option protects the unit's current
// text.
func (s *Server) uploadMerge(ctx context.Context, up *upload) error {
	index, err := s.unitKeys(ctx, up)
	if err != nil {
		return err
	}
	var edits plan[plannedEdit]
	defer edits.close()
	limit := s.cfg.Upload.changes()
	err = up.eachEntry(true, func(me mergeEntry) error {
		id, ok := index[up.entryKey(me.e)]
		if !ok {
			up.counts[0]++
			return nil
		}
		if edits.len() == limit {
			return errs.Invalid("file", "too_many", fmt.Sprintf("The file would change more than %d strings; one upload changes at most %d. Upload it in parts.", limit, limit))
		}
		state := weblate.StateTranslated
		switch {
		case up.method == "fuzzy" || me.setFuzzy:
			state = weblate.StateFuzzy
		case up.method == "approve":
			state = weblate.StateApproved
		}
		return edits.add(plannedEdit{ID: id, Target: store.Join(me.e.Target), State: state})
	})
	if err != nil {
		return err
	}
	if up.checks, err = s.checkRules(ctx, up.comp); err != nil {
		return err
	}
	return s.cfg.Store.EditBatches(ctx, func(apply store.ApplyEdits) error {
		return edits.batches(uploadBatch, func(batch []plannedEdit) error { return up.applyEdits(apply, batch) })
	})
}

// uploadBatch is how many planned operations one store call applies.
const uploadBatch = 2000

// plannedEdit is the edit a translated entry asks of its unit.
type plannedEdit struct {
	ID     int64
	Target string
	State  int
}

// applyEdits applies a batch of edits in the upload's transaction.
func (up *upload) applyEdits(apply store.ApplyEdits, batch []plannedEdit) error {
	ids := make([]int64, len(batch))
	for i, e := range batch {
		ids[i] = e.ID
	}
	edited, err := apply(ids, func(i int, cur store.UnitView) (store.Edit, error) {
		e := batch[i]
		if up.protects(cur, e.Target, e.State) {
			return store.Edit{}, store.ErrSkipEdit
		}
		return store.Edit{Target: e.Target, State: e.State, Author: up.req.GetActor(),
			Checks: up.checks, Propagate: up.propagate,
			Changes: []*changelogv1.Change{uploadChange(cur, up.req, e.Target, e.State)}}, nil
	})
	up.tally(edited)
	return err
}

// tally counts what a batch did: accepted, or skipped.
func (up *upload) tally(done []bool) {
	for _, ok := range done {
		if ok {
			up.counts[2]++
		} else {
			up.counts[1]++
		}
	}
}

// protects is Weblate's skip rule of merge_translations.
func (up *upload) protects(u store.UnitView, target string, state int) bool {
	conflicts := up.req.GetConflicts()
	return (u.State >= weblate.StateTranslated && conflicts == "") ||
		(u.State == weblate.StateApproved && conflicts != "replace-approved") ||
		readOnly(u.Unit, u.Translation) ||
		(u.State == weblate.StateApproved && !up.review) ||
		len(store.Split(target)) != pluralForms(u) ||
		(u.Target == target && u.State == state)
}

func uploadChange(u store.UnitView, req *translationv1.UploadFileRequest, target string, state int) *changelogv1.Change {
	c := editChange(u, state, req.GetActor(), target)
	c.Action = actionUploaded
	return c
}

// uploadSuggest is Weblate's merge_suggestions: a suggestion for each
// translated entry whose text differs from its unit's, all in one
// transaction. One that would make more than the limit is refused as
// soon as the file shows it, nothing applied.
func (s *Server) uploadSuggest(ctx context.Context, up *upload) error {
	index, err := s.unitIndex(ctx, up)
	if err != nil {
		return err
	}
	var sgs plan[store.NewSuggestion]
	defer sgs.close()
	limit := s.cfg.Upload.suggestions()
	err = up.eachEntry(true, func(me mergeEntry) error {
		u, ok := index[up.entryKey(me.e)]
		if !ok {
			up.counts[0]++
			return nil
		}
		target := store.Join(me.e.Target)
		if u.Target == target || readOnly(u.Unit, u.Translation) {
			up.counts[1]++
			return nil
		}
		if sgs.len() == limit {
			return errs.Invalid("file", "too_many", fmt.Sprintf("The file would make more than %d suggestions; one upload makes at most %d. Upload it in parts.", limit, limit))
		}
		return sgs.add(store.NewSuggestion{UnitID: u.ID, Target: target})
	})
	if err != nil {
		return err
	}
	return s.cfg.Store.AddSuggestionBatches(ctx, up.req.GetActor(), func(apply func([]store.NewSuggestion) ([]bool, error)) error {
		return sgs.batches(uploadBatch, func(batch []store.NewSuggestion) error {
			added, aerr := apply(batch)
			up.tally(added)
			return aerr
		})
	})
}

// uploadAdd is Weblate's handle_add_upload: strings of the file missing
// from the translation are added (as CreateUnit adds them), in one
// transaction: all of them or, on a failure, none; existing ones and ones
// that are not valid strings are skipped.
func (s *Server) uploadAdd(ctx context.Context, up *upload) error {
	index, err := s.unitKeys(ctx, up)
	if err != nil {
		return err
	}
	var strs plan[store.NewString]
	defer strs.close()
	limit := s.cfg.Upload.newStrings()
	err = up.eachEntry(false, func(me mergeEntry) error {
		key := up.entryKey(me.e)
		if _, ok := index[key]; ok {
			up.counts[1]++
			return nil
		}
		ns, nerr := s.newString(ctx, up.comp, up.t, addRequest(up, me))
		if nerr != nil {
			if errs.KindOf(nerr) == errs.Internal {
				return nerr
			}
			up.counts[1]++
			return nil
		}
		if strs.len() == limit {
			return errs.Invalid("file", "too_many", fmt.Sprintf("The file would add more than %d strings; one upload adds at most %d. Upload it in parts.", limit, limit))
		}
		index[key] = 0 // added: a repeat of it is skipped
		return strs.add(ns)
	})
	if err != nil {
		return err
	}
	if up.checks, err = s.checkRules(ctx, up.comp); err != nil {
		return err
	}
	return s.cfg.Store.CreateUnitBatches(ctx, up.comp.GetId(), up.checks, func(apply func([]store.NewString) ([]bool, error)) error {
		return strs.batches(uploadBatch, func(batch []store.NewString) error {
			created, cerr := apply(batch)
			up.tally(created)
			return cerr
		})
	})
}

// addRequest is the CreateUnit request of an uploaded entry.
func addRequest(up *upload, me mergeEntry) *translationv1.CreateUnitRequest {
	state := typev1.UnitState_UNIT_STATE_TRANSLATED
	if me.setFuzzy {
		state = typev1.UnitState_UNIT_STATE_FUZZY
	}
	target, source := me.e.Target, me.e.Source
	if up.mono { // the source translation's file: keys and their text
		source = target
	}
	if !slices.ContainsFunc(target, nonEmpty) {
		target, state = nil, typev1.UnitState_UNIT_STATE_EMPTY
	}
	return &translationv1.CreateUnitRequest{TranslationId: up.t.ID, Context: me.e.Context,
		Source: source, Target: target, State: state, Actor: up.req.GetActor()}
}
