package store_test

import (
	"slices"
	"testing"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/changefeed/changefeedtest"
	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/outbox"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// exactAnnotations checks has_suggestion of every unit of a translation
// against its suggestions, and the translation's counters against a
// recount of its units.
func exactAnnotations(t *testing.T, gdb *gorm.DB, translationID int64) {
	t.Helper()
	var units []store.Unit
	if err := gdb.Where("translation_id = ?", translationID).Find(&units).Error; err != nil {
		t.Fatal(err)
	}
	var want store.Stats
	for _, u := range units {
		var n int64
		if err := gdb.Model(&store.Suggestion{}).Where("unit_id = ?", u.ID).Count(&n).Error; err != nil {
			t.Fatal(err)
		}
		if u.HasSuggestion != (n > 0) {
			t.Errorf("unit %d: has_suggestion %v with %d suggestions", u.ID, u.HasSuggestion, n)
		}
		want.Count(u.State, u.NumWords, u.NumChars, 1)
		if u.HasSuggestion {
			want.Suggestions++
		}
		if u.HasComment {
			want.Comments++
		}
		if u.HasFailingCheck {
			want.Failing++
			want.FailingWords += u.NumWords
			want.FailingChars += u.NumChars
		}
	}
	var tr store.Translation
	if err := gdb.Where("id = ?", translationID).Take(&tr).Error; err != nil {
		t.Fatal(err)
	}
	if tr.Stats != want {
		t.Errorf("translation %d counters %+v, recount %+v", translationID, tr.Stats, want)
	}
}

func suggestionTargets(t *testing.T, gdb *gorm.DB) []string {
	t.Helper()
	var targets []string
	if err := gdb.Model(&store.Suggestion{}).Order("id").Pluck("target", &targets).Error; err != nil {
		t.Fatal(err)
	}
	return targets
}

// TestImportCleansSuggestions follows suggestions through repository
// updates: one equal to the new translated target goes, as do those of a
// string the file dropped; others stay, with exact flags and counters.
func TestImportCleansSuggestions(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		hello, bye, closeU, open := unit("Hello", "", 0, 1), unit("Good bye", "", 0, 2), unit("Close", "", 0, 1), unit("Open", "Otevřít", 20, 1)
		src, err := s.ImportTranslation(ctx, importSpec(7, "en", nil, unit("Hello", "Hello", 100, 1),
			unit("Good bye", "Good bye", 100, 2), unit("Close", "Close", 100, 1), unit("Open", "Open", 100, 1)))
		if err != nil {
			t.Fatal(err)
		}
		cs, err := s.ImportTranslation(ctx, importSpec(7, "cs", src.IDs, hello, bye, closeU, open))
		if err != nil {
			t.Fatal(err)
		}
		id := func(u store.Unit) int64 { return cs.IDs[u.IDHash] }
		suggest := []struct {
			unit   store.Unit
			target string
		}{{hello, "Ahoj"}, {hello, "Nazdar"}, {bye, "Sbohem"}, {closeU, "Zavřít"}, {open, "Otevři"}}
		for _, sg := range suggest {
			if _, err = s.AddSuggestion(ctx, id(sg.unit), sg.target, "alice"); err != nil {
				t.Fatal(err)
			}
		}
		ahoj, _, _ := s.ListSuggestions(ctx, id(hello), 0, 1, store.Hidden{})
		if _, err = s.VoteSuggestion(ctx, ahoj[0].ID, "bob", 1); err != nil {
			t.Fatal(err)
		}
		exactAnnotations(t, gdb, cs.Translation.ID)
		_, mark := changefeedtest.Since(t, gdb, 0)

		// A pull: Hello translated as suggested, Good bye only fuzzy,
		// Close dropped, Open untouched.
		spec := importSpec(7, "cs", src.IDs, unit("Hello", "Ahoj", 20, 1), unit("Good bye", "Sbohem", 10, 2), open)
		spec.UnitChanges = true
		if _, err = s.ImportTranslation(ctx, spec); err != nil {
			t.Fatal(err)
		}
		got, mark := changefeedtest.Since(t, gdb, mark)
		var acts []typev1.ChangeAction
		var cleaned []*changelogv1.Change
		for _, c := range got {
			acts = append(acts, c.GetAction())
			if c.GetAction() == store.ActionSuggestionCleanup {
				cleaned = append(cleaned, c)
			}
		}
		if !slices.Equal(acts, []typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_STRING_REPO_UPDATE, typev1.ChangeAction_CHANGE_ACTION_STRING_REPO_UPDATE, typev1.ChangeAction_CHANGE_ACTION_STRING_REMOVE, typev1.ChangeAction_CHANGE_ACTION_SUGGESTION_CLEANUP, typev1.ChangeAction_CHANGE_ACTION_SUGGESTION_CLEANUP, typev1.ChangeAction_CHANGE_ACTION_UPDATE}) {
			t.Errorf("pull records = %v", acts)
		}
		if len(cleaned) == 2 {
			if c := cleaned[0]; c.GetUnitId() != id(hello) || c.GetTarget() != "Ahoj" || c.GetAuthor() != store.AnonymousUser ||
				c.GetUser() != "" || c.GetLanguageCode() != "cs" || c.GetTimestamp() == nil {
				t.Errorf("cleanup of a translated suggestion = %v", c)
			}
			if c := cleaned[1]; c.GetUnitId() != 0 || c.GetTarget() != "Zavřít" || c.GetAuthor() != store.AnonymousUser || c.GetUser() != "" {
				t.Errorf("cleanup of a removed string's suggestion = %v", c)
			}
		}
		if got := suggestionTargets(t, gdb); !slices.Equal(got, []string{"Nazdar", "Sbohem", "Otevři"}) {
			t.Errorf("suggestions after pull = %q", got)
		}
		var votes int64
		gdb.Table("suggestion_votes").Count(&votes)
		if votes != 0 {
			t.Errorf("%d votes outlived their suggestion", votes)
		}
		exactAnnotations(t, gdb, cs.Translation.ID)

		// Any import cleans up, recording string changes or not: Good bye
		// now translated as suggested, Hello's other suggestion stays.
		spec = importSpec(7, "cs", src.IDs, unit("Hello", "Ahoj", 20, 1), unit("Good bye", "Sbohem", 20, 2), open)
		again, err := s.ImportTranslation(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		got, _ = changefeedtest.Since(t, gdb, mark)
		if len(got) != 2 || got[0].GetAction() != typev1.ChangeAction_CHANGE_ACTION_SUGGESTION_CLEANUP || got[0].GetUnitId() != id(bye) || got[0].GetTarget() != "Sbohem" || got[1].GetAction() != typev1.ChangeAction_CHANGE_ACTION_UPDATE {
			t.Errorf("re-import records = %v", got)
		}
		if got := suggestionTargets(t, gdb); !slices.Equal(got, []string{"Nazdar", "Otevři"}) {
			t.Errorf("suggestions after re-import = %q", got)
		}
		if again.Translation.Suggestions != 2 {
			t.Errorf("suggestions counter = %d", again.Translation.Suggestions)
		}
		exactAnnotations(t, gdb, cs.Translation.ID)
	}, store.Migrations, outbox.Migrations)
}

// TestDeleteUnitDropsSuggestions checks that a string removed through the
// API takes its suggestions along with a cleanup record each, before its
// "String removed" record.
func TestDeleteUnitDropsSuggestions(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		src, err := s.ImportTranslation(ctx, importSpec(7, "en", nil, unit("Hello", "Hello", 100, 1), unit("Close", "Close", 100, 1)))
		if err != nil {
			t.Fatal(err)
		}
		cs, err := s.ImportTranslation(ctx, importSpec(7, "cs", src.IDs, unit("Hello", "", 0, 1), unit("Close", "", 0, 1)))
		if err != nil {
			t.Fatal(err)
		}
		hello := cs.IDs[unit("Hello", "", 0, 1).IDHash]
		for _, text := range []string{"Ahoj", "Nazdar"} {
			if _, err := s.AddSuggestion(ctx, hello, text, "alice"); err != nil {
				t.Fatal(err)
			}
		}
		_, mark := changefeedtest.Since(t, gdb, 0)
		if err := s.DeleteUnit(ctx, hello, "bob"); err != nil {
			t.Fatal(err)
		}
		got, _ := changefeedtest.Since(t, gdb, mark)
		var acts []typev1.ChangeAction
		for _, c := range got {
			acts = append(acts, c.GetAction())
		}
		// The cs unit and its source unit in en are removed.
		if !slices.Equal(acts, []typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_STRING_REMOVE, typev1.ChangeAction_CHANGE_ACTION_SUGGESTION_CLEANUP, typev1.ChangeAction_CHANGE_ACTION_SUGGESTION_CLEANUP, typev1.ChangeAction_CHANGE_ACTION_STRING_REMOVE}) && !slices.Equal(acts, []typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_SUGGESTION_CLEANUP, typev1.ChangeAction_CHANGE_ACTION_SUGGESTION_CLEANUP, typev1.ChangeAction_CHANGE_ACTION_STRING_REMOVE, typev1.ChangeAction_CHANGE_ACTION_STRING_REMOVE}) {
			t.Fatalf("delete records = %v", acts)
		}
		for _, c := range got {
			if c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_SUGGESTION_CLEANUP && (c.GetUnitId() != 0 || c.GetAuthor() != store.AnonymousUser || c.GetLanguageCode() != "cs") {
				t.Errorf("cleanup record = %v", c)
			}
		}
		if left := suggestionTargets(t, gdb); len(left) != 0 {
			t.Errorf("suggestions left = %q", left)
		}
		exactAnnotations(t, gdb, cs.Translation.ID)
	}, store.Migrations, outbox.Migrations)
}
