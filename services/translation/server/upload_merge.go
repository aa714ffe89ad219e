package server

import (
	"context"
	"fmt"
	"slices"

	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
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
	var (
		ids     []int64
		targets []string
		states  []int
	)
	for _, me := range up.entries(true) {
		id, ok := index[up.entryKey(me.e)]
		if !ok {
			up.counts[0]++
			continue
		}
		state := weblate.StateTranslated
		switch {
		case up.method == "fuzzy" || me.setFuzzy:
			state = weblate.StateFuzzy
		case up.method == "approve":
			state = weblate.StateApproved
		}
		ids, targets, states = append(ids, id), append(targets, store.Join(me.e.Target)), append(states, state)
	}
	edited, err := s.cfg.Store.EditUnits(ctx, ids, func(i int, cur store.UnitView) (store.Edit, error) {
		if up.protects(cur, targets[i], states[i]) {
			return store.Edit{}, store.ErrSkipEdit
		}
		return store.Edit{Target: targets[i], State: states[i], Author: up.req.GetActor(),
			Changes: []*changelogv1.Change{uploadChange(cur, up.req, targets[i], states[i])}}, nil
	})
	if err != nil {
		return err
	}
	for _, ok := range edited {
		if ok {
			up.counts[2]++
		} else {
			up.counts[1]++
		}
	}
	return nil
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
// transaction.
func (s *Server) uploadSuggest(ctx context.Context, up *upload) error {
	index, err := s.unitIndex(ctx, up)
	if err != nil {
		return err
	}
	var sgs []store.NewSuggestion
	for _, me := range up.entries(true) {
		u, ok := index[up.entryKey(me.e)]
		if !ok {
			up.counts[0]++
			continue
		}
		target := store.Join(me.e.Target)
		if u.Target == target || readOnly(u.Unit, u.Translation) {
			up.counts[1]++
			continue
		}
		sgs = append(sgs, store.NewSuggestion{UnitID: u.ID, Target: target})
	}
	if limit := s.cfg.Upload.suggestions(); len(sgs) > limit {
		return errs.Invalid("file", "too_many", fmt.Sprintf("The file would make %d suggestions; one upload makes at most %d. Upload it in parts.", len(sgs), limit))
	}
	added, err := s.cfg.Store.AddSuggestions(ctx, sgs, up.req.GetActor())
	if err != nil {
		return err
	}
	for _, ok := range added {
		if ok {
			up.counts[2]++
		} else {
			up.counts[1]++
		}
	}
	return nil
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
	var strs []store.NewString
	for _, me := range up.entries(false) {
		key := up.entryKey(me.e)
		if _, ok := index[key]; ok {
			up.counts[1]++
			continue
		}
		ns, nerr := s.newString(ctx, up.comp, up.t, addRequest(up, me))
		if nerr != nil {
			if errs.KindOf(nerr) == errs.Internal {
				return nerr
			}
			up.counts[1]++
			continue
		}
		index[key] = 0 // added: a repeat of it is skipped
		strs = append(strs, ns)
		if limit := s.cfg.Upload.newStrings(); len(strs) > limit {
			return errs.Invalid("file", "too_many", fmt.Sprintf("The file would add more than %d strings; one upload adds at most %d. Upload it in parts.", limit, limit))
		}
	}
	created, err := s.cfg.Store.CreateUnits(ctx, up.comp.GetId(), strs)
	if err != nil {
		return err
	}
	for _, ok := range created {
		if ok {
			up.counts[2]++
		} else {
			up.counts[1]++
		}
	}
	return nil
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
