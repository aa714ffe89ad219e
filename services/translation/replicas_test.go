package translation_test

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"google.golang.org/grpc"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/grpctest"
	"github.com/tmsproject/tms/pkg/lease"
	"github.com/tmsproject/tms/pkg/pgtest"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

// replica starts another translation service beside e's: the same
// database configuration and fixtures, a data directory (disk) of its own.
// stop ends it as a crash would: its working copies go with its disk.
func (e *env) replica(t *testing.T, dbc db.Config) (r *env, stop func()) {
	t.Helper()
	r = &env{catalog: e.catalog, changelog: e.changelog, users: e.users, dataDir: t.TempDir()}
	catConn := grpctest.Serve(t, func(s grpc.ServiceRegistrar) { catalogv1.RegisterCatalogServiceServer(s, e.catalog) })
	logConn := grpctest.Serve(t, func(s grpc.ServiceRegistrar) { changelogv1.RegisterChangelogServiceServer(s, e.changelog) })
	userConn := grpctest.Serve(t, func(s grpc.ServiceRegistrar) { notificationv1.RegisterNotificationServiceServer(s, e.users) })
	ctx, cancel := context.WithCancel(context.Background())
	svc, err := translation.New(ctx, translation.Config{DataDir: r.dataDir, DB: dbc,
		Catalog: catalogv1.NewCatalogServiceClient(catConn), Changelog: changelogv1.NewChangelogServiceClient(logConn),
		Users: notificationv1.NewNotificationServiceClient(userConn), AllowLocalRepos: true,
		Log: slog.New(slog.NewTextHandler(io.Discard, nil)), RepoLease: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { defer close(done); _ = svc.Run(ctx) }()
	r.svc, r.client = svc, translationv1.NewTranslationServiceClient(grpctest.Serve(t, svc.Register))
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		cancel()
		<-done
		_ = svc.Close()
		_ = os.RemoveAll(r.dataDir)
	}
	t.Cleanup(stop)
	return r, stop
}

// TestReplicasShareRepositories runs two replicas on one PostgreSQL
// database: a commit made on one, never pushed, survives the loss of that
// replica and its disk, and the other pushes it with its own edit.
func TestReplicasShareRepositories(t *testing.T) {
	dbc := db.Config{URL: pgtest.URL(t)}
	first, origin := setupRepoWith(t, func(c *translation.Config) { c.DB = dbc }, nil)
	a, stopA := first.replica(t, dbc)
	b, _ := first.replica(t, dbc)
	a.edit(t, "pt_BR", "Send", []string{"Enviar"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
	if res := a.op(t, "commit"); !res.GetResult() {
		t.Fatalf("commit on a: %+v", res)
	}
	_ = first.svc.Close() // its cleanup closes it again; only its connections matter here
	stopA()               // a dies with the only working copy holding the commit
	// Reads need no working copy: b answers the repository's state
	// from the database, without cloning.
	if r := b.repository(t, ""); !r.GetNeedsPush() || r.GetLocalCommit().GetAuthorName() != "ana" {
		t.Errorf("b's view before any work: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(b.dataDir, "repos", "1")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("reading the repository state made a working copy: %v", err)
	}
	b.edit(t, "pt_BR", "Close", []string{"Fechar"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "bob")
	if r := b.repository(t, ""); !r.GetNeedsPush() || !r.GetNeedsCommit() {
		t.Fatalf("b's view of the repository: %+v", r)
	}
	if res := b.op(t, "push"); !res.GetResult() {
		t.Fatalf("push on b: %+v", res)
	}
	pushed := originFile(t, origin, "po/pt_BR.po")
	for _, want := range []string{`msgstr "Enviar"`, `msgstr "Fechar"`} {
		if !strings.Contains(pushed, want) {
			t.Errorf("the pushed pt_BR.po lacks %s:\n%s", want, pushed)
		}
	}
	if r := b.repository(t, ""); r.GetNeedsPush() || r.GetNeedsCommit() {
		t.Errorf("after push: %+v", r)
	}
	// A replica that dies holding the component's lease: the other waits
	// for the lease to run out (2 s here), then takes the component over.
	dead := lease.New(b.svc.DB(), "a-dead-replica")
	if held, err := dead.Acquire(t.Context(), "translation.repo.1", 2*time.Second); err != nil || !held {
		t.Fatalf("the dead replica's lease: %v %v", held, err)
	}
	b.edit(t, "pt_BR", "Send", []string{"Senden"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "bob")
	start := time.Now()
	if res := b.op(t, "push"); !res.GetResult() {
		t.Fatalf("push after the takeover: %+v", res)
	}
	took := time.Since(start)
	t.Logf("repository work taken over %v after the dead replica's last renewal (lease 2s)", took.Round(time.Millisecond))
	if took < time.Second || took > 10*time.Second {
		t.Errorf("takeover after %v, want about the lease's 2s", took)
	}
}

// TestRepoChangeKeepsWork changes the remote (or the branch) of a
// component holding a commit not pushed yet and an edit not committed yet,
// to one that has moved on, or imports it again unchanged after its remote
// moved on: after a push, the remote has both edits and its own change.
func TestRepoChangeKeepsWork(t *testing.T) {
	cases := []struct {
		name   string
		style  typev1.MergeStyle
		change string // what changes: "repo", "branch", or nothing (a re-import)
	}{
		{"repo, merge", typev1.MergeStyle_MERGE_STYLE_MERGE, "repo"},
		{"repo, rebase", typev1.MergeStyle_MERGE_STYLE_REBASE, "repo"},
		{"branch", typev1.MergeStyle_MERGE_STYLE_MERGE, "branch"},
		{"re-import", typev1.MergeStyle_MERGE_STYLE_MERGE, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			style := c.style
			e, origin := setupRepo(t, func(c *catalogv1.Component) { c.MergeStyle = style })
			e.edit(t, "pt_BR", "Send", []string{"Enviar"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "ana")
			if res := e.op(t, "commit"); !res.GetResult() {
				t.Fatalf("commit: %+v", res)
			}
			e.edit(t, "pt_BR", "Close", []string{"Fechar"}, typev1.UnitState_UNIT_STATE_TRANSLATED, "bob")
			moved, branch := t.TempDir(), "main"
			comp := e.catalog.Component(1)
			switch c.change {
			case "":
				moved = origin
				fixture.Upstream(t, origin, map[string]string{"README.md": "Moved on.\n"})
			case "branch":
				moved, branch = origin, "stable"
				newBranch(t, origin, branch, map[string]string{"README.md": "Moved on.\n"})
				comp.Branch = branch
			default:
				if _, err := git.PlainClone(moved, true, &git.CloneOptions{URL: origin}); err != nil {
					t.Fatal(err)
				}
				fixture.Upstream(t, moved, map[string]string{"README.md": "Moved on.\n"})
				comp.Repo = moved
			}
			e.catalog.Set(comp, project)
			if task := e.importNow(t, 1); task.GetError() != "" {
				t.Fatalf("import of the new remote: %s", task.GetError())
			}
			for source, want := range map[string]string{"Send": "Enviar", "Close": "Fechar"} {
				if u := e.unit(t, "pt_BR", source); u.GetTarget()[0] != want {
					t.Errorf("%s after the change: %q, want %q", source, u.GetTarget(), want)
				}
			}
			if res := e.op(t, "push"); !res.GetResult() {
				t.Fatalf("push: %+v", res)
			}
			pushed := branchFile(t, moved, branch, "po/pt_BR.po")
			for _, want := range []string{`msgstr "Enviar"`, `msgstr "Fechar"`} {
				if !strings.Contains(pushed, want) {
					t.Errorf("the new remote's pt_BR.po lacks %s:\n%s", want, pushed)
				}
			}
			if readme := branchFile(t, moved, branch, "README.md"); readme != "Moved on.\n" {
				t.Errorf("the new remote's own change was lost: %q", readme)
			}
		})
	}
}

// newBranch makes branch in the bare repository origin: main with files
// committed on top.
func newBranch(t *testing.T, origin, branch string, files map[string]string) {
	t.Helper()
	dir := t.TempDir()
	r, err := git.PlainClone(dir, false, &git.CloneOptions{URL: origin, ReferenceName: plumbing.NewBranchReferenceName("main")})
	if err != nil {
		t.Fatal(err)
	}
	wt, err := r.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.Checkout(&git.CheckoutOptions{Branch: plumbing.NewBranchReferenceName(branch), Create: true}); err != nil {
		t.Fatal(err)
	}
	fixture.Commit(t, r, dir, files, "Work on "+branch)
	spec := config.RefSpec("refs/heads/" + branch + ":refs/heads/" + branch)
	if err := r.Push(&git.PushOptions{RefSpecs: []config.RefSpec{spec}}); err != nil {
		t.Fatal(err)
	}
}

// branchFile reads a file of a branch of a bare repository.
func branchFile(t *testing.T, bare, branch, path string) string {
	t.Helper()
	r, err := git.PlainOpen(bare)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := r.Reference(plumbing.NewBranchReferenceName(branch), true)
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.CommitObject(ref.Hash())
	if err != nil {
		t.Fatal(err)
	}
	f, err := c.File(path)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	text, err := f.Contents()
	if err != nil {
		t.Fatal(err)
	}
	return text
}

// TestCancelTaskOnAnotherReplica: a cancellation asked of one replica
// stops the import another replica runs, through the task's row, within
// the poll's second or so.
func TestCancelTaskOnAnotherReplica(t *testing.T) {
	dbc := db.Config{URL: pgtest.URL(t)}
	first, _ := setupRepoWith(t, func(c *translation.Config) { c.DB = dbc }, nil)
	a, _ := first.replica(t, dbc)
	b, _ := first.replica(t, dbc)
	// The replicas share the fixture catalog: a's import waits on the
	// remote.
	first.catalog.Set(greeter(1, fixture.SilentRemote(t)), project)
	resp, err := a.client.ImportComponent(t.Context(), &translationv1.ImportComponentRequest{ComponentId: 1, Actor: "admin"})
	if err != nil {
		t.Fatal(err)
	}
	id := resp.GetTask().GetId()
	start := time.Now()
	if _, err = b.client.CancelTask(t.Context(), &translationv1.CancelTaskRequest{Id: id}); err != nil {
		t.Fatal(err)
	}
	if task := b.finishedTask(t, id); task.GetError() != "The task was cancelled." {
		t.Fatalf("the task after a cancellation on the other replica: %v", task)
	}
	t.Logf("cancelled on the other replica after %v", time.Since(start).Round(time.Millisecond))
}
