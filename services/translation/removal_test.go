package translation_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
)

// TestDeletedComponentVanishesBeforeItIsForgotten deletes a component in
// the catalog while its rows are still here (its removal not delivered):
// no read shows or counts them. ForgetComponents then drops them and the
// working copy, and forgetting again succeeds.
func TestDeletedComponentVanishesBeforeItIsForgotten(t *testing.T) {
	e := newEnv(t, true)
	ctx := t.Context()
	origin := fixture.Origin(t, fixture.Files())
	deleted := greeter(1, origin)
	deleted.EnableSuggestions = true
	other := greeter(2, origin)
	other.Slug = "other"
	for _, c := range []*catalogv1.Component{deleted, other} {
		e.catalog.Set(c, project)
		if task := e.importNow(t, c.GetId()); task.GetError() != "" {
			t.Fatalf("import %d: %s", c.GetId(), task.GetError())
		}
	}
	de := e.translation(t, 1, "de")
	unit := e.units(t, de.GetId())[0]
	sugg, err := e.client.CreateSuggestion(ctx, &translationv1.CreateSuggestionRequest{UnitId: unit.GetId(), Target: []string{"Vorschlag"}, Actor: "admin"})
	if err != nil {
		t.Fatal(err)
	}
	comment, err := e.client.CreateComment(ctx, &translationv1.CreateCommentRequest{UnitId: unit.GetId(), Scope: "translation", Comment: "Hm", Actor: "admin"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.client.UpdateUnit(ctx, &translationv1.UpdateUnitRequest{Id: unit.GetId(), Target: []string{"Neu"}, State: typev1.UnitState_UNIT_STATE_TRANSLATED, Actor: "admin"}); err != nil {
		t.Fatal(err)
	}
	deOther := e.translation(t, 2, "de").GetStats()

	e.catalog.Remove(1)

	notFound := map[string]func() error{
		"GetTranslation": func() error {
			_, err := e.client.GetTranslation(ctx, &translationv1.GetTranslationRequest{ComponentId: 1, LanguageCode: "de"})
			return err
		},
		"ListUnits of the translation": func() error {
			_, err := e.client.ListUnits(ctx, &translationv1.ListUnitsRequest{TranslationId: de.GetId()})
			return err
		},
		"GetUnit": func() error {
			_, err := e.client.GetUnit(ctx, &translationv1.GetUnitRequest{Id: unit.GetId()})
			return err
		},
		"FindUnit": func() error {
			_, err := e.client.FindUnit(ctx, &translationv1.FindUnitRequest{TranslationId: de.GetId(), IdHash: unit.GetIdHash()})
			return err
		},
		"ListUnitTranslations": func() error {
			_, err := e.client.ListUnitTranslations(ctx, &translationv1.ListUnitTranslationsRequest{Id: unit.GetId()})
			return err
		},
		"ListSuggestions of the unit": func() error {
			_, err := e.client.ListSuggestions(ctx, &translationv1.ListSuggestionsRequest{UnitId: unit.GetId()})
			return err
		},
		"GetSuggestion": func() error {
			_, err := e.client.GetSuggestion(ctx, &translationv1.GetSuggestionRequest{Id: sugg.GetSuggestion().GetId()})
			return err
		},
		"ListComments": func() error {
			_, err := e.client.ListComments(ctx, &translationv1.ListCommentsRequest{UnitId: unit.GetId()})
			return err
		},
		"GetComment": func() error {
			_, err := e.client.GetComment(ctx, &translationv1.GetCommentRequest{Id: comment.GetComment().GetId()})
			return err
		},
	}
	for name, read := range notFound {
		if err := read(); err == nil || kind(err) != errs.NotFound {
			t.Errorf("%s of the deleted component: %v, want NotFound", name, err)
		}
	}
	onlyOther := func(when string) {
		t.Helper()
		list, err := e.client.ListTranslations(ctx, &translationv1.ListTranslationsRequest{})
		if err != nil || list.GetTotal() != 5 || len(list.GetTranslations()) != 5 {
			t.Fatalf("%s: all translations: %d, %v; want the other component's 5", when, list.GetTotal(), err)
		}
		for _, tr := range list.GetTranslations() {
			if tr.GetComponentId() != 2 {
				t.Errorf("%s: translation of component %d listed", when, tr.GetComponentId())
			}
		}
		units, err := e.client.ListUnits(ctx, &translationv1.ListUnitsRequest{Limit: 1000})
		if err != nil || units.GetTotal() != 75 {
			t.Errorf("%s: all units: %d, %v; want 75", when, units.GetTotal(), err)
		}
		found, err := e.client.ListUnits(ctx, &translationv1.ListUnitsRequest{Query: "Neu", Limit: 1000})
		if err != nil || found.GetTotal() != 0 {
			t.Errorf("%s: search for the deleted component's edit: %d, %v", when, found.GetTotal(), err)
		}
		st, err := e.client.GetStatistics(ctx, &translationv1.GetStatisticsRequest{LanguageCode: "de"})
		if err != nil || st.GetStats().GetTotal() != deOther.GetTotal() || st.GetStats().GetTranslated() != deOther.GetTranslated() {
			t.Errorf("%s: de statistics %+v, %v; want the other component's %+v", when, st.GetStats(), err, deOther)
		}
		langs, err := e.client.ListLanguageStatistics(ctx, &translationv1.ListLanguageStatisticsRequest{ComponentIds: []int64{1, 2}})
		if err != nil || len(langs.GetStats()) != 5 || langs.GetStats()[0].GetTotal() != 15 {
			t.Errorf("%s: language statistics %v, %v", when, langs.GetStats(), err)
		}
		suggs, err := e.client.ListSuggestions(ctx, &translationv1.ListSuggestionsRequest{})
		if err != nil || suggs.GetTotal() != 0 {
			t.Errorf("%s: all suggestions: %d, %v", when, suggs.GetTotal(), err)
		}
	}
	onlyOther("deleted, not yet forgotten")

	for range 2 { // the removal may be delivered twice
		if _, err := e.client.ForgetComponents(ctx, &translationv1.ForgetComponentsRequest{ComponentIds: []int64{1}}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := os.Stat(filepath.Join(e.dataDir, "repos", "1")); !os.IsNotExist(err) {
		t.Errorf("working copy of the forgotten component: %v", err)
	}
	if _, err := os.Stat(filepath.Join(e.dataDir, "repos", "2")); err != nil {
		t.Errorf("working copy of the other component: %v", err)
	}
	onlyOther("forgotten")
	e.catalog.Unremove(1) // the catalog's removal delivered: no longer pending
	onlyOther("removal delivered")
	if _, err := e.client.GetUnit(ctx, &translationv1.GetUnitRequest{Id: unit.GetId()}); err == nil || kind(err) != errs.NotFound {
		t.Errorf("unit of the forgotten component: %v", err)
	}
}

// TestForgetComponentsIsTheServicesOwn: a caller acting for a user may not
// forget anything, whether it may see the project or administer it;
// nothing is forgotten. The service itself and superusers may.
// Nor may it rename components (RenameComponents).
func TestForgetComponentsIsTheServicesOwn(t *testing.T) {
	e := newEnv(t, true)
	e.catalog.Set(greeter(1, fixture.Origin(t, fixture.Files())), project)
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	admin := policy.NewAccount("boss")
	admin.Grants = append(admin.Grants, policy.Grant{Permissions: policy.Permissions, Projects: []string{"hello"}, LanguageSelection: policy.LanguagesAll})
	callers := map[string]policy.Caller{
		"outsider who may not see the project": {Username: "eve"},
		"account that sees the project":        policy.NewAccount("alice"),
		"administrator of the project":         admin,
	}
	forget := func(ctx context.Context) error {
		_, err := e.client.ForgetComponents(ctx, &translationv1.ForgetComponentsRequest{ComponentIds: []int64{1}})
		return err
	}
	for name, c := range callers {
		if err := forget(policy.WithCaller(t.Context(), c)); err == nil || kind(err) != errs.PermissionDenied {
			t.Errorf("%s: %v, want PermissionDenied", name, err)
		}
		if _, err := e.client.ForgetComponent(policy.WithCaller(t.Context(), c), &translationv1.ForgetComponentRequest{ComponentId: 1}); err == nil || kind(err) != errs.PermissionDenied {
			t.Errorf("%s, one component: %v, want PermissionDenied", name, err)
		}
	}
	rename := &translationv1.RenameComponentsRequest{Components: []*translationv1.ComponentName{
		{ComponentId: 1, ProjectSlug: "elsewhere", ComponentSlug: "moved"}}}
	for name, c := range callers {
		if _, err := e.client.RenameComponents(policy.WithCaller(t.Context(), c), rename); err == nil || kind(err) != errs.PermissionDenied {
			t.Errorf("%s, rename: %v, want PermissionDenied", name, err)
		}
	}
	// A snapshot from a caller would rewrite the service's copy of the
	// catalog: here, delete the project.
	gone := &translationv1.CatalogSnapshot{ProjectId: 1, Revision: 1 << 40, Removed: true}
	for name, c := range callers {
		ctx := policy.WithCaller(t.Context(), c)
		_, err := e.client.ApplyCatalogSnapshots(ctx, &translationv1.ApplyCatalogSnapshotsRequest{Snapshots: []*translationv1.CatalogSnapshot{gone}})
		if kind(err) != errs.PermissionDenied {
			t.Errorf("%s, snapshot: %v, want PermissionDenied", name, err)
		}
		_, err = e.client.ImportComponent(ctx, &translationv1.ImportComponentRequest{ComponentId: 1, Snapshot: gone})
		if kind(err) != errs.PermissionDenied {
			t.Errorf("%s, import with a snapshot: %v, want PermissionDenied", name, err)
		}
	}
	if list, err := e.client.ListTranslations(t.Context(), &translationv1.ListTranslationsRequest{ComponentId: 1}); err != nil || list.GetTotal() != 5 {
		t.Fatalf("after refused forgets: %d translations, %v", list.GetTotal(), err)
	}
	list, err := e.client.ListTranslations(t.Context(), &translationv1.ListTranslationsRequest{ComponentId: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, tr := range list.GetTranslations() {
		if tr.GetProjectSlug() != "hello" {
			t.Errorf("a refused rename filed %s under %q", tr.GetLanguageCode(), tr.GetProjectSlug())
		}
	}
	if err := forget(policy.WithCaller(t.Context(), policy.Caller{Username: "root", Superuser: true})); err != nil {
		t.Fatalf("superuser: %v", err)
	}
	if list, _ := e.client.ListTranslations(t.Context(), &translationv1.ListTranslationsRequest{ComponentId: 1}); list.GetTotal() != 0 {
		t.Errorf("after the superuser's forget: %d translations", list.GetTotal())
	}
}

// TestImportNeedsComponentEdit: the catalog imports as itself; a caller
// acting for a user needs component.edit, and one who may not see the
// project finds nothing.
func TestImportNeedsComponentEdit(t *testing.T) {
	e := newEnv(t, true)
	e.catalog.Set(greeter(1, fixture.Origin(t, fixture.Files())), project)
	importAs := func(c policy.Caller) error {
		_, err := e.client.ImportComponent(policy.WithCaller(t.Context(), c), &translationv1.ImportComponentRequest{ComponentId: 1})
		return err
	}
	if err := importAs(policy.Caller{Username: "eve"}); err == nil || kind(err) != errs.NotFound {
		t.Errorf("caller who may not see the project: %v, want NotFound", err)
	}
	if err := importAs(policy.NewAccount("alice")); err == nil || kind(err) != errs.PermissionDenied {
		t.Errorf("caller without component.edit: %v, want PermissionDenied", err)
	}
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Errorf("the service's own import: %s", task.GetError())
	}
}
