package server_test

import (
	"slices"
	"testing"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/textstat"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// addCopyComponent stores component 2 of project p (p/d), taking
// propagated translations, with a Czech translation holding "Hello"
// untranslated: a copy of p/c's "Hello". It returns the copy's id.
func (r *rig) addCopyComponent(locked bool) int64 {
	r.t.Helper()
	r.catalog.Set(&catalogv1.Component{Id: 2, ProjectSlug: "p", Slug: "d", SourceLanguageCode: "en", FileFormat: "po",
		AllowTranslationPropagation: true, Locked: locked}, &catalogv1.Project{Slug: "p", TranslationReview: true})
	st := store.New(r.gdb)
	hello := store.Unit{Source: "Hello", IDHash: textstat.IDHash([]string{"Hello"}, ""), NumWords: 1, NumChars: 5, Priority: 100}
	src := hello
	src.Target, src.State = "Hello", 100
	en, err := st.ImportTranslation(r.t.Context(), store.ImportSpec{Units: []store.Unit{src},
		Translation: store.Translation{ComponentID: 2, ProjectSlug: "p", ComponentSlug: "d", LanguageCode: "en", PluralNumber: 2, IsSource: true}})
	if err != nil {
		r.t.Fatal(err)
	}
	cs, err := st.ImportTranslation(r.t.Context(), store.ImportSpec{Units: []store.Unit{hello}, SourceIDs: en.IDs,
		Checks:      store.CheckRules{Propagate: true},
		Translation: store.Translation{ComponentID: 2, ProjectSlug: "p", ComponentSlug: "d", LanguageCode: "cs", PluralNumber: 3}})
	if err != nil {
		r.t.Fatal(err)
	}
	r.changes()
	return cs.IDs[hello.IDHash]
}

// TestPropagationNeedsRights: an edit reaches the copy of its string in
// another component only where the caller may edit it, and not in a
// locked component; a propagated copy records "Propagated change".
func TestPropagationNeedsRights(t *testing.T) {
	for _, tc := range []struct {
		name   string
		grant  policy.Grant
		locked bool
		want   string // the copy's target afterwards
	}{
		{"rights in both", policy.Grant{ProjectSelection: policy.SelectManual, Projects: []string{"p"}, LanguageSelection: policy.LanguagesAll,
			Permissions: []string{"unit.edit"}}, false, "Ahoj"},
		{"rights in the edited component only", policy.Grant{Components: []string{"p/c"}, LanguageSelection: policy.LanguagesAll,
			Permissions: []string{"unit.edit"}}, false, ""},
		{"copy's component locked", policy.Grant{ProjectSelection: policy.SelectManual, Projects: []string{"p"}, LanguageSelection: policy.LanguagesAll,
			Permissions: []string{"unit.edit"}}, true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, dbtest.SQLite(t, store.Sources()...))
			copyID := r.addCopyComponent(tc.locked)
			hello := r.units(r.cs, "")[0]
			ctx := policy.WithCaller(t.Context(), policy.Caller{Username: "tina", Grants: []policy.Grant{tc.grant}})
			_, err := r.client.UpdateUnit(ctx, &translationv1.UpdateUnitRequest{Id: hello.GetId(), Target: []string{"Ahoj"}, State: 20, Actor: "tina"})
			if err != nil {
				t.Fatal(err)
			}
			got, err := store.New(r.gdb).GetUnit(t.Context(), copyID)
			if err != nil || got.Target != tc.want {
				t.Errorf("the copy holds %q, want %q: %v", got.Target, tc.want, err)
			}
			propagated := slices.ContainsFunc(r.changes(), func(c *changelogv1.Change) bool {
				return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_PROPAGATED_EDIT
			})
			if propagated != (tc.want != "") {
				t.Errorf("propagated change recorded: %v", propagated)
			}
		})
	}
}
