package kinds

import "github.com/tmsproject/tms/pkg/weblate"

// Default is one default subscription, in stored form: the reference's
// scope and frequency numbers and kind name.
type Default struct {
	Scope, Frequency int32
	Notification     string
}

// Defaults returns the ten subscriptions a new user starts with, in the
// order they are created.
func Defaults() []Default {
	return []Default{
		{weblate.ScopeAll, weblate.FrequencyInstant, weblate.NotifyMentionComment},
		{weblate.ScopeWatched, weblate.FrequencyInstant, weblate.NotifyLastAuthorComment},
		{weblate.ScopeWatched, weblate.FrequencyInstant, weblate.NotifyMentionComment},
		{weblate.ScopeWatched, weblate.FrequencyInstant, weblate.NotifyNewAnnouncement},
		{weblate.ScopeWatched, weblate.FrequencyWeekly, weblate.NotifyTranslationActivitySummary},
		{weblate.ScopeAdmin, weblate.FrequencyInstant, weblate.NotifyMergeFailure},
		{weblate.ScopeAdmin, weblate.FrequencyInstant, weblate.NotifyParseError},
		{weblate.ScopeAdmin, weblate.FrequencyInstant, weblate.NotifyNewTranslation},
		{weblate.ScopeAdmin, weblate.FrequencyInstant, weblate.NotifyNewAlert},
		{weblate.ScopeAdmin, weblate.FrequencyInstant, weblate.NotifyNewAnnouncement},
	}
}
