package delivery

import (
	"slices"

	"github.com/tmsproject/tms/services/notification/kinds"
	"github.com/tmsproject/tms/services/notification/store"
)

// kindsByAction are the kinds each change action triggers (COMPAT.md §8).
var kindsByAction = map[int32][]string{
	1:  {kinds.LanguageTranslated},
	2:  {kinds.TranslatedString},
	3:  {kinds.NewComment},
	4:  {kinds.NewSuggestion},
	5:  {kinds.TranslatedString},
	7:  {kinds.TranslatedString},
	14: {kinds.Lock}, 15: {kinds.Lock},
	17: {kinds.Repository}, 18: {kinds.Repository}, 19: {kinds.Repository}, 20: {kinds.Repository}, 21: {kinds.Repository},
	22: {kinds.MergeFailure}, 23: {kinds.MergeFailure}, 28: {kinds.MergeFailure},
	24: {kinds.ParseError},
	31: {kinds.NewString}, 71: {kinds.NewString},
	36: {kinds.ApprovedString},
	46: {kinds.NewAnnouncement},
	47: {kinds.NewAlert},
	48: {kinds.NewTranslation}, 49: {kinds.NewTranslation},
	51: {kinds.NewComponent},
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
	Action                               int32
	Project, Component, Language, Author string
	Target                               string
}

// specificity orders scopes: a component subscription beats a project
// one, which beats one for the projects the user administers, which beats
// one for all projects. Watched projects (10) need watch lists, which this
// service does not keep: such subscriptions match nothing.
func specificity(sub store.Subscription, ch Change, administers bool) int {
	switch sub.Scope {
	case kinds.ScopeComponent:
		if sub.ProjectSlug == ch.Project && sub.ComponentSlug == ch.Component && ch.Component != "" {
			return 4
		}
	case kinds.ScopeProject:
		if sub.ProjectSlug == ch.Project && ch.Project != "" {
			return 3
		}
	case kinds.ScopeAdmin:
		if administers && ch.Project != "" {
			return 2
		}
	case kinds.ScopeAll:
		return 1
	}
	return 0
}

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
		admin := s.Scope == kinds.ScopeAdmin && ch.Project != "" && administers(s)
		if r := specificity(s.Subscription, ch, admin); r > rank[s.UserID] {
			best[s.UserID], rank[s.UserID] = s, r
		}
	}
	return best
}
