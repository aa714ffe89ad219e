package bench

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/bench/origin"
	"github.com/tmsproject/tms/pkg/db"
)

// Fixtures shared by the runs of a benchmark (-count N) within one
// process: importing 250k units once instead of once per run. They are
// built lazily inside the benchmark that first needs them, so `go test`
// without -bench never pays for them, and removed by TestMain.
var shared = struct {
	sync.Mutex
	envs     map[string]*env
	cleanups []func()
}{envs: map[string]*env{}}

func TestMain(m *testing.M) {
	code := m.Run()
	shared.Lock()
	for i := len(shared.cleanups) - 1; i >= 0; i-- {
		shared.cleanups[i]()
	}
	shared.Unlock()
	os.Exit(code)
}

// sharedEnv returns the stack named key, building it with setup on first
// use. The stack outlives the benchmark, so its data lives in a directory
// of its own rather than in b.TempDir.
func sharedEnv(b *testing.B, key string, setup func(e *env)) *env {
	b.Helper()
	shared.Lock()
	defer shared.Unlock()
	if e, ok := shared.envs[key]; ok {
		e.tb = b
		return e
	}
	dir, err := os.MkdirTemp("", "tms-bench-")
	if err != nil {
		b.Fatal(err)
	}
	shared.cleanups = append(shared.cleanups, func() { _ = os.RemoveAll(dir) })
	e := startStack(b, dir, true)
	shared.cleanups = append(shared.cleanups, func() { e.tb = nopTB{b}; e.close() })
	start := time.Now()
	setup(e)
	// The runs measure reads and edits, not the index building and the
	// memory's batches beside them.
	if _, err := WaitSettled(db.Config{SQLitePath: filepath.Join(dir, "translation.db")}, 10*time.Minute); err != nil {
		b.Fatal(err)
	}
	b.Logf("fixture %s built and indexed in %v", key, time.Since(start).Round(time.Millisecond))
	shared.envs[key] = e
	return e
}

// nopTB stands in for a finished benchmark when a shared stack closes at
// process end: failures are printed, not reported to a finished test.
type nopTB struct{ testing.TB }

func (nopTB) Errorf(format string, args ...any) { fmt.Fprintf(os.Stderr, format+"\n", args...) }

// generatedComponent imports a generated component of n strings in the
// given languages as bench/<slug> into e; extra are more component fields.
// Call it only from a sharedEnv setup (it extends the shared cleanups).
func generatedComponent(e *env, slug string, n int, codes []string, share int, extra map[string]any) {
	e.tb.Helper()
	g := Generate(n, uint64(n))
	dir, err := os.MkdirTemp("", "tms-bench-origin-")
	if err != nil {
		e.tb.Fatal(err)
	}
	shared.cleanups = append(shared.cleanups, func() { _ = os.RemoveAll(dir) })
	repo, err := origin.Create(dir, g.Files(slug, codes, share))
	if err != nil {
		e.tb.Fatal(err)
	}
	e.importComponent("bench", slug, repo, "po/"+slug+".pot", 5*time.Minute, extra)
}
