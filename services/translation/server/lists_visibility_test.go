package server_test

import (
	"strings"
	"testing"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/textstat"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// addPrivateComponent imports component 2 of the private project
// "secret": an English source and a German translation of one string,
// which gets a suggestion. It returns how many translations it added.
func (r *rig) addPrivateComponent() int64 {
	r.t.Helper()
	r.catalog.Set(&catalogv1.Component{Id: 2, ProjectSlug: "secret", Slug: "app", SourceLanguageCode: "en", FileFormat: "po"},
		&catalogv1.Project{Slug: "secret", AccessControl: typev1.AccessControl_ACCESS_CONTROL_PRIVATE})
	st := store.New(r.gdb)
	src := []string{"Secret"}
	unit := func(target string, state int) store.Unit {
		return store.Unit{Source: store.Join(src), Target: target, State: state, IDHash: textstat.IDHash(src, ""),
			ContentHash: textstat.ContentHash(src, ""), NumWords: 1, NumChars: 6, Priority: 100}
	}
	en, err := st.ImportTranslation(r.t.Context(), store.ImportSpec{
		Translation: store.Translation{ComponentID: 2, ProjectSlug: "secret", ComponentSlug: "app", LanguageCode: "en", PluralNumber: 2, IsSource: true},
		Units:       []store.Unit{unit("Secret", weblate.StateReadOnly)}})
	if err != nil {
		r.t.Fatal(err)
	}
	de, err := st.ImportTranslation(r.t.Context(), store.ImportSpec{
		Translation: store.Translation{ComponentID: 2, ProjectSlug: "secret", ComponentSlug: "app", LanguageCode: "de", PluralNumber: 2, Filename: "po/de.po"},
		Units:       []store.Unit{unit("", 0)}, SourceIDs: en.IDs})
	if err != nil {
		r.t.Fatal(err)
	}
	for _, id := range de.IDs {
		if _, err := st.AddSuggestion(r.t.Context(), id, "Geheim", "alice"); err != nil {
			r.t.Fatal(err)
		}
	}
	return 2
}

// pageByPage reads a list one row per request, checking every page's
// total against want, and returns the project of each row.
func pageByPage(t *testing.T, want int64, list func(offset int64) ([]string, int64, error)) []string {
	t.Helper()
	var out []string
	for offset := int64(0); offset <= want; offset++ {
		rows, total, err := list(offset)
		if err != nil {
			t.Fatalf("offset %d: %v", offset, err)
		}
		if total != want {
			t.Errorf("offset %d: total %d, want %d", offset, total, want)
		}
		out = append(out, rows...)
	}
	if int64(len(out)) != want {
		t.Errorf("%d rows listed, want %d: %v", len(out), want, out)
	}
	return out
}

// TestListsLeaveOutPrivateProjects: the lists of every translation and of
// every suggestion leave a private project's rows out of each page and of
// the total for the anonymous caller and a signed-in outsider, so that a
// client paging them gets exact pages; a member of the project, a
// superuser and the service's own calls get its rows.
func TestListsLeaveOutPrivateProjects(t *testing.T) {
	r := newRig(t, dbtest.SQLite(t, store.Sources()...))
	hello := r.units(r.cs, "")[0]
	if _, err := store.New(r.gdb).AddSuggestion(t.Context(), hello.GetId(), "Ahoj", "alice"); err != nil {
		t.Fatal(err)
	}
	secretTranslations := r.addPrivateComponent()
	member := policy.Caller{Username: "mia", Grants: append(policy.DefaultGrants(false),
		policy.Grant{ProjectSelection: policy.SelectManual, Projects: []string{"secret"}})}
	root := policy.Caller{Username: "root", Superuser: true}
	for _, tc := range []struct {
		name   string
		caller *policy.Caller // nil: the service's own call
		secret bool
	}{
		{"anonymous", &policy.Anonymous, false},
		{"outsider", new(policy.NewAccount("olga")), false},
		{"member", &member, true},
		{"superuser", &root, true},
		{"service", nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			if tc.caller != nil {
				ctx = policy.WithCaller(ctx, *tc.caller)
			}
			wantTranslations, wantSuggestions := int64(2), int64(1)
			if tc.secret {
				wantTranslations, wantSuggestions = wantTranslations+secretTranslations, wantSuggestions+1
			}
			translations := pageByPage(t, wantTranslations, func(offset int64) ([]string, int64, error) {
				resp, err := r.client.ListTranslations(ctx, &translationv1.ListTranslationsRequest{Offset: offset, Limit: 1})
				var rows []string
				for _, x := range resp.GetTranslations() {
					rows = append(rows, x.GetProjectSlug())
				}
				return rows, resp.GetTotal(), err
			})
			suggestions := pageByPage(t, wantSuggestions, func(offset int64) ([]string, int64, error) {
				resp, err := r.client.ListSuggestions(ctx, &translationv1.ListSuggestionsRequest{Offset: offset, Limit: 1})
				var rows []string
				for _, x := range resp.GetSuggestions() {
					rows = append(rows, x.GetProjectSlug())
				}
				return rows, resp.GetTotal(), err
			})
			for _, p := range append(translations, suggestions...) {
				if p == "secret" && !tc.secret {
					t.Errorf("%s lists a row of the private project", tc.name)
				}
			}
			// The counts of metrics take what the caller may see; so do
			// the translations of named components.
			m, err := r.client.GetMetrics(ctx, &translationv1.GetMetricsRequest{})
			if err != nil || m.GetTranslations() != wantTranslations || m.GetSuggestions() != wantSuggestions {
				t.Errorf("%s: metrics %v %v, want %d translations and %d suggestions", tc.name, m, err, wantTranslations, wantSuggestions)
			}
			// So do the languages with a translation.
			codes, err := r.client.ListLanguageCodes(ctx, &translationv1.ListLanguageCodesRequest{})
			wantCodes := map[bool]string{false: "cs,en", true: "cs,de,en"}[tc.secret]
			if err != nil || strings.Join(codes.GetCodes(), ",") != wantCodes {
				t.Errorf("%s: languages %v %v, want %s", tc.name, codes.GetCodes(), err, wantCodes)
			}
			named, err := r.client.ListTranslations(ctx, &translationv1.ListTranslationsRequest{ComponentIds: []int64{1, 2}})
			if err != nil || named.GetTotal() != wantTranslations {
				t.Errorf("%s: translations of components 1 and 2: %d, %v", tc.name, named.GetTotal(), err)
			}
			// A search naming the private project finds its strings only
			// for those who may see it.
			found, err := r.client.ListUnits(ctx, &translationv1.ListUnitsRequest{Query: "project:secret"})
			wantFound := int64(0)
			if tc.secret {
				wantFound = 2 // the source string and its German translation
			}
			if err != nil || found.GetTotal() != wantFound || int64(len(found.GetUnits())) != wantFound {
				t.Errorf("%s: project:secret finds %d (%d listed), want %d: %v", tc.name, found.GetTotal(), len(found.GetUnits()), wantFound, err)
			}
		})
	}
}
