package server_test

import (
	"context"
	"testing"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/catalog/server"
	"github.com/tmsproject/tms/services/catalog/store"
)

// fakeStore stands in for the component reads and the outcomes of
// imports, in memory: the server's rules (visibility, credentials, who
// may record an outcome) run without a database. A role a test does not
// fake panics when called (the nil embedded Store).
type fakeStore struct {
	server.Store
	components map[int64]*store.Component
	branches   map[int64]string // RecordBranch calls
	languages  map[string]*store.Language
	plurals    []store.Plural
	touched    int // TouchLanguages calls
}

func (f *fakeStore) GetLanguage(_ context.Context, code string) (*store.Language, error) {
	if l, ok := f.languages[code]; ok {
		return l, nil
	}
	return nil, store.ErrNotFound
}

func (f *fakeStore) CreateLanguage(_ context.Context, l store.Language) (*store.Language, error) {
	if old, ok := f.languages[l.Code]; ok {
		return old, nil
	}
	l.ID = int64(100 + len(f.languages))
	f.languages[l.Code] = &l
	return &l, nil
}

func (f *fakeStore) ListPlurals(_ context.Context, languageID int64) ([]store.Plural, error) {
	var out []store.Plural
	for _, p := range f.plurals {
		if p.LanguageID == languageID {
			out = append(out, p)
		}
	}
	return out, nil
}

func (f *fakeStore) CreatePlural(_ context.Context, p store.Plural) (*store.Plural, error) {
	p.ID = int64(200 + len(f.plurals))
	f.plurals = append(f.plurals, p)
	return &p, nil
}

func (f *fakeStore) TouchLanguages(context.Context) error {
	f.touched++
	return nil
}

func (f *fakeStore) GetComponentByID(_ context.Context, id int64) (*store.Component, error) {
	c, ok := f.components[id]
	if !ok {
		return nil, store.ErrNotFound
	}
	out := *c
	return &out, nil
}

func (f *fakeStore) RecordBranch(_ context.Context, id int64, branch string) error {
	f.branches[id] = branch
	return nil
}

// newFakeServer is a server on a fake store with a component with
// credentials in its repository URL in each of a public project (1) and
// a private one (2).
func newFakeServer() (*server.Server, *fakeStore) {
	f := &fakeStore{components: map[int64]*store.Component{}, branches: map[int64]string{},
		languages: map[string]*store.Language{"de": {ID: 1, Code: "de", PluralNumber: 2, PluralFormula: "n != 1"}}}
	for id, p := range map[int64]struct {
		slug   string
		access typev1.AccessControl
	}{1: {"open", typev1.AccessControl_ACCESS_CONTROL_PUBLIC}, 2: {"secret", typev1.AccessControl_ACCESS_CONTROL_PRIVATE}} {
		f.components[id] = &store.Component{ID: id, ProjectID: id, Slug: "app", Name: "App", ProjectSlug: p.slug,
			ProjectAccess: weblate.AccessControls.RefOf(p.access), Repo: "https://user:secret@example.com/r.git", FileFormat: "po"}
	}
	return server.New(f, server.Config{}), f
}

// TestGetComponentWithFakeStore: a component of a private project is
// NotFound to those who may not see it, and its repository credentials
// reach the services' own calls only.
func TestGetComponentWithFakeStore(t *testing.T) {
	srv, _ := newFakeServer()
	member := policy.Caller{Username: "mia", Grants: []policy.Grant{{ProjectSelection: policy.SelectManual, Projects: []string{"secret"}}}}
	const secretRepo = "https://user:secret@example.com/r.git"
	for _, tc := range []struct {
		name       string
		caller     *policy.Caller // nil: the service's own call
		id         int64
		found      bool // else NotFound
		secretRepo bool
	}{
		{"anonymous, public project", &policy.Anonymous, 1, true, false},
		{"anonymous, private project", &policy.Anonymous, 2, false, false},
		{"outsider, private project", &outsider, 2, false, false},
		{"member, private project", &member, 2, true, false},
		{"service, private project", nil, 2, true, true},
		{"unknown component", nil, 9, false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := t.Context()
			if tc.caller != nil {
				ctx = policy.WithCaller(ctx, *tc.caller)
			}
			resp, err := srv.GetComponent(ctx, &catalogv1.GetComponentRequest{Id: tc.id})
			found := err == nil && resp.GetComponent().GetId() == tc.id
			if found != tc.found || (!found && errs.KindOf(err) != errs.NotFound) {
				t.Fatalf("GetComponent(%d): %v, %v; want found %v, else NotFound", tc.id, resp.GetComponent(), err, tc.found)
			}
			if found && (resp.GetComponent().GetRepo() == secretRepo) != tc.secretRepo {
				t.Errorf("repository shown as %q", resp.GetComponent().GetRepo())
			}
		})
	}
}

// TestRecordImportOutcomesWithFakeStore: only the services' own calls and
// superusers record what imports found.
func TestRecordImportOutcomesWithFakeStore(t *testing.T) {
	srv, f := newFakeServer()
	req := &catalogv1.RecordImportOutcomesRequest{Outcomes: []*catalogv1.ImportOutcome{{ComponentId: 1, Branch: "main"}}}
	owner := policy.Caller{Username: "olga", Grants: []policy.Grant{{Permissions: policy.Permissions, ProjectSelection: policy.SelectAll}}}
	for _, tc := range []struct {
		name    string
		caller  *policy.Caller
		allowed bool // else PermissionDenied
	}{
		{"anonymous", &policy.Anonymous, false},
		{"administrator of every project", &owner, false},
		{"superuser", &superuser, true},
		{"service", nil, true},
	} {
		ctx := t.Context()
		if tc.caller != nil {
			ctx = policy.WithCaller(ctx, *tc.caller)
		}
		clear(f.branches)
		_, err := srv.RecordImportOutcomes(ctx, req)
		ok := err == nil && f.branches[1] == "main"
		if ok != tc.allowed || (!ok && (len(f.branches) != 0 || errs.KindOf(err) != errs.PermissionDenied)) {
			t.Errorf("%s: %v, recorded %v; want allowed %v, else PermissionDenied", tc.name, err, f.branches, tc.allowed)
		}
	}
}

// TestRecordImportOutcomesLanguagesWithFakeStore: the languages and rules
// an import's files named that the translation service's copy lacked are
// stored as EnsureLanguage stores them (a new language from its file's
// rule, a new plural of a known one, nothing for a rule stored already),
// a code no language can be made of is skipped, and the table is sent
// again once for the call.
func TestRecordImportOutcomesLanguagesWithFakeStore(t *testing.T) {
	srv, f := newFakeServer()
	three := "n==1 ? 0 : n==2 ? 1 : 2"
	req := &catalogv1.RecordImportOutcomesRequest{Outcomes: []*catalogv1.ImportOutcome{
		{Languages: []*catalogv1.EnsureLanguageRequest{{Code: "zz", PluralNumber: 3, PluralFormula: three},
			{Code: "de", PluralNumber: 3, PluralFormula: three}}},
		{Languages: []*catalogv1.EnsureLanguageRequest{{Code: "de", PluralNumber: 3, PluralFormula: three},
			{Code: "not a code"}}},
	}}
	if _, err := srv.RecordImportOutcomes(t.Context(), req); err != nil {
		t.Fatal(err)
	}
	if zz := f.languages["zz"]; zz == nil || zz.PluralNumber != 3 || zz.PluralFormula != three {
		t.Errorf("zz: %+v", zz)
	}
	if len(f.plurals) != 1 || f.plurals[0].LanguageID != 1 || f.plurals[0].Number != 3 {
		t.Errorf("plurals: %+v, want de's three-form rule once", f.plurals)
	}
	if f.touched != 1 {
		t.Errorf("the table was sent %d times, want 1", f.touched)
	}
}
