package store_test

import (
	"context"
	"errors"
	"reflect"
	"testing"
	"time"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/changedetails"
	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/pkg/pgtest"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

func unit(src, target string, state int, words int64) store.Unit {
	return store.Unit{Source: src, Target: target, State: state, IDHash: int64(len(src)*1000 + int(src[0])),
		ContentHash: 1, NumWords: words, NumChars: int64(len(src)), Priority: 100}
}

// importSpec is the import of a PO file: it records "needs editing", not
// approval.
func importSpec(component int64, code string, source map[int64]int64, units ...store.Unit) store.ImportSpec {
	return store.ImportSpec{
		RecordsFuzzy: true,
		Translation: store.Translation{ComponentID: component, ProjectSlug: "p", ComponentSlug: "c",
			LanguageCode: code, PluralNumber: 2, Filename: "po/" + code + ".po", IsSource: source == nil},
		Units: units, SourceIDs: source,
		Changes: []*changelogv1.Change{{Action: typev1.ChangeAction_CHANGE_ACTION_UPDATE, ProjectSlug: "p", ComponentSlug: "c", LanguageCode: code}},
	}
}

func outboxCount(t *testing.T, gdb *gorm.DB) int64 {
	var n int64
	if err := gdb.Table("outbox_events").Count(&n).Error; err != nil {
		t.Fatal(err)
	}
	return n
}

// sameTranslation compares translations as stored: times by instant.
func sameTranslation(a, b store.Translation) bool {
	if (a.LastChange == nil) != (b.LastChange == nil) || (a.LastChange != nil && !a.LastChange.Equal(*b.LastChange)) ||
		!a.CreatedAt.Equal(b.CreatedAt) {
		return false
	}
	a.LastChange, b.LastChange, a.CreatedAt, b.CreatedAt = nil, nil, time.Time{}, time.Time{}
	return reflect.DeepEqual(a, b)
}

func TestStore(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := t.Context()
		s := store.New(gdb)
		src, err := s.ImportTranslation(ctx, importSpec(7, "en", nil,
			unit("Hello", "Hello", 100, 1), unit("Good bye", "Good bye", 100, 2), unit("Close", "Close", 100, 1)))
		if err != nil {
			t.Fatal(err)
		}
		if got := src.Translation.Stats; got.Total != 3 || got.Readonly != 3 || got.Translated != 3 || got.TotalWords != 4 {
			t.Fatalf("source stats = %+v", got)
		}
		cs, err := s.ImportTranslation(ctx, importSpec(7, "cs", src.IDs,
			unit("Hello", "Ahoj", 20, 1), unit("Good bye", "Na shle", 10, 2), unit("Close", "", 0, 1)))
		if err != nil {
			t.Fatal(err)
		}
		st := cs.Translation.Stats
		if st.Total != 3 || st.Translated != 1 || st.TranslatedWords != 1 || st.Fuzzy != 1 || st.FuzzyWords != 2 {
			t.Fatalf("cs stats = %+v", st)
		}
		if n := outboxCount(t, gdb); n != 2 {
			t.Fatalf("outbox has %d records, want 2", n)
		}
		units, total, err := s.ListUnits(ctx, cs.Translation.ID, 0, 10, store.Hidden{})
		if err != nil || total != 3 || len(units) != 3 {
			t.Fatalf("ListUnits = %d units, total %d, %v", len(units), total, err)
		}
		for i, u := range units {
			if u.Position != int64(i+1) || u.SourceUnitID == nil || *u.SourceUnitID != src.IDs[u.IDHash] {
				t.Errorf("unit %d: position %d source_unit %v", i, u.Position, u.SourceUnitID)
			}
			if u.Translation.LanguageCode != "cs" {
				t.Errorf("unit %d attached to %q", i, u.Translation.LanguageCode)
			}
		}
		_, all, _ := s.ListUnits(ctx, 0, 0, 2, store.Hidden{})
		if all != 6 {
			t.Errorf("all units total = %d, want 6", all)
		}

		if sc, scErr := s.GetUnitScope(ctx, units[1].ID); scErr != nil || sc != (store.UnitScope{TranslationID: units[1].TranslationID, ComponentID: 7, LanguageCode: "cs", State: 10}) {
			t.Errorf("scope of a unit: %+v %v", sc, scErr)
		}
		if _, err = s.GetUnitScope(ctx, 1<<40); !errs.Is(err, errs.NotFound) {
			t.Errorf("scope of a missing unit: %v", err)
		}

		// Edit: empty -> translated moves the counters and completes nothing yet.
		closeID := units[2].ID
		edited, err := s.EditUnit(ctx, closeID, func(v store.UnitView) (store.Edit, error) {
			if v.State != 0 {
				t.Errorf("decide saw state %d", v.State)
			}
			return store.Edit{Target: "Zavřít", State: 20, Author: "alice",
				Changes: []*changelogv1.Change{{Action: typev1.ChangeAction_CHANGE_ACTION_NEW, ProjectSlug: "p", ComponentSlug: "c", LanguageCode: "cs", UnitId: closeID}}}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if !edited.Pending || edited.Target != "Zavřít" || edited.Translation.Translated != 2 || edited.Translation.LastAuthor != "alice" {
			t.Fatalf("edited = %+v", edited)
		}
		if stored, storedErr := s.GetTranslationByID(ctx, cs.Translation.ID); storedErr != nil || !sameTranslation(stored, edited.Translation) {
			t.Errorf("the edit answers the translation\n%+v\nwhile it is stored as\n%+v (%v)", edited.Translation, stored, storedErr)
		}
		// Refusal leaves everything alone.
		_, err = s.EditUnit(ctx, closeID, func(store.UnitView) (store.Edit, error) { return store.Edit{}, errs.New(errs.PermissionDenied, "no") })
		if !errs.Is(err, errs.PermissionDenied) {
			t.Fatalf("refused edit: %v", err)
		}
		// Completing the translation adds a "Translation completed" record.
		before := outboxCount(t, gdb)
		_, err = s.EditUnit(ctx, units[1].ID, func(store.UnitView) (store.Edit, error) {
			return store.Edit{Target: "Na shledanou", State: 30, Author: "bob",
				Changes: []*changelogv1.Change{{Action: typev1.ChangeAction_CHANGE_ACTION_APPROVE, ProjectSlug: "p", ComponentSlug: "c", LanguageCode: "cs"}}}, nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if n := outboxCount(t, gdb) - before; n != 2 {
			t.Errorf("completing edit recorded %d changes, want 2", n)
		}
		tr, _ := s.GetTranslation(ctx, 7, "cs")
		if tr.Translated != 3 || tr.Approved != 1 || tr.Fuzzy != 0 || tr.ApprovedWords != 2 || tr.LastAuthor != "bob" {
			t.Fatalf("after edits = %+v", tr.Stats)
		}
		repo, _ := s.GetRepository(ctx, 7)
		if !repo.NeedsCommit {
			t.Error("edit did not flag the working copy for commit")
		}

		// Re-import keeps ids by id_hash, keeps pending edits, drops removed units.
		again, err := s.ImportTranslation(ctx, importSpec(7, "cs", src.IDs,
			unit("Hello", "Ahoj!", 20, 1), unit("Close", "", 0, 1), unit("New one", "", 0, 2)))
		if err != nil {
			t.Fatal(err)
		}
		if again.Translation.ID != cs.Translation.ID || again.IDs[units[0].IDHash] != units[0].ID || again.IDs[units[2].IDHash] != closeID {
			t.Fatalf("re-import changed ids: %+v", again.IDs)
		}
		u, _ := s.GetUnit(ctx, closeID)
		if u.Target != "Zavřít" || u.State != 20 || u.Position != 2 {
			t.Errorf("pending unit after re-import = %+v", u.Unit)
		}
		if _, err = s.GetUnit(ctx, units[1].ID); !errs.Is(err, errs.NotFound) {
			t.Errorf("removed unit still there: %v", err)
		}
		if byHash, byHashErr := s.UnitByHash(ctx, again.Translation.ID, units[2].IDHash); byHashErr != nil || byHash.ID != closeID {
			t.Errorf("UnitByHash = %+v, %v; want unit %d", byHash.Unit, byHashErr, closeID)
		}
		if _, err = s.UnitByHash(ctx, src.Translation.ID+1000, units[2].IDHash); !errs.Is(err, errs.NotFound) {
			t.Errorf("UnitByHash in another translation: %v", err)
		}
		if st := again.Translation.Stats; st.Total != 3 || st.Translated != 2 || st.TotalWords != 4 {
			t.Errorf("re-import stats = %+v", st)
		}

		// Statistics are sums of translation rows.
		sum, err := s.Statistics(ctx, store.Scope{ComponentIDs: []int64{7}})
		if err != nil || sum.Stats.Total != 6 || sum.Stats.Translated != 5 || sum.LastChange == nil {
			t.Fatalf("component stats = %+v, %v", sum, err)
		}
		lang, _ := s.Statistics(ctx, store.Scope{LanguageCode: "cs"})
		if lang.Stats.Total != 3 || lang.RecentChanges != 2 || lang.LastAuthor != "bob" {
			t.Errorf("language stats = %+v", lang)
		}
		langs, _ := s.LanguageStatistics(ctx, []int64{7, 8}, store.Hidden{})
		if len(langs) != 2 || langs[0].LanguageCode != "cs" || langs[1].LanguageCode != "en" || langs[1].Stats.Readonly != 3 {
			t.Errorf("language list = %+v", langs)
		}
		none, _ := s.Statistics(ctx, store.Scope{})
		if none.Stats.Total != 0 {
			t.Error("empty scope summed something")
		}

		// Duplicate translation rows are impossible; delete and forget clean up.
		if err := s.DeleteTranslation(ctx, cs.Translation.ID); err != nil {
			t.Fatal(err)
		}
		if _, err := s.GetTranslation(ctx, 7, "cs"); !errs.Is(err, errs.NotFound) {
			t.Errorf("deleted translation: %v", err)
		}
		if err := s.ForgetComponent(ctx, 7); err != nil {
			t.Fatal(err)
		}
		if ts, n, _ := s.ListTranslations(ctx, nil, 0, 0, store.Hidden{}); n != 0 || len(ts) != 0 {
			t.Errorf("after forget: %d translations", n)
		}
	}, store.Migrations, outbox.Migrations)
}

func TestTasks(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := context.Background()
		s := store.New(gdb)
		if _, err := s.CreateTask(ctx, "t1", 3, "me"); err != nil {
			t.Fatal(err)
		}
		if err := s.UpdateTask(ctx, "t1", 50, "cloned"); err != nil {
			t.Fatal(err)
		}
		if err := s.FinishTask(ctx, "t1", "boom"); err != nil {
			t.Fatal(err)
		}
		task, err := s.GetTask(ctx, "t1")
		if err != nil || !task.Completed || task.Error != "boom" || task.Progress != 50 || task.Log != "cloned\n" {
			t.Fatalf("task = %+v, %v", task, err)
		}
		if _, err = s.GetTask(ctx, "nope"); !errs.Is(err, errs.NotFound) {
			t.Errorf("missing task: %v", err)
		}
		if _, err = s.CreateTask(ctx, "t1", 3, ""); err == nil || errors.Is(err, context.Canceled) {
			t.Errorf("duplicate task id accepted: %v", err)
		}
		if _, err = s.CreateTask(ctx, "t2", 3, "gone"); err != nil {
			t.Fatal(err)
		}
		if _, err = s.CreateTask(ctx, "t3", 4, "gone"); err != nil {
			t.Fatal(err)
		}
		if latest, latestErr := s.LatestTask(ctx, 3); latestErr != nil || latest.ID != "t2" {
			t.Errorf("LatestTask(3) = %+v, %v; want t2", latest, latestErr)
		}
		if _, err = s.LatestTask(ctx, 99); !errs.Is(err, errs.NotFound) {
			t.Errorf("LatestTask of a component without tasks: %v", err)
		}
		running, err := s.RunningTasks(ctx)
		if err != nil || len(running) != 2 || running[0].ID != "t2" || running[1].Holder != "gone" {
			t.Errorf("RunningTasks = %+v, %v; want t2 and t3", running, err)
		}
		// Of two replicas taking t3 over, one does.
		if took, err := s.TakeOverTask(ctx, "t3", "gone", "a", "interrupted"); !took || err != nil {
			t.Errorf("first take-over: %v %v", took, err)
		}
		if took, err := s.TakeOverTask(ctx, "t3", "gone", "b", "interrupted"); took || err != nil {
			t.Errorf("second take-over: %v %v", took, err)
		}
		if task, _ := s.GetTask(ctx, "t3"); !task.Completed || task.Error != "interrupted" || task.Holder != "a" {
			t.Errorf("taken-over task: %+v", task)
		}
	}, store.Migrations, outbox.Migrations)
}

func TestAlerts(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		ctx := context.Background()
		s := store.New(gdb)
		alert := &changelogv1.Change{Action: typev1.ChangeAction_CHANGE_ACTION_ALERT, ProjectSlug: "p", ComponentSlug: "c", Details: changedetails.FromMap(map[string]any{"alert": "UpdateFailure"})}
		for _, detail := range []string{"could not fetch", "could not fetch again"} {
			if err := s.RaiseAlert(ctx, 7, "UpdateFailure", detail, alert); err != nil {
				t.Fatal(err)
			}
		}
		if err := s.RaiseAlert(ctx, 7, "ParseError", "po/de.po: bad", alert); err != nil {
			t.Fatal(err)
		}
		got, err := s.Alerts(ctx, 7)
		if err != nil || len(got) != 2 || got[0].Name != "UpdateFailure" || got[0].Detail != "could not fetch again" {
			t.Fatalf("Alerts = %+v, %v", got, err)
		}
		if n := outboxCount(t, gdb); n != 2 {
			t.Errorf("%d change records for two alerts, one raised twice; want 2", n)
		}
		if err := s.ClearAlerts(ctx, 7, "UpdateFailure", "ParseError"); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Alerts(ctx, 7); len(got) != 0 {
			t.Errorf("alerts after clearing: %+v", got)
		}
		if err := s.RaiseAlert(ctx, 7, "ParseError", "again", alert); err != nil {
			t.Fatal(err)
		}
		if err := s.ForgetComponent(ctx, 7); err != nil {
			t.Fatal(err)
		}
		if got, _ := s.Alerts(ctx, 7); len(got) != 0 {
			t.Errorf("alerts of a forgotten component: %+v", got)
		}
	}, store.Migrations, outbox.Migrations)
}
