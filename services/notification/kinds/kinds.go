package kinds

import "slices"

// Scopes (COMPAT.md §8).
const (
	ScopeAll       int32 = 0
	ScopeWatched   int32 = 10
	ScopeAdmin     int32 = 20
	ScopeProject   int32 = 30
	ScopeComponent int32 = 40
)

// Frequencies (COMPAT.md §8).
const (
	FrequencyNone    int32 = 0
	FrequencyInstant int32 = 1
	FrequencyDaily   int32 = 2
	FrequencyWeekly  int32 = 3
	FrequencyMonthly int32 = 4
)

// Notification kinds. The "Notificaton" spellings are the real identifiers.
const (
	Repository                 = "RepositoryNotification"
	Lock                       = "LockNotification"
	License                    = "LicenseNotification"
	ParseError                 = "ParseErrorNotification"
	NewString                  = "NewStringNotificaton"
	TranslationActivitySummary = "TranslationActivitySummaryNotification"
	NewContributor             = "NewContributorNotificaton"
	NewSuggestion              = "NewSuggestionNotificaton"
	LanguageTranslated         = "LanguageTranslatedNotificaton"
	ComponentTranslated        = "ComponentTranslatedNotificaton"
	NewComment                 = "NewCommentNotificaton"
	MentionComment             = "MentionCommentNotificaton"
	LastAuthorComment          = "LastAuthorCommentNotificaton"
	TranslatedString           = "TranslatedStringNotificaton"
	ApprovedString             = "ApprovedStringNotificaton"
	ChangedString              = "ChangedStringNotificaton"
	NewTranslation             = "NewTranslationNotificaton"
	NewComponent               = "NewComponentNotificaton"
	NewAnnouncement            = "NewAnnouncementNotificaton"
	NewAlert                   = "NewAlertNotificaton"
	MergeFailure               = "MergeFailureNotification"
	PendingSuggestions         = "PendingSuggestionsNotification"
	ToDoStrings                = "ToDoStringsNotification"
)

// all holds every kind the reference implementation registers, in its
// registration order: the kinds of SPEC.md and COMPAT.md §8 and the few
// more a Weblate client may send.
var all = []string{
	Repository, Lock, License, ParseError, NewString, TranslationActivitySummary,
	NewContributor, NewSuggestion, LanguageTranslated, ComponentTranslated,
	NewComment, MentionComment, LastAuthorComment, TranslatedString, ApprovedString,
	ChangedString, NewTranslation, NewComponent, NewAnnouncement, NewAlert,
	MergeFailure, PendingSuggestions, ToDoStrings,
}

// Known reports whether name is a notification kind.
func Known(name string) bool { return slices.Contains(all, name) }

// ValidScope reports whether s is one of the scopes.
func ValidScope(s int32) bool {
	return slices.Contains([]int32{ScopeAll, ScopeWatched, ScopeAdmin, ScopeProject, ScopeComponent}, s)
}

// ValidFrequency reports whether f is one of the frequencies.
func ValidFrequency(f int32) bool { return f >= FrequencyNone && f <= FrequencyMonthly }

// Default is one default subscription.
type Default struct {
	Scope, Frequency int32
	Notification     string
}

// Defaults returns the ten subscriptions a new user starts with, in the
// order they are created.
func Defaults() []Default {
	return []Default{
		{ScopeAll, FrequencyInstant, MentionComment},
		{ScopeWatched, FrequencyInstant, LastAuthorComment},
		{ScopeWatched, FrequencyInstant, MentionComment},
		{ScopeWatched, FrequencyInstant, NewAnnouncement},
		{ScopeWatched, FrequencyWeekly, TranslationActivitySummary},
		{ScopeAdmin, FrequencyInstant, MergeFailure},
		{ScopeAdmin, FrequencyInstant, ParseError},
		{ScopeAdmin, FrequencyInstant, NewTranslation},
		{ScopeAdmin, FrequencyInstant, NewAlert},
		{ScopeAdmin, FrequencyInstant, NewAnnouncement},
	}
}
