package server_test

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"

	"google.golang.org/grpc"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/grpctest"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
	"github.com/tmsproject/tms/services/translation/server"
	"github.com/tmsproject/tms/services/translation/store"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// newRepoRig is a rig whose component (id 1) is the fixture repository,
// cloned and imported; mod adjusts the component first. It returns the
// bare origin. r.en and r.cs are left zero: translations come by code.
func newRepoRig(t *testing.T, gdb *gorm.DB, mod func(*catalogv1.Component)) (*rig, string) {
	t.Helper()
	origin := fixture.Origin(t, fixture.Files())
	c := &catalogv1.Component{Id: 1, ProjectSlug: "p", Slug: "c", Repo: origin, Filemask: "po/*.po",
		NewBase: "po/greeter.pot", SourceLanguageCode: "en", FileFormat: "po", EnableSuggestions: true}
	if mod != nil {
		mod(c)
	}
	r := &rig{t: t, gdb: gdb, catalog: fixture.NewCatalog()}
	r.catalog.Set(c, &catalogv1.Project{Slug: "p"})
	catConn := grpctest.Serve(t, func(s grpc.ServiceRegistrar) { catalogv1.RegisterCatalogServiceServer(s, r.catalog) })
	srv := server.New(server.Config{Store: store.New(gdb), Catalog: catalogv1.NewCatalogServiceClient(catConn),
		Repos: workcopy.NewManager(t.TempDir()), AllowLocalRepos: true, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(srv.Close)
	r.client = translationv1.NewTranslationServiceClient(grpctest.Serve(t, func(s grpc.ServiceRegistrar) {
		translationv1.RegisterTranslationServiceServer(s, srv)
	}))
	if err := r.catalog.SetSink(func(ctx context.Context, req *translationv1.ApplyCatalogSnapshotsRequest) error {
		_, err := r.client.ApplyCatalogSnapshots(ctx, req)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	resp, err := r.client.ImportComponent(t.Context(), &translationv1.ImportComponentRequest{ComponentId: 1, Actor: "admin"})
	if err != nil {
		t.Fatal(err)
	}
	srv.Wait()
	task, err := r.client.GetTask(t.Context(), &translationv1.GetTaskRequest{Id: resp.GetTask().GetId()})
	if err != nil || task.GetTask().GetError() != "" {
		t.Fatalf("import: %v, %v", task.GetTask(), err)
	}
	r.changes()
	return r, origin
}

// translationID returns the id of the component's translation to code.
func (r *rig) translationID(code string) int64 {
	r.t.Helper()
	resp, err := r.client.GetTranslation(r.t.Context(), &translationv1.GetTranslationRequest{ComponentId: 1, LanguageCode: code})
	if err != nil {
		r.t.Fatalf("translation %s: %v", code, err)
	}
	return resp.GetTranslation().GetId()
}

// unitOf returns the unit of the translation to code with source text src
// and no context.
func (r *rig) unitOf(code, src string) *translationv1.Unit {
	r.t.Helper()
	for _, u := range r.units(r.translationID(code), "") {
		if u.GetSource()[0] == src && u.GetContext() == "" {
			return u
		}
	}
	r.t.Fatalf("no %s unit %q", code, src)
	return nil
}

func (r *rig) suggest(code, src, target, user string) {
	r.t.Helper()
	_, err := r.client.CreateSuggestion(r.t.Context(), &translationv1.CreateSuggestionRequest{
		UnitId: r.unitOf(code, src).GetId(), Target: []string{target}, Actor: user})
	if err != nil {
		r.t.Fatalf("suggest %q for %s %q: %v", target, code, src, err)
	}
}

func (r *rig) op(name string) *translationv1.RunRepositoryOperationResponse {
	r.t.Helper()
	resp, err := r.client.RunRepositoryOperation(r.t.Context(), &translationv1.RunRepositoryOperationRequest{
		ComponentIds: []int64{1}, Operation: name, Actor: "admin"})
	if err != nil {
		r.t.Fatalf("%s: %v", name, err)
	}
	return resp
}

// TestPullCleansSuggestions pulls an upstream translation equal to a
// suggestion and the removal of a suggested string: both suggestions are
// cleaned up with action 29, the others survive, the counters stay exact.
func TestPullCleansSuggestions(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		r, origin := newRepoRig(t, gdb, nil)
		r.suggest("cs", "Close", "Zavřít", "alice")
		r.suggest("cs", "Close", "Zavři", "bob")
		r.suggest("cs", "Theme", "Motiv", "alice")
		r.suggest("pt_BR", "Send", "Enviar", "alice")
		closeID := r.unitOf("cs", "Close").GetId()
		r.changes()

		cs := strings.Replace(fixture.PO("cs"), `msgstr "[cs] Close"`, `msgstr "Zavřít"`, 1)
		cs = strings.Replace(cs, "#: src/prefs.c:7\nmsgid \"Theme\"\nmsgstr \"[cs] Theme\"\n\n", "", 1)
		fixture.Upstream(t, origin, map[string]string{"po/cs.po": cs})
		if res := r.op("pull"); !res.GetResult() {
			t.Fatalf("pull: %+v", res)
		}
		var cleaned []string
		for _, c := range r.changes() {
			if c.GetAction() != store.ActionSuggestionCleanup {
				continue
			}
			cleaned = append(cleaned, c.GetTarget())
			if c.GetAuthor() != store.AnonymousUser || c.GetUser() != "" || c.GetLanguageCode() != "cs" {
				t.Errorf("cleanup record %v", c)
			}
			if want := map[string]int64{"Zavřít": closeID, "Motiv": 0}[c.GetTarget()]; c.GetUnitId() != want {
				t.Errorf("cleanup of %q names unit %d, want %d", c.GetTarget(), c.GetUnitId(), want)
			}
		}
		if !slices.Equal(cleaned, []string{"Zavřít", "Motiv"}) {
			t.Errorf("cleaned up %q", cleaned)
		}
		list, err := r.client.ListSuggestions(t.Context(), &translationv1.ListSuggestionsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		var left []string
		for _, sg := range list.GetSuggestions() {
			left = append(left, sg.GetTarget()[0])
		}
		if !slices.Equal(left, []string{"Zavři", "Enviar"}) {
			t.Errorf("suggestions after pull = %q", left)
		}
		if u := r.unitOf("cs", "Close"); u.GetTarget()[0] != "Zavřít" || !u.GetHasSuggestion() {
			t.Errorf("cs Close after pull = %v", u)
		}
		for _, code := range []string{"cs", "pt_BR"} {
			r.exact(r.translationID(code))
		}
		if st := r.stats(r.translationID("cs")); st.Suggestions != 1 {
			t.Errorf("cs suggestions counter = %d", st.Suggestions)
		}
	}, store.Sources()...)
}

// TestPullConflictAutoLock: a merge conflict locks the component through
// the catalog, as an automatic lock, when auto_lock_error is set, and
// leaves it alone otherwise.
func TestPullConflictAutoLock(t *testing.T) {
	cases := []struct {
		name     string
		autoLock bool
		want     []fixture.LockCall
	}{
		{"auto_lock_error on", true, []fixture.LockCall{{Slug: "c", Locked: true, Auto: true}}},
		{"auto_lock_error off", false, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
				r, origin := newRepoRig(t, gdb, func(c *catalogv1.Component) { c.AutoLockError = tc.autoLock })
				_, err := r.client.UpdateUnit(t.Context(), &translationv1.UpdateUnitRequest{
					Id: r.unitOf("cs", "Close").GetId(), Target: []string{"Zavřít"}, State: typev1.UnitState_UNIT_STATE_TRANSLATED, Actor: "ana"})
				if err != nil {
					t.Fatal(err)
				}
				if res := r.op("commit"); !res.GetResult() {
					t.Fatalf("commit: %+v", res)
				}
				fixture.Upstream(t, origin, map[string]string{
					"po/cs.po": strings.Replace(fixture.PO("cs"), "[cs] Preferences", "Předvolby", 1)})
				res := r.op("pull")
				if res.GetResult() || !strings.Contains(res.GetDetail(), "Merge conflict in po/cs.po") {
					t.Fatalf("pull with a conflict: %+v", res)
				}
				if got := r.catalog.LockCalls(); !slices.Equal(got, tc.want) {
					t.Errorf("lock calls = %+v, want %+v", got, tc.want)
				}
				if locked := r.catalog.Component(1).GetLocked(); locked != tc.autoLock {
					t.Errorf("component locked = %v", locked)
				}
			}, store.Sources()...)
		})
	}
}
