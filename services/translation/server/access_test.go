package server_test

import (
	"context"
	"testing"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

var (
	// outsider may not see project p: no team selects it.
	outsider = policy.Caller{Username: "eve"}
	// viewer sees every project and holds no permission.
	viewer = policy.Caller{Username: "vera", Grants: []policy.Grant{
		{ProjectSelection: policy.SelectAll, LanguageSelection: policy.LanguagesAll}}}
)

// fingerprint is what the writes below could change: the rows of the
// tables they write and the lock requests sent to the catalog.
func (r *rig) fingerprint() map[string]int64 {
	r.t.Helper()
	out := map[string]int64{}
	for _, table := range []string{"translations", "units", "suggestions", "suggestion_votes", "comments"} {
		var n int64
		if err := r.gdb.Table(table).Count(&n).Error; err != nil {
			r.t.Fatal(err)
		}
		out[table] = n
	}
	var resolved int64
	if err := r.gdb.Table("comments").Where("resolved = ?", true).Count(&resolved).Error; err != nil {
		r.t.Fatal(err)
	}
	out["resolved comments"] = resolved
	out["lock requests"] = int64(len(r.catalog.Locks))
	return out
}

// unchanged fails unless nothing changed since before was taken and no
// change was recorded.
func (r *rig) unchanged(t *testing.T, before map[string]int64) {
	t.Helper()
	after := r.fingerprint()
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s: %d, was %d", k, after[k], v)
		}
	}
	if got := r.changes(); len(got) != 0 {
		t.Errorf("%d changes recorded: %v", len(got), got)
	}
}

// TestWritesCheckAccess: every write of the service answers a caller
// acting for a user as the REST API does: NotFound when it may not see the
// project, PermissionDenied when it sees it without the permission, and
// changes nothing either way.
func TestWritesCheckAccess(t *testing.T) {
	r := newRig(t, dbtest.SQLite(t, store.Sources()...))
	r.setComponent(func(c *catalogv1.Component) {
		c.EnableSuggestions, c.SuggestionVoting, c.ManageUnits = true, true, true
		c.NewBase = "po/c.pot"
	})
	ctx := t.Context()
	hello := r.units(r.cs, "")[0]
	sug, err := r.client.CreateSuggestion(ctx, &translationv1.CreateSuggestionRequest{
		UnitId: hello.GetId(), Target: []string{"Ahoj"}, Actor: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	com, err := r.client.CreateComment(ctx, &translationv1.CreateCommentRequest{
		UnitId: hello.GetId(), Scope: "translation", Comment: "Tone?", Actor: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	r.changes()
	sid, cid := sug.GetSuggestion().GetId(), com.GetComment().GetId()
	srcHello := r.units(r.en, "")[0]
	c := r.client
	for _, w := range []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"AddTranslation", func(ctx context.Context) error {
			_, err := c.AddTranslation(ctx, &translationv1.AddTranslationRequest{ComponentId: 1, LanguageCode: "de"})
			return err
		}},
		{"DeleteTranslation", func(ctx context.Context) error {
			_, err := c.DeleteTranslation(ctx, &translationv1.DeleteTranslationRequest{ComponentId: 1, LanguageCode: "cs"})
			return err
		}},
		{"UpdateUnit explanation", func(ctx context.Context) error {
			_, err := c.UpdateUnit(ctx, &translationv1.UpdateUnitRequest{Id: srcHello.GetId(), SetExplanation: true, Explanation: "x", LabelsOnly: true})
			return err
		}},
		{"UpdateUnit extra flags", func(ctx context.Context) error {
			_, err := c.UpdateUnit(ctx, &translationv1.UpdateUnitRequest{Id: srcHello.GetId(), SetExtraFlags: true, ExtraFlags: "max-length:3", LabelsOnly: true})
			return err
		}},
		{"CreateUnit", func(ctx context.Context) error {
			_, err := c.CreateUnit(ctx, &translationv1.CreateUnitRequest{TranslationId: r.cs, Source: []string{"Bye"}})
			return err
		}},
		{"DeleteUnit", func(ctx context.Context) error {
			_, err := c.DeleteUnit(ctx, &translationv1.DeleteUnitRequest{Id: hello.GetId()})
			return err
		}},
		{"CreateSuggestion", func(ctx context.Context) error {
			_, err := c.CreateSuggestion(ctx, &translationv1.CreateSuggestionRequest{UnitId: hello.GetId(), Target: []string{"Nazdar"}})
			return err
		}},
		{"AcceptSuggestion", func(ctx context.Context) error {
			_, err := c.AcceptSuggestion(ctx, &translationv1.AcceptSuggestionRequest{Id: sid})
			return err
		}},
		{"DeleteSuggestion", func(ctx context.Context) error {
			_, err := c.DeleteSuggestion(ctx, &translationv1.DeleteSuggestionRequest{Id: sid})
			return err
		}},
		{"VoteSuggestion", func(ctx context.Context) error {
			_, err := c.VoteSuggestion(ctx, &translationv1.VoteSuggestionRequest{Id: sid, Value: 1})
			return err
		}},
		{"CreateComment", func(ctx context.Context) error {
			_, err := c.CreateComment(ctx, &translationv1.CreateCommentRequest{UnitId: hello.GetId(), Scope: "global", Comment: "Hm"})
			return err
		}},
		{"ResolveComment", func(ctx context.Context) error {
			_, err := c.ResolveComment(ctx, &translationv1.ResolveCommentRequest{Id: cid})
			return err
		}},
		{"DeleteComment", func(ctx context.Context) error {
			_, err := c.DeleteComment(ctx, &translationv1.DeleteCommentRequest{Id: cid})
			return err
		}},
		{"RunRepositoryOperation", func(ctx context.Context) error {
			_, err := c.RunRepositoryOperation(ctx, &translationv1.RunRepositoryOperationRequest{ComponentIds: []int64{1}, Operation: "push"})
			return err
		}},
	} {
		t.Run(w.name, func(t *testing.T) {
			for _, k := range []struct {
				name   string
				caller policy.Caller
				want   errs.Kind
			}{
				{"invisible project", outsider, errs.NotFound},
				{"without permission", viewer, errs.PermissionDenied},
			} {
				t.Run(k.name, func(t *testing.T) {
					before := r.fingerprint()
					wantKind(t, w.call(policy.WithCaller(t.Context(), k.caller)), k.want, w.name)
					r.unchanged(t, before)
				})
			}
		})
	}
}

// TestAuthorActsOnOwn: the author of a comment or suggestion may resolve
// or delete it without the permission, as in the REST API; another caller
// without it may not.
func TestAuthorActsOnOwn(t *testing.T) {
	r := newRig(t, dbtest.SQLite(t, store.Sources()...))
	r.setComponent(func(c *catalogv1.Component) { c.EnableSuggestions = true })
	other := policy.Caller{Username: "otto", Grants: viewer.Grants}
	hello := r.units(r.cs, "")[0]
	for _, w := range []struct {
		name string
		call func(ctx context.Context, id int64) error
	}{
		{"ResolveComment", func(ctx context.Context, id int64) error {
			_, err := r.client.ResolveComment(ctx, &translationv1.ResolveCommentRequest{Id: id})
			return err
		}},
		{"DeleteComment", func(ctx context.Context, id int64) error {
			_, err := r.client.DeleteComment(ctx, &translationv1.DeleteCommentRequest{Id: id})
			return err
		}},
		{"DeleteSuggestion", func(ctx context.Context, id int64) error {
			_, err := r.client.DeleteSuggestion(ctx, &translationv1.DeleteSuggestionRequest{Id: id})
			return err
		}},
	} {
		t.Run(w.name, func(t *testing.T) {
			var id int64
			if w.name == "DeleteSuggestion" {
				resp, err := r.client.CreateSuggestion(t.Context(), &translationv1.CreateSuggestionRequest{
					UnitId: hello.GetId(), Target: []string{"Ahoj " + w.name}, Actor: viewer.Username})
				if err != nil {
					t.Fatal(err)
				}
				id = resp.GetSuggestion().GetId()
			} else {
				resp, err := r.client.CreateComment(t.Context(), &translationv1.CreateCommentRequest{
					UnitId: hello.GetId(), Scope: "translation", Comment: w.name, Actor: viewer.Username})
				if err != nil {
					t.Fatal(err)
				}
				id = resp.GetComment().GetId()
			}
			r.changes()
			wantKind(t, w.call(policy.WithCaller(t.Context(), other), id), errs.PermissionDenied, "another caller")
			if err := w.call(policy.WithCaller(t.Context(), viewer), id); err != nil {
				t.Errorf("author: %v", err)
			}
		})
	}
}

// TestTaskAndAlertsCheckVisibility: a task or the alerts of a component
// of a project the caller may not see do not exist for it; one who sees
// the project reads them.
func TestTaskAndAlertsCheckVisibility(t *testing.T) {
	r := newRig(t, dbtest.SQLite(t, store.Sources()...))
	st := store.New(r.gdb)
	if _, err := st.CreateTask(t.Context(), "task-1", 1, ""); err != nil {
		t.Fatal(err)
	}
	if err := st.RaiseAlert(t.Context(), 1, "UpdateFailure", "could not fetch"); err != nil {
		t.Fatal(err)
	}
	for _, rd := range []struct {
		name string
		call func(ctx context.Context) error
	}{
		{"GetTask by id", func(ctx context.Context) error {
			_, err := r.client.GetTask(ctx, &translationv1.GetTaskRequest{Id: "task-1"})
			return err
		}},
		{"GetTask of a component", func(ctx context.Context) error {
			_, err := r.client.GetTask(ctx, &translationv1.GetTaskRequest{ComponentId: 1})
			return err
		}},
		{"ListAlerts", func(ctx context.Context) error {
			resp, err := r.client.ListAlerts(ctx, &translationv1.ListAlertsRequest{ComponentId: 1})
			if err == nil && len(resp.GetAlerts()) != 1 {
				t.Errorf("%d alerts", len(resp.GetAlerts()))
			}
			return err
		}},
	} {
		t.Run(rd.name, func(t *testing.T) {
			t.Run("invisible project", func(t *testing.T) {
				wantKind(t, rd.call(policy.WithCaller(t.Context(), outsider)), errs.NotFound, rd.name)
			})
			t.Run("visible project", func(t *testing.T) {
				if err := rd.call(policy.WithCaller(t.Context(), viewer)); err != nil {
					t.Error(err)
				}
			})
			t.Run("service", func(t *testing.T) {
				if err := rd.call(t.Context()); err != nil {
					t.Error(err)
				}
			})
		})
	}
}
