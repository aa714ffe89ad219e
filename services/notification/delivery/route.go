package delivery

import (
	"slices"

	"github.com/tmsproject/tms/pkg/weblate"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/notification/store"
)

// kindsByAction are the kinds each change action triggers (COMPAT.md §8).
var kindsByAction = map[typev1.ChangeAction][]string{
	typev1.ChangeAction_CHANGE_ACTION_COMPLETE:           {weblate.NotifyLanguageTranslated},
	typev1.ChangeAction_CHANGE_ACTION_CHANGE:             {weblate.NotifyTranslatedString},
	typev1.ChangeAction_CHANGE_ACTION_COMMENT:            {weblate.NotifyNewComment},
	typev1.ChangeAction_CHANGE_ACTION_SUGGESTION:         {weblate.NotifyNewSuggestion},
	typev1.ChangeAction_CHANGE_ACTION_NEW:                {weblate.NotifyTranslatedString},
	typev1.ChangeAction_CHANGE_ACTION_ACCEPT:             {weblate.NotifyTranslatedString},
	typev1.ChangeAction_CHANGE_ACTION_LOCK:               {weblate.NotifyLock},
	typev1.ChangeAction_CHANGE_ACTION_UNLOCK:             {weblate.NotifyLock},
	typev1.ChangeAction_CHANGE_ACTION_COMMIT:             {weblate.NotifyRepository},
	typev1.ChangeAction_CHANGE_ACTION_PUSH:               {weblate.NotifyRepository},
	typev1.ChangeAction_CHANGE_ACTION_RESET:              {weblate.NotifyRepository},
	typev1.ChangeAction_CHANGE_ACTION_MERGE:              {weblate.NotifyRepository},
	typev1.ChangeAction_CHANGE_ACTION_REBASE:             {weblate.NotifyRepository},
	typev1.ChangeAction_CHANGE_ACTION_FAILED_MERGE:       {weblate.NotifyMergeFailure},
	typev1.ChangeAction_CHANGE_ACTION_FAILED_REBASE:      {weblate.NotifyMergeFailure},
	typev1.ChangeAction_CHANGE_ACTION_FAILED_PUSH:        {weblate.NotifyMergeFailure},
	typev1.ChangeAction_CHANGE_ACTION_PARSE_ERROR:        {weblate.NotifyParseError},
	typev1.ChangeAction_CHANGE_ACTION_NEW_UNIT:           {weblate.NotifyNewString},
	typev1.ChangeAction_CHANGE_ACTION_NEW_UNIT_REPO:      {weblate.NotifyNewString},
	typev1.ChangeAction_CHANGE_ACTION_APPROVE:            {weblate.NotifyApprovedString},
	typev1.ChangeAction_CHANGE_ACTION_ANNOUNCEMENT:       {weblate.NotifyNewAnnouncement},
	typev1.ChangeAction_CHANGE_ACTION_ALERT:              {weblate.NotifyNewAlert},
	typev1.ChangeAction_CHANGE_ACTION_ADDED_LANGUAGE:     {weblate.NotifyNewTranslation},
	typev1.ChangeAction_CHANGE_ACTION_REQUESTED_LANGUAGE: {weblate.NotifyNewTranslation},
	typev1.ChangeAction_CHANGE_ACTION_CREATE_COMPONENT:   {weblate.NotifyNewComponent},
}

// allKinds are the kinds some action triggers.
func allKinds() []string {
	seen := map[string]bool{}
	var out []string
	for _, ks := range kindsByAction {
		for _, k := range ks {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out
}

// Change is what routing and rendering need of a change record.
type Change struct {
	ID                                   int64
	Action                               typev1.ChangeAction
	Project, Component, Language, Author string
	Target                               string
}

// specificity orders scopes as the reference does (by scope, highest
// first): a component subscription beats a project one, which beats one
// for the projects the user administers, then one for the projects the
// user watches, then one for all projects.
func specificity(sub store.Subscriber, ch Change, administers bool) int {
	switch sub.Scope {
	case weblate.ScopeComponent:
		if sub.ProjectSlug == ch.Project && sub.ComponentSlug == ch.Component && ch.Component != "" {
			return 5
		}
	case weblate.ScopeProject:
		if sub.ProjectSlug == ch.Project && ch.Project != "" {
			return 4
		}
	case weblate.ScopeAdmin:
		if administers && ch.Project != "" {
			return 3
		}
	case weblate.ScopeWatched:
		if ch.Project != "" && slices.Contains(sub.Watched, ch.Project) {
			return 2
		}
	case weblate.ScopeAll:
		return 1
	}
	return 0
}

// languageFiltered are the kinds the reference sends only to those who
// translate the change's language (its filter_languages).
var languageFiltered = []string{weblate.NotifyNewString, weblate.NotifyNewSuggestion}

// recipients picks, per user, the most specific subscription matching ch
// among subs; the author of the change is never notified of it.
// administers tells whether a subscriber administers the change's project.
func recipients(ch Change, subs []store.Subscriber, administers func(store.Subscriber) bool) map[int64]store.Subscriber {
	ks := kindsByAction[ch.Action]
	best := map[int64]store.Subscriber{}
	rank := map[int64]int{}
	for _, s := range subs {
		if s.Login == ch.Author || !slices.Contains(ks, s.Notification) {
			continue
		}
		if ch.Language != "" && slices.Contains(languageFiltered, s.Notification) && !slices.Contains(s.Languages, ch.Language) {
			continue
		}
		admin := s.Scope == weblate.ScopeAdmin && ch.Project != "" && administers(s)
		if r := specificity(s, ch, admin); r > rank[s.UserID] {
			best[s.UserID], rank[s.UserID] = s, r
		}
	}
	return best
}
