//go:build postgres_driver

// This file needs github.com/jackc/pgx/v5 in the module's go.mod, which the
// module does not require yet; build it with -tags postgres_driver once it
// does. It uses TMS_TEST_DATABASE_URL when set, else starts a throwaway
// cluster with the PostgreSQL binaries on PATH (skipping when there are none).

package search

import (
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"syscall"
	"testing"

	_ "github.com/jackc/pgx/v5/stdlib"
)

func TestExecPostgres(t *testing.T) {
	dsn := os.Getenv("TMS_TEST_DATABASE_URL")
	if dsn == "" {
		dsn = startPostgres(t)
	}
	db, err := sql.Open("pgx", dsn)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.Exec("DROP TABLE IF EXISTS units"); err != nil {
		t.Fatal(err)
	}
	runExecSuite(t, db, DialectPostgres)
}

// startPostgres runs initdb and pg_ctl in a temporary directory, as the
// postgres user when the test runs as root (initdb refuses root).
func startPostgres(t *testing.T) string {
	for _, bin := range []string{"initdb", "pg_ctl"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("no %s on PATH", bin)
		}
	}
	dir, err := os.MkdirTemp("", "pg")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	var cred *syscall.Credential
	if os.Getuid() == 0 {
		u, err := user.Lookup("postgres")
		if err != nil {
			t.Skip("running as root without a postgres user")
		}
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		if err := os.Chown(dir, uid, gid); err != nil {
			t.Fatal(err)
		}
	}
	run := func(args ...string) {
		cmd := exec.Command(args[0], args[1:]...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("%v: %v\n%s", args, err, out)
		}
	}
	port := freePort(t)
	data := dir + "/data"
	// C.UTF-8: ILIKE then folds non-ASCII letters too.
	run("initdb", "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C.UTF-8", "--no-sync")
	run("pg_ctl", "-D", data, "-w", "-l", dir+"/log", "start", "-o",
		fmt.Sprintf("-c listen_addresses=127.0.0.1 -p %d -k %s -c fsync=off -c synchronous_commit=off", port, dir))
	t.Cleanup(func() { run("pg_ctl", "-D", data, "-m", "immediate", "-w", "stop") })
	return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
}

func freePort(t *testing.T) int {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}
