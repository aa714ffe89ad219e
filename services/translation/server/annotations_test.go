package server_test

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"testing"

	"google.golang.org/grpc"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/changefeed/changefeedtest"
	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/grpctest"
	"github.com/tmsproject/tms/pkg/pgtest"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/textstat"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
	"github.com/tmsproject/tms/services/translation/server"
	"github.com/tmsproject/tms/services/translation/store"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// rig is a translation server over one engine, reached through gRPC, with
// a component (id 1) holding an English source and a Czech translation.
type rig struct {
	t       *testing.T
	gdb     *gorm.DB
	client  translationv1.TranslationServiceClient
	memory  translationv1.MemoryServiceClient
	catalog *fixture.Catalog
	mark    int64 // outbox id already looked at
	en, cs  int64 // translation ids
}

var comp = &catalogv1.Component{Id: 1, ProjectSlug: "p", Slug: "c", SourceLanguageCode: "en", FileFormat: "po"}

func newRig(t *testing.T, gdb *gorm.DB) *rig {
	st := store.New(gdb)
	r := &rig{t: t, gdb: gdb, catalog: fixture.NewCatalog()}
	r.catalog.Set(comp, &catalogv1.Project{Slug: "p", TranslationReview: true})
	catConn := grpctest.Serve(t, func(s grpc.ServiceRegistrar) { catalogv1.RegisterCatalogServiceServer(s, r.catalog) })
	catalog := catalogv1.NewCatalogServiceClient(catConn)
	srv := server.New(server.Config{Store: st, Catalog: catalog, Projects: policy.NewProjects(catalog),
		Repos: workcopy.NewManager(t.TempDir()), Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(srv.Close)
	conn := grpctest.Serve(t, func(s grpc.ServiceRegistrar) {
		translationv1.RegisterTranslationServiceServer(s, srv)
		translationv1.RegisterMemoryServiceServer(s, srv.Memory())
	})
	r.client, r.memory = translationv1.NewTranslationServiceClient(conn), translationv1.NewMemoryServiceClient(conn)
	if err := r.catalog.SetSink(func(ctx context.Context, req *translationv1.ApplyCatalogSnapshotsRequest) error {
		_, err := r.client.ApplyCatalogSnapshots(ctx, req)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	mk := func(src []string, target string, state int, source bool) store.Unit {
		if source {
			target, state = store.Join(src), weblate.StateReadOnly
		}
		return store.Unit{Source: store.Join(src), Target: target, State: state, IDHash: textstat.IDHash(src, ""),
			ContentHash: textstat.ContentHash(src, ""), NumWords: int64(textstat.Words(src, false)),
			NumChars: int64(textstat.Chars(src)), Priority: 100}
	}
	plural := []string{"%d file", "%d files"}
	en, err := st.ImportTranslation(t.Context(), store.ImportSpec{
		Translation: store.Translation{ComponentID: 1, ProjectSlug: "p", ComponentSlug: "c", LanguageCode: "en", PluralNumber: 2, IsSource: true},
		Units:       []store.Unit{mk([]string{"Hello"}, "", 0, true), mk(plural, "", 0, true), mk([]string{"Über uns"}, "", 0, true)}})
	if err != nil {
		t.Fatal(err)
	}
	cs, err := st.ImportTranslation(t.Context(), store.ImportSpec{
		Translation: store.Translation{ComponentID: 1, ProjectSlug: "p", ComponentSlug: "c", LanguageCode: "cs", PluralNumber: 3, Filename: "po/cs.po"},
		Units: []store.Unit{mk([]string{"Hello"}, "", 0, false), mk(plural, store.Join([]string{"a", "b", "c"}), 10, false),
			mk([]string{"Über uns"}, "O nás", 20, false)},
		SourceIDs: en.IDs})
	if err != nil {
		t.Fatal(err)
	}
	r.en, r.cs = en.Translation.ID, cs.Translation.ID
	r.changes()
	return r
}

// setComponent changes the catalog's component.
func (r *rig) setComponent(f func(c *catalogv1.Component)) {
	c := r.catalog.Component(1)
	f(c)
	r.catalog.Set(c, &catalogv1.Project{Slug: "p", TranslationReview: true})
}

// changes returns the change records written since the last call.
func (r *rig) changes() []*changelogv1.Change {
	r.t.Helper()
	out, mark := changefeedtest.Since(r.t, r.gdb, r.mark)
	r.mark = mark
	return out
}

func (r *rig) actions() []typev1.ChangeAction {
	var out []typev1.ChangeAction
	for _, c := range r.changes() {
		out = append(out, c.GetAction())
	}
	return out
}

func (r *rig) stats(id int64) store.Stats {
	r.t.Helper()
	var t store.Translation
	if err := r.gdb.Where("id = ?", id).Take(&t).Error; err != nil {
		r.t.Fatal(err)
	}
	return t.Stats
}

// exact checks that the counters equal a recount of the units.
func (r *rig) exact(id int64) {
	r.t.Helper()
	var units []store.Unit
	if err := r.gdb.Where("translation_id = ?", id).Find(&units).Error; err != nil {
		r.t.Fatal(err)
	}
	var want store.Stats
	for _, u := range units {
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
	if got := r.stats(id); got != want {
		r.t.Errorf("translation %d counters %+v, recount %+v", id, got, want)
	}
}

func (r *rig) units(id int64, q string) []*translationv1.Unit {
	r.t.Helper()
	resp, err := r.client.ListUnits(r.t.Context(), &translationv1.ListUnitsRequest{TranslationId: id, Query: q})
	if err != nil {
		r.t.Fatalf("ListUnits %q: %v", q, err)
	}
	if int(resp.GetTotal()) != len(resp.GetUnits()) {
		r.t.Errorf("ListUnits %q: total %d for %d units", q, resp.GetTotal(), len(resp.GetUnits()))
	}
	return resp.GetUnits()
}

func wantKind(t *testing.T, err error, kind errs.Kind, what string) {
	t.Helper()
	if err == nil || !errs.Is(errs.FromStatus(err), kind) {
		t.Errorf("%s: got %v, want %v", what, err, kind)
	}
}

func details(t *testing.T, c *changelogv1.Change) map[string]any {
	t.Helper()
	if c.GetDetails() == nil {
		t.Fatalf("no details on action %v", c.GetAction())
	}
	return c.GetDetails().AsMap()
}

func TestStrings(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		r := newRig(t, gdb)
		ctx := t.Context()
		add := &translationv1.CreateUnitRequest{TranslationId: r.cs, Source: []string{"Bye"}, Target: []string{"Nashle"}, Actor: "alice"}
		_, err := r.client.CreateUnit(ctx, add)
		wantKind(t, err, errs.PermissionDenied, "manage_units off")
		r.setComponent(func(c *catalogv1.Component) { c.ManageUnits, c.Locked = true, true })
		_, err = r.client.CreateUnit(ctx, add)
		wantKind(t, err, errs.PermissionDenied, "locked")
		r.setComponent(func(c *catalogv1.Component) { c.Locked = false })
		bad := []*translationv1.CreateUnitRequest{
			{TranslationId: r.cs, Source: []string{""}},
			{TranslationId: r.cs, Source: []string{"x\x01"}},
			{TranslationId: r.cs, Source: []string{"x"}, Target: []string{"a", "b"}},
			{TranslationId: r.cs, Source: []string{"x"}, State: 7},
		}
		for _, b := range bad {
			_, err = r.client.CreateUnit(ctx, b)
			wantKind(t, err, errs.InvalidArgument, "bad unit")
		}
		resp, err := r.client.CreateUnit(ctx, add)
		if err != nil {
			t.Fatal(err)
		}
		u := resp.GetUnit()
		if u.GetState() != typev1.UnitState_UNIT_STATE_TRANSLATED || !u.GetPending() || u.GetPosition() != 4 || u.GetSourceUnitId() == 0 || u.GetTarget()[0] != "Nashle" {
			t.Errorf("created unit = %v", u)
		}
		if got := r.changes(); len(got) != 2 || got[0].GetAction() != typev1.ChangeAction_CHANGE_ACTION_NEW_UNIT || got[0].GetLanguageCode() != "en" ||
			got[1].GetUnitId() != u.GetId() || got[1].GetTarget() != "Nashle" || details(t, got[1])["old_state"] != -1.0 {
			t.Errorf("create records = %v", got)
		}
		if st := r.stats(r.cs); st.Total != 4 || st.Translated != 2 {
			t.Errorf("cs stats after add = %+v", st)
		}
		if st := r.stats(r.en); st.Total != 4 || st.Readonly != 4 {
			t.Errorf("en stats after add = %+v", st)
		}
		r.exact(r.cs)
		r.exact(r.en)
		_, err = r.client.CreateUnit(ctx, add)
		wantKind(t, err, errs.InvalidArgument, "duplicate")
		// A plural without a target gets one empty form per plural.
		pl, err := r.client.CreateUnit(ctx, &translationv1.CreateUnitRequest{TranslationId: r.cs,
			Source: []string{"%d dog", "%d dogs"}, Context: "pets", State: typev1.UnitState_UNIT_STATE_TRANSLATED})
		if err != nil || len(pl.GetUnit().GetTarget()) != 3 || pl.GetUnit().GetState() != typev1.UnitState_UNIT_STATE_EMPTY {
			t.Fatalf("plural unit = %v, %v", pl.GetUnit(), err)
		}
		r.changes()

		others, err := r.client.ListUnitTranslations(ctx, &translationv1.ListUnitTranslationsRequest{Id: u.GetId()})
		if err != nil || len(others.GetUnits()) != 1 || others.GetUnits()[0].GetLanguageCode() != "en" {
			t.Errorf("unit translations = %v, %v", others.GetUnits(), err)
		}

		if _, err := r.client.DeleteUnit(ctx, &translationv1.DeleteUnitRequest{Id: u.GetId(), Actor: "bob"}); err != nil {
			t.Fatal(err)
		}
		got := r.changes()
		if len(got) != 2 || got[0].GetAction() != typev1.ChangeAction_CHANGE_ACTION_STRING_REMOVE || got[0].GetUnitId() == 0 || got[1].GetUnitId() != u.GetId() || got[0].GetUser() != "bob" {
			t.Errorf("delete records = %v", got)
		}
		var removals []store.Removal
		gdb.Where("source = ?", "Bye").Find(&removals)
		if len(removals) != 2 {
			t.Errorf("unit_removals = %+v", removals)
		}
		if _, err := r.client.GetUnit(ctx, &translationv1.GetUnitRequest{Id: u.GetId()}); !errs.Is(errs.FromStatus(err), errs.NotFound) {
			t.Errorf("deleted unit: %v", err)
		}
		if st := r.stats(r.cs); st.Total != 4 || st.Translated != 1 {
			t.Errorf("cs stats after delete = %+v", st)
		}
		r.exact(r.cs)
		r.exact(r.en)
		if pos := r.units(r.cs, "")[3].GetPosition(); pos != 4 {
			t.Errorf("position after delete = %d", pos)
		}
	}, store.Sources()...)
}

func TestSuggestions(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		r := newRig(t, gdb)
		ctx := t.Context()
		hello := r.units(r.cs, "")[0]
		suggest := func(text, user string) (*translationv1.Suggestion, error) {
			resp, err := r.client.CreateSuggestion(ctx, &translationv1.CreateSuggestionRequest{UnitId: hello.GetId(), Target: []string{text}, Actor: user})
			return resp.GetSuggestion(), err
		}
		_, err := suggest("Ahoj", "alice")
		wantKind(t, err, errs.PermissionDenied, "suggestions off")
		r.setComponent(func(c *catalogv1.Component) { c.EnableSuggestions = true })
		_, err = r.client.CreateSuggestion(ctx, &translationv1.CreateSuggestionRequest{UnitId: r.units(r.en, "")[0].GetId(), Target: []string{"x"}})
		wantKind(t, err, errs.PermissionDenied, "suggestion on source")
		_, err = suggest("", "alice")
		wantKind(t, err, errs.InvalidArgument, "empty suggestion")
		ahoj, err := suggest("Ahoj", "alice")
		if err != nil {
			t.Fatal(err)
		}
		if ahoj.GetUser() != "alice" || ahoj.GetTarget()[0] != "Ahoj" || ahoj.GetLanguageCode() != "cs" {
			t.Errorf("suggestion = %v", ahoj)
		}
		got := r.changes()
		if len(got) != 1 || got[0].GetAction() != typev1.ChangeAction_CHANGE_ACTION_SUGGESTION || got[0].GetTarget() != "Ahoj" || got[0].GetUnitId() != hello.GetId() {
			t.Fatalf("suggestion records = %v", got)
		}
		if d := details(t, got[0]); d["source"] != "Hello" || d["state"] != 0.0 || d["old_state"] != 0.0 {
			t.Errorf("suggestion details = %v", d)
		}
		_, err = suggest("Ahoj", "bob")
		wantKind(t, err, errs.InvalidArgument, "duplicate suggestion")
		if _, err = suggest("Nazdar", "bob"); err != nil {
			t.Fatal(err)
		}
		r.changes()
		if st := r.stats(r.cs); st.Suggestions != 1 {
			t.Errorf("suggestions counter = %d", st.Suggestions)
		}
		if hs := r.units(r.cs, "has:suggestion"); len(hs) != 1 || hs[0].GetId() != hello.GetId() {
			t.Errorf("has:suggestion = %v", hs)
		}

		// Translating to a suggested text cleans that suggestion up.
		if _, err = r.client.UpdateUnit(ctx, &translationv1.UpdateUnitRequest{Id: hello.GetId(), Target: []string{"Ahoj"}, State: typev1.UnitState_UNIT_STATE_TRANSLATED, Actor: "carol"}); err != nil {
			t.Fatal(err)
		}
		got = r.changes()
		if len(got) != 2 || got[0].GetAction() != typev1.ChangeAction_CHANGE_ACTION_NEW || got[1].GetAction() != typev1.ChangeAction_CHANGE_ACTION_SUGGESTION_CLEANUP || got[1].GetAuthor() != "anonymous" || got[1].GetUser() != "" || got[1].GetTarget() != "Ahoj" {
			t.Errorf("edit records = %v", got)
		}
		list, err := r.client.ListSuggestions(ctx, &translationv1.ListSuggestionsRequest{UnitId: hello.GetId()})
		if err != nil || list.GetTotal() != 1 || list.GetSuggestions()[0].GetTarget()[0] != "Nazdar" {
			t.Fatalf("suggestions after cleanup = %v, %v", list, err)
		}
		r.exact(r.cs)

		// Accepting.
		nazdar := list.GetSuggestions()[0]
		acc, err := r.client.AcceptSuggestion(ctx, &translationv1.AcceptSuggestionRequest{Id: nazdar.GetId(), Actor: "carol"})
		if err != nil {
			t.Fatal(err)
		}
		if u := acc.GetUnit(); u.GetTarget()[0] != "Nazdar" || u.GetState() != typev1.UnitState_UNIT_STATE_TRANSLATED || u.GetHasSuggestion() {
			t.Errorf("accepted unit = %v", u)
		}
		got = r.changes()
		if len(got) != 1 || got[0].GetAction() != typev1.ChangeAction_CHANGE_ACTION_ACCEPT || got[0].GetUser() != "carol" || got[0].GetAuthor() != "bob" ||
			got[0].GetTarget() != "Nazdar" || got[0].GetOld() != "Ahoj" || details(t, got[0])["old_state"] != 20.0 {
			t.Errorf("accept records = %v", got)
		}
		if _, err = r.client.GetSuggestion(ctx, &translationv1.GetSuggestionRequest{Id: nazdar.GetId()}); !errs.Is(errs.FromStatus(err), errs.NotFound) {
			t.Errorf("accepted suggestion still there: %v", err)
		}
		r.exact(r.cs)

		// Rejecting.
		bad, _ := suggest("Čau", "dave")
		r.changes()
		if _, err = r.client.DeleteSuggestion(ctx, &translationv1.DeleteSuggestionRequest{Id: bad.GetId(), Actor: "carol", RejectionReason: "too casual"}); err != nil {
			t.Fatal(err)
		}
		got = r.changes()
		if len(got) != 1 || got[0].GetAction() != typev1.ChangeAction_CHANGE_ACTION_SUGGESTION_DELETE || details(t, got[0])["rejection_reason"] != "too casual" {
			t.Errorf("reject records = %v", got)
		}
		r.exact(r.cs)

		// Voting, and acceptance when the votes reach the threshold.
		s1, _ := suggest("Dobrý den", "dave")
		_, err = r.client.VoteSuggestion(ctx, &translationv1.VoteSuggestionRequest{Id: s1.GetId(), Actor: "erin", Value: 1})
		wantKind(t, err, errs.PermissionDenied, "voting off")
		r.setComponent(func(c *catalogv1.Component) { c.SuggestionVoting, c.SuggestionAutoaccept = true, 2 })
		_, err = r.client.VoteSuggestion(ctx, &translationv1.VoteSuggestionRequest{Id: s1.GetId(), Actor: "erin", Value: 3})
		wantKind(t, err, errs.InvalidArgument, "vote value")
		for _, voter := range []string{"erin", "erin"} {
			v, vErr := r.client.VoteSuggestion(ctx, &translationv1.VoteSuggestionRequest{Id: s1.GetId(), Actor: voter, Value: 1})
			if vErr != nil || v.GetSuggestion().GetVotes() != 1 {
				t.Fatalf("vote = %v, %v", v, vErr)
			}
		}
		r.changes()
		if _, err = r.client.VoteSuggestion(ctx, &translationv1.VoteSuggestionRequest{Id: s1.GetId(), Actor: "frank", Value: 1}); err != nil {
			t.Fatal(err)
		}
		if acts := r.actions(); !slices.Equal(acts, []typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_ACCEPT}) {
			t.Errorf("auto-accept records = %v", acts)
		}
		if u := r.units(r.cs, "")[0]; u.GetTarget()[0] != "Dobrý den" {
			t.Errorf("auto-accepted unit = %v", u)
		}
		r.setComponent(func(c *catalogv1.Component) { c.Locked = true })
		_, err = suggest("Zamčeno", "dave")
		wantKind(t, err, errs.PermissionDenied, "locked suggestion")
		r.exact(r.cs)
		all, err := r.client.ListSuggestions(ctx, &translationv1.ListSuggestionsRequest{})
		if err != nil || all.GetTotal() != 0 {
			t.Errorf("all suggestions = %v, %v", all, err)
		}
	}, store.Sources()...)
}

func TestComments(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		r := newRig(t, gdb)
		ctx := t.Context()
		hello := r.units(r.cs, "")[0]
		add := func(scope, text string) (*translationv1.Comment, error) {
			resp, err := r.client.CreateComment(ctx, &translationv1.CreateCommentRequest{UnitId: hello.GetId(), Scope: scope, Comment: text, Actor: "alice"})
			return resp.GetComment(), err
		}
		_, err := add("bogus", "x")
		wantKind(t, err, errs.InvalidArgument, "bad scope")
		_, err = add("translation", " ")
		wantKind(t, err, errs.InvalidArgument, "blank comment")
		local, err := add("translation", "Check the tone")
		if err != nil {
			t.Fatal(err)
		}
		global, err := add("global", "Typo in the source?")
		if err != nil {
			t.Fatal(err)
		}
		if local.GetUnitId() != hello.GetId() || global.GetUnitId() != hello.GetSourceUnitId() || global.GetLanguageCode() != "en" {
			t.Errorf("comments attached to %d and %d", local.GetUnitId(), global.GetUnitId())
		}
		got := r.changes()
		if len(got) != 2 || got[0].GetAction() != typev1.ChangeAction_CHANGE_ACTION_COMMENT || got[0].GetTarget() != "" || got[0].GetUnitId() != hello.GetId() {
			t.Errorf("comment records = %v", got)
		}
		if r.stats(r.cs).Comments != 1 || r.stats(r.en).Comments != 1 {
			t.Errorf("comment counters cs %d en %d", r.stats(r.cs).Comments, r.stats(r.en).Comments)
		}
		if hc := r.units(0, "has:comment"); len(hc) != 2 {
			t.Errorf("has:comment over all units = %d", len(hc))
		}
		list, err := r.client.ListComments(ctx, &translationv1.ListCommentsRequest{UnitId: hello.GetId()})
		if err != nil || list.GetTotal() != 2 {
			t.Errorf("comments of the unit = %v, %v", list, err)
		}
		res, err := r.client.ResolveComment(ctx, &translationv1.ResolveCommentRequest{Id: global.GetId(), Actor: "bob"})
		if err != nil || !res.GetComment().GetResolved() {
			t.Fatalf("resolve = %v, %v", res, err)
		}
		if _, err = r.client.ResolveComment(ctx, &translationv1.ResolveCommentRequest{Id: global.GetId(), Actor: "bob"}); err != nil {
			t.Fatal(err)
		}
		if _, err = r.client.DeleteComment(ctx, &translationv1.DeleteCommentRequest{Id: local.GetId(), Actor: "bob"}); err != nil {
			t.Fatal(err)
		}
		if acts := r.actions(); !slices.Equal(acts, []typev1.ChangeAction{typev1.ChangeAction_CHANGE_ACTION_COMMENT_RESOLVE, typev1.ChangeAction_CHANGE_ACTION_COMMENT_DELETE}) {
			t.Errorf("resolve/delete records = %v", acts)
		}
		if r.stats(r.cs).Comments != 0 || r.stats(r.en).Comments != 0 {
			t.Error("comment counters did not return to zero")
		}
		r.exact(r.cs)
		r.exact(r.en)
		_, err = r.client.GetComment(ctx, &translationv1.GetCommentRequest{Id: local.GetId()})
		wantKind(t, err, errs.NotFound, "deleted comment")
		if g, err := r.client.GetComment(ctx, &translationv1.GetCommentRequest{Id: global.GetId()}); err != nil || g.GetComment().GetScope() != "global" {
			t.Errorf("global comment = %v, %v", g, err)
		}
	}, store.Sources()...)
}

func TestSearch(t *testing.T) {
	dbtest.Engines(t, func(t *testing.T, gdb *gorm.DB) {
		r := newRig(t, gdb)
		cases := []struct {
			q    string
			want []string
		}{
			{"", []string{"Hello", "%d file", "Über uns"}},
			{"hello", []string{"Hello"}},
			{"source:UNS", []string{"Über uns"}},
			{"state:needs-editing", []string{"%d file"}},
			{"is:translated OR has:plural", []string{"%d file", "Über uns"}},
			{"NOT is:translated", []string{"Hello", "%d file"}},
			{`target:r"^O n"`, []string{"Über uns"}},
			{"has:suggestion", nil},
		}
		for _, tc := range cases {
			var got []string
			for _, u := range r.units(r.cs, tc.q) {
				got = append(got, u.GetSource()[0])
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("q=%q: %v, want %v", tc.q, got, tc.want)
			}
		}
		// Non-ASCII case folding: SQLite through the store's lower();
		// PostgreSQL by the cluster's locale (the test cluster's is C).
		if db.Dialect(gdb) == db.SQLite {
			if got := r.units(r.cs, "source:über"); len(got) != 1 {
				t.Errorf("source:über matched %d units", len(got))
			}
		}
		if n := len(r.units(0, "uns")); n != 2 {
			t.Errorf("all units matching uns = %d", n)
		}
		page, err := r.client.ListUnits(t.Context(), &translationv1.ListUnitsRequest{TranslationId: r.cs, Query: "NOT is:translated", Limit: 1, Offset: 1})
		if err != nil || page.GetTotal() != 2 || len(page.GetUnits()) != 1 || page.GetUnits()[0].GetSource()[0] != "%d file" {
			t.Errorf("paged search = %v, %v", page, err)
		}
		_, err = r.client.ListUnits(t.Context(), &translationv1.ListUnitsRequest{TranslationId: r.cs, Query: "priority:high"})
		e := errs.FromStatus(err)
		if !errs.Is(e, errs.InvalidArgument) || len(e.Fields) != 1 || e.Fields[0].Field != "q" {
			t.Errorf("bad query: %v", err)
		}
		_, err = r.client.ListUnits(t.Context(), &translationv1.ListUnitsRequest{TranslationId: 999, Query: "x"})
		wantKind(t, err, errs.NotFound, "search of a missing translation")
	}, store.Sources()...)
}
