package pgtest

import (
	"database/sql"
	"errors"
	"os"
	"testing"

	"github.com/tmsproject/tms/pkg/pgserver"
)

func TestMain(m *testing.M) { Main(m) }

func open(t *testing.T, url string) *sql.DB {
	t.Helper()
	db, err := sql.Open("pgx", url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = db.Close() })
	return db
}

func TestURLGivesIsolatedDatabases(t *testing.T) {
	a, b := URL(t), URL(t)
	if a == b {
		t.Fatalf("two calls returned the same URL %s", a)
	}
	dbA, dbB := open(t, a), open(t, b)
	if _, err := dbA.ExecContext(t.Context(), `CREATE TABLE only_in_a (id int)`); err != nil {
		t.Fatal(err)
	}
	var n int
	err := dbB.QueryRowContext(t.Context(), `SELECT count(*) FROM pg_tables WHERE tablename = 'only_in_a'`).Scan(&n)
	if err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("table of database A visible in database B")
	}
	var version string
	if err := dbA.QueryRowContext(t.Context(), `SHOW server_version`).Scan(&version); err != nil {
		t.Fatal(err)
	}
	t.Logf("server %s", version)
}

func TestDatabaseDroppedAfterTest(t *testing.T) {
	var name string
	t.Run("holder", func(t *testing.T) {
		db := open(t, URL(t))
		if err := db.QueryRowContext(t.Context(), `SELECT current_database()`).Scan(&name); err != nil {
			t.Fatal(err)
		}
	})
	admin := open(t, URL(t))
	var n int
	if err := admin.QueryRowContext(t.Context(), `SELECT count(*) FROM pg_database WHERE datname = $1`, name).Scan(&n); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("database %s still exists after its test ended", name)
	}
}

func TestEnvURLWins(t *testing.T) {
	t.Setenv(EnvURL, "postgres://example.invalid/x")
	if got := URL(t); got != "postgres://example.invalid/x" {
		t.Fatalf("URL = %q, want the %s value", got, EnvURL)
	}
}

func TestMissingBinaries(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	if _, err := pgserver.Start(); !errors.Is(err, pgserver.ErrNoBinaries) {
		t.Fatalf("Start() error = %v, want ErrNoBinaries", err)
	}
}

func TestWithoutMainLastUserStopsCluster(t *testing.T) {
	mu.Lock()
	mainOwned = false
	mu.Unlock()
	defer func() {
		mu.Lock()
		mainOwned = true
		mu.Unlock()
	}()
	var dir string
	t.Run("user", func(t *testing.T) {
		URL(t)
		mu.Lock()
		dir = current.Dir()
		mu.Unlock()
	})
	mu.Lock()
	stopped := current == nil
	mu.Unlock()
	if !stopped {
		t.Fatal("cluster still running after its last user ended")
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("cluster directory %s not removed: %v", dir, err)
	}
}
