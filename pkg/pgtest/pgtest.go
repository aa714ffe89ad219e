package pgtest

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"sync"
	"testing"

	"github.com/tmsproject/tms/pkg/pgserver"
)

// Environment variables read by URL.
const (
	EnvURL  = "TMS_TEST_DATABASE_URL"
	EnvSkip = "TMS_TEST_SKIP_POSTGRES"
)

// The shared cluster of this test binary.
var (
	mu        sync.Mutex
	current   *pgserver.Server
	startErr  error // sticky: a cluster that failed once is not retried
	users     int   // tests holding the cluster when Main does not own it
	mainOwned bool
)

// Main runs the tests of a package and stops the cluster, if one was
// started, before exiting with the tests' status. Call it from TestMain.
// Each of after runs once the tests passed, checking what they gathered;
// a non-zero status it returns fails the run.
func Main(m *testing.M, after ...func() int) {
	mu.Lock()
	mainOwned = true
	mu.Unlock()
	code := m.Run()
	for _, f := range after {
		if code == 0 {
			code = f()
		}
	}
	mu.Lock()
	if current != nil {
		current.Stop()
		current = nil
	}
	mu.Unlock()
	os.Exit(code)
}

// URL returns the connection URL of a PostgreSQL database for t alone: a
// fresh database in the shared test cluster, dropped when t ends, or the
// database named by TMS_TEST_DATABASE_URL when set (shared as is; isolate
// with per-test schemas).
func URL(t testing.TB) string {
	t.Helper()
	if u := os.Getenv(EnvURL); u != "" {
		return u
	}
	if os.Getenv(EnvSkip) == "1" {
		t.Skipf("PostgreSQL tests skipped: %s=1", EnvSkip)
	}
	c, err := acquire()
	if err != nil {
		if errors.Is(err, pgserver.ErrNoBinaries) {
			t.Fatalf("pgtest: %v; install PostgreSQL (Debian: apt-get install postgresql) and put its bin directory on PATH, "+
				"point %s at a server, or set %s=1 to skip PostgreSQL tests", err, EnvURL, EnvSkip)
		}
		t.Fatalf("pgtest: start PostgreSQL: %v", err)
	}
	t.Cleanup(release)
	name := "t_" + randomHex(8)
	u, err := c.CreateDatabase(name)
	if err != nil {
		t.Fatalf("pgtest: %v", err)
	}
	t.Cleanup(func() {
		// FORCE ends connections a test forgot to close.
		if err := c.DropDatabase(name); err != nil {
			t.Logf("pgtest: drop database %s: %v", name, err)
		}
	})
	return u
}

// acquire returns the running cluster, starting it when needed.
func acquire() (*pgserver.Server, error) {
	mu.Lock()
	defer mu.Unlock()
	if startErr != nil {
		return nil, startErr
	}
	if current == nil {
		c, err := pgserver.Start()
		if err != nil {
			startErr = err
			return nil, err
		}
		current = c
	}
	users++
	return current, nil
}

// release drops one test's hold; without Main the last one stops the
// cluster.
func release() {
	mu.Lock()
	defer mu.Unlock()
	users--
	if users == 0 && !mainOwned && current != nil {
		current.Stop()
		current = nil
	}
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b) // never fails (crypto/rand panics instead)
	return hex.EncodeToString(b)
}
