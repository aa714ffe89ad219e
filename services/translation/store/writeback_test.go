package store_test

import (
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/changefeed/changefeedtest"
	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/outbox"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

func TestPendingAndCommit(t *testing.T) {
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
		if err = s.SaveRepository(ctx, store.Repository{ComponentID: 7}); err != nil {
			t.Fatal(err)
		}
		if need, needErr := s.NeedsCommit(ctx, []int64{7}, ""); needErr != nil || need {
			t.Fatalf("NeedsCommit before edits = %v, %v", need, needErr)
		}
		hello := cs.IDs[unit("Hello", "", 0, 1).IDHash]
		edit := func(target string) {
			_, editErr := s.EditUnit(ctx, hello, func(store.UnitView) (store.Edit, error) {
				return store.Edit{Target: target, State: 20, Author: "ana"}, nil
			})
			if editErr != nil {
				t.Fatal(editErr)
			}
		}
		edit("Ahoj")
		err = gdb.Create(&store.Removal{TranslationID: cs.Translation.ID, Context: "", Source: "Gone", CreatedAt: time.Now().UTC()}).Error
		if err != nil {
			t.Fatal(err)
		}
		for _, tc := range []struct {
			code string
			want bool
		}{{"", true}, {"cs", true}, {"de", false}} {
			if need, tcErr := s.NeedsCommit(ctx, []int64{7}, tc.code); tcErr != nil || need != tc.want {
				t.Errorf("NeedsCommit(%q) = %v, %v", tc.code, need, tcErr)
			}
		}
		since, err := s.PendingSince(ctx)
		if err != nil || since[7].IsZero() || time.Since(since[7]) > time.Minute {
			t.Fatalf("PendingSince = %v, %v", since, err)
		}
		work, err := s.PendingWork(ctx, 7)
		if err != nil || len(work) != 1 || len(work[0].Units) != 1 || work[0].Units[0].Target != "Ahoj" ||
			len(work[0].Removals) != 1 || work[0].Removals[0].Source != "Gone" {
			t.Fatalf("PendingWork = %+v, %v", work, err)
		}
		time.Sleep(2 * time.Millisecond)
		edit("Nazdar") // edited during the commit: stays pending
		c := work[0].Committed()
		c.Revision = "abc"
		done := []store.Committed{c}
		before := len(changefeedtest.All(t, gdb))
		commit := &changelogv1.Change{Action: typev1.ChangeAction_CHANGE_ACTION_COMMIT, ProjectSlug: "p", ComponentSlug: "c", LanguageCode: "cs"}
		if err := s.FinishCommit(ctx, 7, done, []*changelogv1.Change{commit}); err != nil {
			t.Fatal(err)
		}
		if got := changefeedtest.All(t, gdb); len(got) != before+1 || got[len(got)-1].GetAction() != typev1.ChangeAction_CHANGE_ACTION_COMMIT {
			t.Errorf("commit record not written")
		}
		if work, _ = s.PendingWork(ctx, 7); len(work) != 1 || len(work[0].Units) != 1 || len(work[0].Removals) != 0 {
			t.Errorf("after FinishCommit with a later edit: %+v", work)
		}
		if tr, _ := s.GetTranslationByID(ctx, cs.Translation.ID); tr.Revision != "abc" {
			t.Errorf("revision %q", tr.Revision)
		}
		// An edit that commits while the commit reads, stamped before the
		// read (an earlier last_updated than the one read): its value was
		// not written, so it stays pending.
		work, _ = s.PendingWork(ctx, 7)
		earlier := work[0].Units[0].LastUpdated.Add(-time.Second)
		if err := gdb.Model(&store.Unit{}).Where("id = ?", hello).
			Updates(map[string]any{"target": "Zdravím", "last_updated": earlier}).Error; err != nil {
			t.Fatal(err)
		}
		if err := s.FinishCommit(ctx, 7, []store.Committed{work[0].Committed()}, nil); err != nil {
			t.Fatal(err)
		}
		if need, _ := s.NeedsCommit(ctx, []int64{7}, ""); !need {
			t.Error("an edit committed during the read lost its pending flag")
		}
		work, _ = s.PendingWork(ctx, 7)
		if err := s.FinishCommit(ctx, 7, []store.Committed{work[0].Committed()}, nil); err != nil {
			t.Fatal(err)
		}
		if need, _ := s.NeedsCommit(ctx, []int64{7}, ""); need {
			t.Error("pending left after the second commit")
		}
		if r, _ := s.GetRepository(ctx, 7); r.NeedsCommit {
			t.Error("repositories.needs_commit still set")
		}
		edit("Čau")
		if err := s.DiscardPending(ctx, 7); err != nil {
			t.Fatal(err)
		}
		if need, _ := s.NeedsCommit(ctx, []int64{7}, ""); need {
			t.Error("DiscardPending left pending work")
		}
	}, store.Migrations, outbox.Migrations)
}

func TestMergeFailureAndRecords(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		if err := s.SaveRepository(ctx, store.Repository{ComponentID: 3}); err != nil {
			t.Fatal(err)
		}
		failed := &changelogv1.Change{Action: typev1.ChangeAction_CHANGE_ACTION_FAILED_MERGE, ProjectSlug: "p", ComponentSlug: "c"}
		if err := s.SetMergeFailure(ctx, 3, "CONFLICT", failed); err != nil {
			t.Fatal(err)
		}
		if f, err := s.MergeFailure(ctx, []int64{2, 3}); err != nil || f != "CONFLICT" {
			t.Errorf("MergeFailure = %q, %v", f, err)
		}
		// A later save of the repository row keeps the failure.
		r, _ := s.GetRepository(ctx, 3)
		r.Revision = "x"
		if err := s.SaveRepository(ctx, r); err != nil {
			t.Fatal(err)
		}
		if f, _ := s.MergeFailure(ctx, []int64{3}); f != "CONFLICT" {
			t.Errorf("failure lost by SaveRepository: %q", f)
		}
		if err := s.SetMergeFailure(ctx, 3, ""); err != nil {
			t.Fatal(err)
		}
		if f, _ := s.MergeFailure(ctx, []int64{3}); f != "" {
			t.Errorf("failure not cleared: %q", f)
		}
		if err := s.RecordChanges(ctx, &changelogv1.Change{Action: typev1.ChangeAction_CHANGE_ACTION_PUSH}, &changelogv1.Change{Action: typev1.ChangeAction_CHANGE_ACTION_REPO_CLEANUP}); err != nil {
			t.Fatal(err)
		}
		got := changefeedtest.All(t, gdb)
		if len(got) != 3 || got[0].GetAction() != typev1.ChangeAction_CHANGE_ACTION_FAILED_MERGE || got[2].GetAction() != typev1.ChangeAction_CHANGE_ACTION_REPO_CLEANUP {
			t.Errorf("records = %v", got)
		}
	}, store.Migrations, outbox.Migrations)
}

func TestImportUnitChanges(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		spec := importSpec(5, "de", map[int64]int64{}, unit("Hello", "Hallo", 20, 1), unit("Close", "Zu", 20, 1), unit("Gone", "Weg", 20, 1))
		if _, err := s.ImportTranslation(ctx, spec); err != nil {
			t.Fatal(err)
		}
		n := len(changefeedtest.All(t, gdb))
		spec = importSpec(5, "de", map[int64]int64{}, unit("Hello", "Hallo", 20, 1), unit("Close", "Schließen", 20, 1), unit("New", "Neu", 10, 1))
		spec.UnitChanges = true
		res, err := s.ImportTranslation(ctx, spec)
		if err != nil {
			t.Fatal(err)
		}
		got := changefeedtest.All(t, gdb)[n:]
		byAction := map[typev1.ChangeAction]*changelogv1.Change{}
		for _, c := range got {
			byAction[c.GetAction()] = c
		}
		if len(got) != 4 || byAction[typev1.ChangeAction_CHANGE_ACTION_UPDATE] == nil {
			t.Fatalf("records = %v", got)
		}
		c := byAction[typev1.ChangeAction_CHANGE_ACTION_NEW_UNIT_REPO]
		d := c.GetDetails().AsMap()
		if c.GetTarget() != "Neu" || c.GetUnitId() != res.IDs[unit("New", "", 0, 1).IDHash] || d["old_state"] != float64(-1) || d["state"] != float64(10) {
			t.Errorf("71 = %v", c)
		}
		c = byAction[typev1.ChangeAction_CHANGE_ACTION_STRING_REPO_UPDATE]
		if c.GetTarget() != "Schließen" || c.GetOld() != "Zu" || c.GetUnitId() == 0 {
			t.Errorf("59 = %v", c)
		}
		if c = byAction[typev1.ChangeAction_CHANGE_ACTION_STRING_REMOVE]; c.GetTarget() != "Weg" || c.GetUnitId() == 0 || c.GetLanguageCode() != "de" {
			t.Errorf("63 = %v", c)
		}
	}, store.Migrations, outbox.Migrations)
}
