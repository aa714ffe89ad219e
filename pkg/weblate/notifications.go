package weblate

import typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"

// Notification kinds as the reference names them: its notification class
// names (weblate/accounts/notifications.py), "Notificaton" typos included,
// because clients send them verbatim.
const (
	NotifyRepository                 = "RepositoryNotification"
	NotifyLock                       = "LockNotification"
	NotifyLicense                    = "LicenseNotification"
	NotifyParseError                 = "ParseErrorNotification"
	NotifyNewString                  = "NewStringNotificaton"
	NotifyTranslationActivitySummary = "TranslationActivitySummaryNotification"
	NotifyNewContributor             = "NewContributorNotificaton"
	NotifyNewSuggestion              = "NewSuggestionNotificaton"
	NotifyLanguageTranslated         = "LanguageTranslatedNotificaton"
	NotifyComponentTranslated        = "ComponentTranslatedNotificaton"
	NotifyNewComment                 = "NewCommentNotificaton"
	NotifyMentionComment             = "MentionCommentNotificaton"
	NotifyLastAuthorComment          = "LastAuthorCommentNotificaton"
	NotifyTranslatedString           = "TranslatedStringNotificaton"
	NotifyApprovedString             = "ApprovedStringNotificaton"
	NotifyChangedString              = "ChangedStringNotificaton"
	NotifyNewTranslation             = "NewTranslationNotificaton"
	NotifyNewComponent               = "NewComponentNotificaton"
	NotifyNewAnnouncement            = "NewAnnouncementNotificaton"
	NotifyNewAlert                   = "NewAlertNotificaton"
	NotifyMergeFailure               = "MergeFailureNotification"
	NotifyPendingSuggestions         = "PendingSuggestionsNotification"
	NotifyToDoStrings                = "ToDoStringsNotification"
)

type kindPair = Pair[typev1.NotificationKind, string]

// NotificationKinds maps notification kinds to the reference's class
// names, in the order the reference registers them.
var NotificationKinds = newTable(
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_REPOSITORY, NotifyRepository},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_LOCK, NotifyLock},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_LICENSE, NotifyLicense},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_PARSE_ERROR, NotifyParseError},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_NEW_STRING, NotifyNewString},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_TRANSLATION_ACTIVITY_SUMMARY, NotifyTranslationActivitySummary},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_NEW_CONTRIBUTOR, NotifyNewContributor},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_NEW_SUGGESTION, NotifyNewSuggestion},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_LANGUAGE_TRANSLATED, NotifyLanguageTranslated},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_COMPONENT_TRANSLATED, NotifyComponentTranslated},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_NEW_COMMENT, NotifyNewComment},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_MENTION_COMMENT, NotifyMentionComment},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_LAST_AUTHOR_COMMENT, NotifyLastAuthorComment},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_TRANSLATED_STRING, NotifyTranslatedString},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_APPROVED_STRING, NotifyApprovedString},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_CHANGED_STRING, NotifyChangedString},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_NEW_TRANSLATION, NotifyNewTranslation},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_NEW_COMPONENT, NotifyNewComponent},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_NEW_ANNOUNCEMENT, NotifyNewAnnouncement},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_NEW_ALERT, NotifyNewAlert},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_MERGE_FAILURE, NotifyMergeFailure},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_PENDING_SUGGESTIONS, NotifyPendingSuggestions},
	kindPair{typev1.NotificationKind_NOTIFICATION_KIND_TODO_STRINGS, NotifyToDoStrings},
)

// Notification scopes as the reference numbers them
// (weblate/accounts/models.py SCOPE_*).
const (
	ScopeAll       = 0
	ScopeWatched   = 10
	ScopeAdmin     = 20
	ScopeProject   = 30
	ScopeComponent = 40
)

// NotificationScopes maps notification scopes to the reference's numbers.
var NotificationScopes = newTable(
	Pair[typev1.NotificationScope, int32]{typev1.NotificationScope_NOTIFICATION_SCOPE_ALL, ScopeAll},
	Pair[typev1.NotificationScope, int32]{typev1.NotificationScope_NOTIFICATION_SCOPE_WATCHED, ScopeWatched},
	Pair[typev1.NotificationScope, int32]{typev1.NotificationScope_NOTIFICATION_SCOPE_ADMIN, ScopeAdmin},
	Pair[typev1.NotificationScope, int32]{typev1.NotificationScope_NOTIFICATION_SCOPE_PROJECT, ScopeProject},
	Pair[typev1.NotificationScope, int32]{typev1.NotificationScope_NOTIFICATION_SCOPE_COMPONENT, ScopeComponent},
)

// Notification frequencies as the reference numbers them
// (weblate/accounts/models.py FREQ_*).
const (
	FrequencyNone    = 0
	FrequencyInstant = 1
	FrequencyDaily   = 2
	FrequencyWeekly  = 3
	FrequencyMonthly = 4
)

// NotificationFrequencies maps notification frequencies to the reference's
// numbers.
var NotificationFrequencies = newTable(
	Pair[typev1.NotificationFrequency, int32]{typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_NONE, FrequencyNone},
	Pair[typev1.NotificationFrequency, int32]{typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_INSTANT, FrequencyInstant},
	Pair[typev1.NotificationFrequency, int32]{typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_DAILY, FrequencyDaily},
	Pair[typev1.NotificationFrequency, int32]{typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_WEEKLY, FrequencyWeekly},
	Pair[typev1.NotificationFrequency, int32]{typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_MONTHLY, FrequencyMonthly},
)
