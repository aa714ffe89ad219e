package kinds

import "testing"

func TestKnown(t *testing.T) {
	// SPEC.md's list, COMPAT.md §8's and the one the defaults use.
	for _, k := range []string{
		"LastAuthorCommentNotificaton", "MentionCommentNotificaton", "MergeFailureNotification",
		"ParseErrorNotification", "NewTranslationNotificaton", "NewComponentNotificaton",
		"NewAlertNotificaton", "NewAnnouncementNotificaton", "NewCommentNotificaton",
		"RepositoryNotification", "LockNotification", "NewSuggestionNotificaton",
		"TranslatedStringNotificaton", "ApprovedStringNotificaton", "NewStringNotificaton",
		"LanguageTranslatedNotificaton", "TranslationActivitySummaryNotification",
	} {
		if !Known(k) {
			t.Errorf("%s unknown", k)
		}
	}
	for _, k := range []string{"", "NewTranslationNotification", "newtranslationnotificaton", "Notification"} {
		if Known(k) {
			t.Errorf("%q known", k)
		}
	}
}

func TestDefaultsAreValid(t *testing.T) {
	d := Defaults()
	if len(d) != 10 {
		t.Fatalf("%d defaults", len(d))
	}
	seen := map[Default]bool{}
	for _, s := range d {
		if !Known(s.Notification) || !ValidScope(s.Scope) || !ValidFrequency(s.Frequency) || seen[s] {
			t.Errorf("bad or repeated default %+v", s)
		}
		seen[s] = true
	}
}

func TestScopesAndFrequencies(t *testing.T) {
	for s, want := range map[int32]bool{0: true, 10: true, 20: true, 30: true, 40: true, 5: false, -10: false, 50: false} {
		if ValidScope(s) != want {
			t.Errorf("scope %d", s)
		}
	}
	for f, want := range map[int32]bool{0: true, 1: true, 4: true, 5: false, -1: false} {
		if ValidFrequency(f) != want {
			t.Errorf("frequency %d", f)
		}
	}
}
