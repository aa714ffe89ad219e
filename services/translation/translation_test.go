package translation_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/tmsproject/tms/pkg/changedetails"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/grpctest"
	"github.com/tmsproject/tms/pkg/textstat"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
)

type env struct {
	client    translationv1.TranslationServiceClient
	catalog   *fixture.Catalog
	changelog *fixture.Changelog
	users     *fixture.Users
	dataDir   string
	svc       *translation.Service
	// catalogConn reaches the fixture catalog; stopCatalog takes it down.
	catalogConn *grpc.ClientConn
	stopCatalog func()
}

func newEnv(t *testing.T, allowLocal bool) *env { return newEnvWith(t, allowLocal, nil) }

// newEnvWith starts the service with the fixture catalog, changelog and
// user directory; mod adjusts its configuration.
func newEnvWith(t *testing.T, allowLocal bool, mod func(*translation.Config)) *env {
	t.Helper()
	e := &env{catalog: fixture.NewCatalog(), changelog: fixture.NewChangelog(), users: fixture.NewUsers(), dataDir: t.TempDir()}
	catConn, stop := grpctest.ServeStoppable(t, func(s grpc.ServiceRegistrar) { catalogv1.RegisterCatalogServiceServer(s, e.catalog) })
	e.catalogConn, e.stopCatalog = catConn, stop
	logConn := grpctest.Serve(t, func(s grpc.ServiceRegistrar) { changelogv1.RegisterChangelogServiceServer(s, e.changelog) })
	userConn := grpctest.Serve(t, func(s grpc.ServiceRegistrar) { notificationv1.RegisterNotificationServiceServer(s, e.users) })
	ctx, cancel := context.WithCancel(context.Background())
	cfg := translation.Config{
		DataDir: e.dataDir, Catalog: catalogv1.NewCatalogServiceClient(catConn),
		Changelog: changelogv1.NewChangelogServiceClient(logConn), AllowLocalRepos: allowLocal,
		Users: notificationv1.NewNotificationServiceClient(userConn),
		Log:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	}
	if mod != nil {
		mod(&cfg)
	}
	if streamUploads {
		cfg.Upload.StreamAbove = 1
	}
	svc, err := translation.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	e.svc = svc
	done := make(chan struct{})
	go func() { defer close(done); _ = svc.Run(ctx) }()
	conn := grpctest.Serve(t, svc.Register)
	t.Cleanup(func() {
		cancel()
		<-done
		if err := svc.Close(); err != nil {
			t.Error(err)
		}
	})
	e.client = translationv1.NewTranslationServiceClient(conn)
	// The fixture catalog sends its snapshots as the real one's outbox
	// does, before its writes answer.
	if err := e.catalog.SetSink(func(ctx context.Context, req *translationv1.ApplyCatalogSnapshotsRequest) error {
		_, err := e.client.ApplyCatalogSnapshots(ctx, req)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	return e
}

func greeter(id int64, repo string) *catalogv1.Component {
	return &catalogv1.Component{Id: id, ProjectSlug: "hello", Slug: "greeter", Repo: repo,
		Filemask: "po/*.po", NewBase: "po/greeter.pot", SourceLanguageCode: "en", FileFormat: "po"}
}

var project = &catalogv1.Project{Slug: "hello", Name: "Hello", TranslationReview: true}

// importNow runs an import and waits for its task.
func (e *env) importNow(t *testing.T, id int64) *translationv1.Task {
	t.Helper()
	resp, err := e.client.ImportComponent(t.Context(), &translationv1.ImportComponentRequest{ComponentId: id, Actor: "admin"})
	if err != nil {
		t.Fatal(err)
	}
	return e.finishedTask(t, resp.GetTask().GetId())
}

// finishedTask waits for a task to complete, however it ended, and
// returns it.
func (e *env) finishedTask(t *testing.T, id string) *translationv1.Task {
	t.Helper()
	for deadline := time.Now().Add(20 * raceScale * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		got, err := e.client.GetTask(t.Context(), &translationv1.GetTaskRequest{Id: id})
		if err != nil {
			t.Fatal(err)
		}
		if got.GetTask().GetCompleted() {
			return got.GetTask()
		}
	}
	t.Fatal("task did not finish")
	return nil
}

// translation reads a translation of component 1, the one the tests import.
func (e *env) translation(t *testing.T, componentID int64, code string) *translationv1.Translation {
	t.Helper()
	resp, err := e.client.GetTranslation(t.Context(), &translationv1.GetTranslationRequest{ComponentId: componentID, LanguageCode: code})
	if err != nil {
		t.Fatalf("GetTranslation %s: %v", code, err)
	}
	return resp.GetTranslation()
}

func (e *env) units(t *testing.T, translationID int64) []*translationv1.Unit {
	t.Helper()
	resp, err := e.client.ListUnits(t.Context(), &translationv1.ListUnitsRequest{TranslationId: translationID, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return resp.GetUnits()
}

func kind(err error) errs.Kind { return errs.FromStatus(err).Kind }

func TestImportFixture(t *testing.T) {
	e := newEnv(t, true)
	origin := fixture.Origin(t, fixture.Files())
	e.catalog.Set(greeter(1, origin), project)
	task := e.importNow(t, 1)
	if task.GetError() != "" || task.GetProgress() != 100 {
		t.Fatalf("task = %+v", task)
	}
	// The branch reaches the catalog through the outbox of import
	// outcomes, after the import.
	for deadline := time.Now().Add(10 * time.Second); e.catalog.Component(1).GetBranch() != "main"; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("recorded branch %q, want main", e.catalog.Component(1).GetBranch())
		}
	}
	list, err := e.client.ListTranslations(t.Context(), &translationv1.ListTranslationsRequest{ComponentId: 1})
	if err != nil || list.GetTotal() != 5 {
		t.Fatalf("ListTranslations total %d, %v", list.GetTotal(), err)
	}
	src := e.translation(t, 1, "en")
	if st := src.GetStats(); !src.GetIsSource() || st.GetTotal() != 15 || st.GetReadonly() != 15 ||
		st.GetTotalWords() != 33 || st.GetTotalChars() != 181 || src.GetFilename() != "po/greeter.pot" {
		t.Fatalf("source translation = %+v", src)
	}
	want := map[string]struct {
		translated, fuzzy int64
		percent           float64
	}{"cs": {13, 0, 86.6}, "de": {10, 2, 66.6}, "ar": {5, 0, 33.3}, "pt_BR": {0, 0, 0}}
	for code, w := range want {
		st := e.translation(t, 1, code).GetStats()
		if st.GetTotal() != 15 || st.GetTranslated() != w.translated || st.GetFuzzy() != w.fuzzy ||
			textstat.Percent(st.GetTranslated(), st.GetTotal()) != w.percent || st.GetTotalWords() != 33 {
			t.Errorf("%s stats = %+v", code, st)
		}
		if st.GetLastChange() == nil || st.GetLastAuthor() != "" {
			t.Errorf("%s activity = %v %q", code, st.GetLastChange(), st.GetLastAuthor())
		}
	}
	if de := e.translation(t, 1, "de").GetStats(); textstat.Percent(de.GetFuzzy(), de.GetTotal()) != 13.3 {
		t.Errorf("de fuzzy percent = %v", textstat.Percent(de.GetFuzzy(), de.GetTotal()))
	}
	checkUnits(t, e, src)
	sum, err := e.client.GetStatistics(t.Context(), &translationv1.GetStatisticsRequest{ComponentId: 1})
	if err != nil || sum.GetStats().GetTotal() != 75 || sum.GetStats().GetTranslated() != 15+13+10+5 {
		t.Errorf("component statistics = %+v, %v", sum.GetStats(), err)
	}
	langs, err := e.client.ListLanguageStatistics(t.Context(), &translationv1.ListLanguageStatisticsRequest{ComponentIds: []int64{1}})
	if err != nil || len(langs.GetStats()) != 5 || langs.GetStats()[0].GetLanguageCode() != "ar" {
		t.Errorf("language statistics = %v, %v", langs.GetStats(), err)
	}
	all, err := e.client.ListUnits(t.Context(), &translationv1.ListUnitsRequest{Offset: 70, Limit: 10})
	if err != nil || all.GetTotal() != 75 || len(all.GetUnits()) != 5 || all.GetUnits()[0].GetLanguageCode() == "" {
		t.Errorf("all units page: total %d, %d units, %v", all.GetTotal(), len(all.GetUnits()), err)
	}
	page, _ := e.client.ListTranslations(t.Context(), &translationv1.ListTranslationsRequest{Offset: 1, Limit: 2})
	if page.GetTotal() != 5 || len(page.GetTranslations()) != 2 || page.GetTranslations()[0].GetId() != 2 {
		t.Errorf("translations page = %v", page)
	}
	if _, err := e.client.GetUnit(t.Context(), &translationv1.GetUnitRequest{Id: 424242}); kind(err) != errs.NotFound {
		t.Errorf("GetUnit missing: %v", err)
	}
	if _, err := e.client.GetTranslation(t.Context(), &translationv1.GetTranslationRequest{ComponentId: 1, LanguageCode: "fr"}); kind(err) != errs.NotFound {
		t.Errorf("GetTranslation missing: %v", err)
	}
	waitChanges(t, e, 4, func(c *changelogv1.Change) bool { return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_UPDATE })
	for _, c := range e.changelog.Changes() {
		if c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_UPDATE && c.GetLanguageCode() == "cs" &&
			detailsText(c) != `{"filename":"po/cs.po","reason":"new file"}` {
			t.Errorf("cs resource record details = %s", detailsText(c))
		}
	}
}

func checkUnits(t *testing.T, e *env, src *translationv1.Translation) {
	t.Helper()
	srcUnits := e.units(t, src.GetId())
	cs := e.units(t, e.translation(t, 1, "cs").GetId())
	if len(cs) != 15 || len(srcUnits) != 15 {
		t.Fatalf("cs has %d units, source %d", len(cs), len(srcUnits))
	}
	for i, u := range cs {
		if u.GetPosition() != int64(i+1) || u.GetSourceUnitId() != srcUnits[i].GetId() || u.GetPriority() != 100 {
			t.Errorf("cs unit %d: position %d source_unit %d", i, u.GetPosition(), u.GetSourceUnitId())
		}
		if u.GetIdHash() != textstat.IDHash(u.GetSource(), u.GetContext()) {
			t.Errorf("cs unit %d id_hash mismatch", i)
		}
	}
	plural := cs[3]
	if len(plural.GetSource()) != 2 || len(plural.GetTarget()) != 3 || plural.GetFlags() != "c-format" ||
		plural.GetState() != typev1.UnitState_UNIT_STATE_TRANSLATED || plural.GetNumWords() != 4 || plural.GetLocation() != "src/list.c:40" {
		t.Errorf("plural unit = %+v", plural)
	}
	if cs[1].GetContext() != "menu" || cs[0].GetNote() != "Shown in the morning" || cs[14].GetState() != typev1.UnitState_UNIT_STATE_EMPTY {
		t.Errorf("units = %+v / %+v / %+v", cs[1], cs[0], cs[14])
	}
	if s := srcUnits[3]; s.GetState() != typev1.UnitState_UNIT_STATE_READONLY || strings.Join(s.GetTarget(), "|") != "%d message|%d messages" {
		t.Errorf("source plural unit = %+v", s)
	}
	de := e.units(t, e.translation(t, 1, "de").GetId())
	if de[10].GetState() != typev1.UnitState_UNIT_STATE_FUZZY || de[9].GetState() != typev1.UnitState_UNIT_STATE_TRANSLATED {
		t.Errorf("de states %s %s", de[10].GetState(), de[9].GetState())
	}
}

func waitChanges(t *testing.T, e *env, n int, match func(*changelogv1.Change) bool) []*changelogv1.Change {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var got []*changelogv1.Change
		for _, c := range e.changelog.Changes() {
			if match(c) {
				got = append(got, c)
			}
		}
		if len(got) >= n || time.Now().After(deadline) {
			if len(got) != n {
				t.Fatalf("got %d matching change records, want %d", len(got), n)
			}
			return got
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestUpdateUnit(t *testing.T) {
	e := newEnv(t, true)
	e.catalog.Set(greeter(1, fixture.Origin(t, fixture.Files())), project)
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	cs := e.translation(t, 1, "cs")
	units := e.units(t, cs.GetId())
	src := e.units(t, e.translation(t, 1, "en").GetId())
	update := func(id int64, target []string, state typev1.UnitState, review bool) (*translationv1.Unit, error) {
		resp, err := e.client.UpdateUnit(t.Context(), &translationv1.UpdateUnitRequest{
			Id: id, Target: target, State: state, Actor: "alice", ActorCanReview: review})
		return resp.GetUnit(), err
	}
	bad := []struct {
		name   string
		id     int64
		target []string
		state  typev1.UnitState
		kind   errs.Kind
		field  string
	}{
		{"plural count", units[3].GetId(), []string{"a", "b"}, typev1.UnitState_UNIT_STATE_TRANSLATED, errs.InvalidArgument, "target"},
		{"singular count", units[13].GetId(), []string{"a", "b"}, typev1.UnitState_UNIT_STATE_TRANSLATED, errs.InvalidArgument, "target"},
		{"read-only", src[0].GetId(), []string{"x"}, typev1.UnitState_UNIT_STATE_TRANSLATED, errs.PermissionDenied, ""},
		{"bad state", units[13].GetId(), []string{"x"}, typev1.UnitState(15), errs.InvalidArgument, "state"},
		{"empty with text", units[13].GetId(), []string{"x"}, typev1.UnitState_UNIT_STATE_EMPTY, errs.InvalidArgument, "state"},
		{"text without", units[13].GetId(), []string{""}, typev1.UnitState_UNIT_STATE_TRANSLATED, errs.InvalidArgument, "state"},
		{"approve without role", units[13].GetId(), []string{"x"}, typev1.UnitState_UNIT_STATE_APPROVED, errs.PermissionDenied, ""},
		{"missing", 999999, []string{"x"}, typev1.UnitState_UNIT_STATE_TRANSLATED, errs.NotFound, ""},
	}
	for _, b := range bad {
		_, err := update(b.id, b.target, b.state, false)
		got := errs.FromStatus(err)
		if err == nil || got.Kind != b.kind || (b.field != "" && (len(got.Fields) == 0 || got.Fields[0].Field != b.field)) {
			t.Errorf("%s: error %v (kind %v), want %v on %q", b.name, err, got.Kind, b.kind, b.field)
		}
	}
	u, err := update(units[13].GetId(), []string{"Nápověda"}, typev1.UnitState_UNIT_STATE_TRANSLATED, false)
	if err != nil || !u.GetPending() || u.GetState() != typev1.UnitState_UNIT_STATE_TRANSLATED {
		t.Fatalf("update = %+v, %v", u, err)
	}
	st := e.translation(t, 1, "cs").GetStats()
	if st.GetTranslated() != 14 || st.GetLastAuthor() != "alice" || textstat.Percent(st.GetTranslated(), st.GetTotal()) != 93.3 {
		t.Errorf("after edit stats = %+v", st)
	}
	if _, err := update(units[14].GetId(), []string{"Sestavení %s"}, typev1.UnitState_UNIT_STATE_APPROVED, true); err != nil {
		t.Fatal(err)
	}
	st = e.translation(t, 1, "cs").GetStats()
	if st.GetTranslated() != 15 || st.GetApproved() != 1 || st.GetApprovedWords() != 2 {
		t.Errorf("after approval stats = %+v", st)
	}
	got := waitChanges(t, e, 3, func(c *changelogv1.Change) bool { return c.GetUser() == "alice" })
	if got[0].GetAction() != typev1.ChangeAction_CHANGE_ACTION_NEW || got[0].GetTarget() != "Nápověda" || got[0].GetUnitId() != units[13].GetId() {
		t.Errorf("first edit record = %+v", got[0])
	}
	details := got[0].GetDetails().AsMap()
	if details["state"] != 20.0 || details["old_state"] != 0.0 || details["source"] != "Help" {
		t.Errorf("details = %v", details)
	}
	if got[1].GetAction() != typev1.ChangeAction_CHANGE_ACTION_APPROVE || got[2].GetAction() != typev1.ChangeAction_CHANGE_ACTION_COMPLETE {
		t.Errorf("actions %v, %v; want APPROVE then COMPLETE", got[1].GetAction(), got[2].GetAction())
	}
	// Plural edits join the forms in the record; a lock refuses edits.
	if _, err := update(units[3].GetId(), []string{"a", "b", "c"}, typev1.UnitState_UNIT_STATE_FUZZY, false); err != nil {
		t.Fatal(err)
	}
	comp := greeter(1, e.catalog.Component(1).GetRepo())
	comp.Locked = true
	e.catalog.Set(comp, project)
	if _, err := update(units[0].GetId(), []string{"x"}, typev1.UnitState_UNIT_STATE_TRANSLATED, false); kind(err) != errs.PermissionDenied {
		t.Errorf("locked edit: %v", err)
	}
	// Re-import keeps unit ids and the pending edit.
	comp.Locked = false
	e.catalog.Set(comp, project)
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	waitChanges(t, e, 4, func(c *changelogv1.Change) bool {
		return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_UPDATE && strings.Contains(detailsText(c), `"check forced"`)
	})
	again := e.units(t, e.translation(t, 1, "cs").GetId())
	if again[13].GetId() != units[13].GetId() || again[13].GetTarget()[0] != "Nápověda" {
		t.Errorf("re-import lost the edit: %+v", again[13])
	}
}

func TestAddDeleteTranslation(t *testing.T) {
	e := newEnv(t, true)
	e.catalog.Set(greeter(1, fixture.Origin(t, fixture.Files())), project)
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	resp, err := e.client.AddTranslation(t.Context(), &translationv1.AddTranslationRequest{ComponentId: 1, LanguageCode: "fr", Actor: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	fr := resp.GetTranslation()
	if fr.GetFilename() != "po/fr.po" || fr.GetStats().GetTotal() != 15 || fr.GetStats().GetTranslated() != 0 {
		t.Errorf("fr = %+v", fr)
	}
	path := filepath.Join(e.dataDir, "repos", "1", "po", "fr.po")
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), `"Language: fr\n"`) || !strings.Contains(string(data), "nplurals=2; plural=n > 1;") {
		t.Errorf("po/fr.po = %s, %v", data, err)
	}
	if u := e.units(t, fr.GetId()); len(u[3].GetTarget()) != 2 || u[3].GetSourceUnitId() == 0 {
		t.Errorf("fr plural unit = %+v", u[3])
	}
	for _, code := range []string{"fr", "cs", "xx-nope"} {
		_, err = e.client.AddTranslation(t.Context(), &translationv1.AddTranslationRequest{ComponentId: 1, LanguageCode: code})
		if got := errs.FromStatus(err); got.Kind != errs.InvalidArgument || got.Fields[0].Field != "language_code" {
			t.Errorf("add %s: %v", code, err)
		}
	}
	_, err = e.client.DeleteTranslation(t.Context(), &translationv1.DeleteTranslationRequest{ComponentId: 1, LanguageCode: "fr", Actor: "alice"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("po/fr.po still there: %v", err)
	}
	if _, err := e.client.GetTranslation(t.Context(), &translationv1.GetTranslationRequest{ComponentId: 1, LanguageCode: "fr"}); kind(err) != errs.NotFound {
		t.Errorf("deleted translation: %v", err)
	}
	if _, err := e.client.DeleteTranslation(t.Context(), &translationv1.DeleteTranslationRequest{ComponentId: 1, LanguageCode: "en"}); kind(err) != errs.PermissionDenied {
		t.Errorf("deleting the source: %v", err)
	}
	waitChanges(t, e, 1, func(c *changelogv1.Change) bool {
		return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_ADDED_LANGUAGE
	})
	waitChanges(t, e, 1, func(c *changelogv1.Change) bool {
		return c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_REMOVE_TRANSLATION && c.GetTarget() == "po/fr.po"
	})
	if _, err := e.client.ForgetComponent(t.Context(), &translationv1.ForgetComponentRequest{ComponentId: 1}); err != nil {
		t.Fatal(err)
	}
	list, _ := e.client.ListTranslations(t.Context(), &translationv1.ListTranslationsRequest{})
	if list.GetTotal() != 0 {
		t.Errorf("after forget %d translations", list.GetTotal())
	}
}

func TestImportRejects(t *testing.T) {
	e := newEnv(t, false)
	for _, repo := range []string{"ext::sh -c touch% /tmp/pwned", "fd::3", "-uhelp", "https://x/\x00", "file:///etc",
		"/srv/repo", "ftp://example.com/r.git", ""} {
		e.catalog.Set(greeter(2, repo), project)
		_, err := e.client.ImportComponent(t.Context(), &translationv1.ImportComponentRequest{ComponentId: 2})
		if got := errs.FromStatus(err); got.Kind != errs.InvalidArgument || got.Fields[0].Field != "repo" {
			t.Errorf("repo %q: %v", repo, err)
		}
	}
	for _, mask := range []string{"../*.po", "/etc/*.po", "po/cs.po", "po/**.po"} {
		c := greeter(2, "https://example.com/r.git")
		c.Filemask = mask
		e.catalog.Set(c, project)
		_, err := e.client.ImportComponent(t.Context(), &translationv1.ImportComponentRequest{ComponentId: 2})
		if got := errs.FromStatus(err); got.Kind != errs.InvalidArgument || got.Fields[0].Field != "filemask" {
			t.Errorf("mask %q: %v", mask, err)
		}
	}
	if _, err := e.client.ImportComponent(t.Context(), &translationv1.ImportComponentRequest{ComponentId: 99}); kind(err) != errs.NotFound {
		t.Errorf("unknown component: %v", err)
	}
	if _, err := e.client.ListUnits(t.Context(), &translationv1.ListUnitsRequest{Query: "nosuchfield:x"}); kind(err) != errs.InvalidArgument {
		t.Errorf("query: %v", err)
	}
}

func TestImportFailures(t *testing.T) {
	e := newEnv(t, true)
	e.catalog.Set(greeter(3, filepath.Join(t.TempDir(), "missing.git")), project)
	if task := e.importNow(t, 3); !strings.Contains(task.GetError(), "could not fetch the repository") {
		t.Errorf("clone failure task = %+v", task)
	}
	files := fixture.Files()
	files["po/cs.po"] = "msgid \"a\"\nmsgstr \"b\"\nbroken\n"
	e.catalog.Set(greeter(4, fixture.Origin(t, files)), project)
	if task := e.importNow(t, 4); !strings.Contains(task.GetError(), "po/cs.po") || !strings.Contains(task.GetError(), "line 3") {
		t.Errorf("parse failure task = %+v", task)
	}
}

// detailsText is the JSON text of a record's details, as the REST API
// answers it.
func detailsText(c *changelogv1.Change) string {
	s, err := changedetails.JSON(c.GetDetails())
	if err != nil {
		return err.Error()
	}
	return s
}

// TestNewLanguageCodeStyle: a new translation's file is named by the
// component's language code style in effect (the format's own unless
// set), and the next import finds the file's language again.
func TestNewLanguageCodeStyle(t *testing.T) {
	for _, tc := range []struct{ style, code, file, lang string }{
		{"", "es_MX", "po/es_MX.po", "es_MX"},
		{"bcp", "fr_CA", "po/fr-CA.po", "fr_CA"},
		{"posix_long", "sv", "po/sv_SE.po", "sv"},
		{"android", "zh_Hans", "po/zh-rCN.po", "zh_Hans"},
	} {
		t.Run(tc.style+"/"+tc.code, func(t *testing.T) {
			e := newEnv(t, true)
			comp := greeter(1, fixture.Origin(t, fixture.Files()))
			comp.LanguageCodeStyle = tc.style // the fixture catalog puts it in effect
			e.catalog.Set(comp, project)
			if task := e.importNow(t, 1); task.GetError() != "" {
				t.Fatal(task.GetError())
			}
			resp, err := e.client.AddTranslation(t.Context(), &translationv1.AddTranslationRequest{ComponentId: 1, LanguageCode: tc.code, Actor: "alice"})
			if err != nil {
				t.Fatal(err)
			}
			if got := resp.GetTranslation().GetFilename(); got != tc.file {
				t.Errorf("file %q, want %q", got, tc.file)
			}
			if _, err = os.Stat(filepath.Join(e.dataDir, "repos", "1", filepath.FromSlash(tc.file))); err != nil {
				t.Error(err)
			}
			if task := e.importNow(t, 1); task.GetError() != "" {
				t.Fatal(task.GetError())
			}
			if got := e.translation(t, 1, tc.lang).GetFilename(); got != tc.file {
				t.Errorf("re-imported as %s: file %q", tc.lang, got)
			}
		})
	}
}
