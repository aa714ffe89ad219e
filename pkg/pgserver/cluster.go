package pgserver

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/jackc/pgx/v5/stdlib" // registers the "pgx" driver
)

// cluster is a running private PostgreSQL server.
type cluster struct {
	dir    string // data lives in dir/data, the socket in dir
	cmd    *exec.Cmd
	exited chan struct{} // closed when the server process ends
	admin  *sql.DB       // connected to the "postgres" database
	// createSuffix ends CREATE DATABASE: FILE_COPY (PostgreSQL 15+) is
	// several times faster than the default WAL_LOG with fsync off.
	createSuffix string
}

const dirPrefix = "tmspg-"

// start creates, boots and connects to a new cluster.
func start() (*cluster, error) {
	initdb, postgres, err := binaries()
	if err != nil {
		return nil, err
	}
	base := socketBase()
	sweepStale(base)
	dir, err := os.MkdirTemp(base, dirPrefix)
	if err != nil {
		return nil, err
	}
	c := &cluster{dir: dir}
	if err := c.boot(initdb, postgres); err != nil {
		c.stop()
		return nil, err
	}
	return c, nil
}

func (c *cluster) boot(initdb, postgres string) error {
	if err := os.WriteFile(filepath.Join(c.dir, "owner"), []byte(strconv.Itoa(os.Getpid())), 0o600); err != nil {
		return err
	}
	data := filepath.Join(c.dir, "data")
	cached := copyTemplate(initdb, data) == nil
	cred, err := credential(c.dir)
	if err != nil {
		return err
	}
	if !cached {
		init := c.command(cred, initdb, "-D", data, "-U", "postgres", "-A", "trust", "-E", "UTF8", "--locale=C", "--no-sync")
		if out, initErr := init.CombinedOutput(); initErr != nil {
			return fmt.Errorf("initdb: %w\n%s", initErr, out)
		}
		publishTemplate(initdb, data)
	}
	log, err := os.Create(filepath.Join(c.dir, "postgres.log"))
	if err != nil {
		return err
	}
	defer func() { _ = log.Close() }() // the child keeps its own descriptor
	c.cmd = c.command(cred, postgres, "-D", data, "-k", c.dir, "-p", "5432",
		"-c", "listen_addresses=", "-c", "fsync=off", "-c", "synchronous_commit=off",
		"-c", "full_page_writes=off", "-c", "max_connections=200",
		"-c", "checkpoint_timeout=1h", "-c", "max_wal_size=1GB")
	c.cmd.Stdout, c.cmd.Stderr = log, log
	// The server dies with the test binary even when it crashes; SIGQUIT
	// is PostgreSQL's immediate shutdown.
	c.cmd.SysProcAttr.Pdeathsig = syscall.SIGQUIT
	c.cmd.SysProcAttr.Setpgid = true
	if err := c.cmd.Start(); err != nil {
		return fmt.Errorf("start postgres: %w", err)
	}
	c.exited = make(chan struct{})
	go func() { _ = c.cmd.Wait(); close(c.exited) }()
	return c.connect()
}

// command prepares a PostgreSQL program run as the cluster's owner.
func (c *cluster) command(cred *syscall.Credential, name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...) //nolint:gosec // G204: the machine's initdb and postgres, found by binaries()
	cmd.Dir = c.dir
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
	return cmd
}

// connect waits until the server accepts connections.
func (c *cluster) connect() error {
	admin, err := sql.Open("pgx", c.url("postgres"))
	if err != nil {
		return err
	}
	c.admin = admin
	deadline := time.Now().Add(20 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err = admin.PingContext(ctx)
		cancel()
		if err == nil {
			return c.probeVersion()
		}
		select {
		case <-c.exited:
			return fmt.Errorf("postgres exited during start-up:\n%s", c.log())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres did not accept connections within 20s: %w\n%s", err, c.log())
		}
	}
}

func (c *cluster) probeVersion() error {
	var version int
	if err := c.admin.QueryRow(`SELECT current_setting('server_version_num')::int`).Scan(&version); err != nil {
		return err
	}
	if version >= 150000 {
		c.createSuffix = " STRATEGY FILE_COPY"
	}
	return nil
}

// stop shuts the server down at once and deletes its files.
func (c *cluster) stop() {
	if c.admin != nil {
		_ = c.admin.Close()
	}
	if c.cmd != nil && c.cmd.Process != nil {
		_ = c.cmd.Process.Signal(syscall.SIGQUIT)
		select {
		case <-c.exited:
		case <-time.After(5 * time.Second):
			_ = c.cmd.Process.Kill()
			<-c.exited
		}
	}
	_ = os.RemoveAll(c.dir)
}

func (c *cluster) log() string {
	b, _ := os.ReadFile(filepath.Join(c.dir, "postgres.log"))
	return strings.TrimSpace(string(b))
}

// binaries finds initdb and postgres; postgres is also looked up beside
// initdb because Debian keeps it out of PATH.
func binaries() (initdb, postgres string, err error) {
	initdb, err = exec.LookPath("initdb")
	if err != nil {
		return "", "", ErrNoBinaries
	}
	if postgres, err = exec.LookPath("postgres"); err == nil {
		return initdb, postgres, nil
	}
	resolved, err := filepath.EvalSymlinks(initdb)
	if err != nil {
		return "", "", ErrNoBinaries
	}
	postgres = filepath.Join(filepath.Dir(resolved), "postgres")
	if _, err := os.Stat(postgres); err != nil {
		return "", "", ErrNoBinaries
	}
	return initdb, postgres, nil
}

// credential returns who runs the server: the current user, or the
// "postgres" user when running as root (initdb and postgres refuse root),
// in which case dir is handed over to that user.
func credential(dir string) (*syscall.Credential, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return nil, fmt.Errorf("running as root needs a 'postgres' user to own the test cluster: %w", err)
	}
	uid, err1 := strconv.ParseUint(u.Uid, 10, 32)
	gid, err2 := strconv.ParseUint(u.Gid, 10, 32)
	if err := errors.Join(err1, err2); err != nil {
		return nil, err
	}
	if err := filepath.Walk(dir, func(p string, _ os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		return os.Chown(p, int(uid), int(gid)) //nolint:gosec // G115: parsed with bitSize 32, fits an int
	}); err != nil {
		return nil, err
	}
	return &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}, nil
}

// socketBase picks the parent of cluster directories: /dev/shm when it is
// a roomy tmpfs (a cluster writes some 40 MB, which a slow disk makes the
// bulk of start-up time), else the temporary directory. A unix socket path
// is limited to about 107 bytes, so a long TMPDIR falls back to /tmp.
func socketBase() string {
	const shm = "/dev/shm"
	var st syscall.Statfs_t
	if syscall.Statfs(shm, &st) == nil && st.Bavail*uint64(st.Bsize) >= 1<<30 && syscall.Access(shm, 2 /* W_OK */) == nil { //nolint:gosec // G115: a block size is positive
		return shm
	}
	base := os.TempDir()
	if len(base) > 60 {
		base = "/tmp"
	}
	return base
}

// sweepStale removes cluster directories whose test binary is gone (killed
// before it could clean up).
func sweepStale(base string) {
	dirs, _ := filepath.Glob(filepath.Join(base, dirPrefix+"*"))
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "owner"))
		if err != nil {
			continue
		}
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil || pid == os.Getpid() {
			continue
		}
		if errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) {
			_ = os.RemoveAll(d)
		}
	}
}

// ErrNoBinaries marks a machine without PostgreSQL installed.
var ErrNoBinaries = errors.New("PostgreSQL server binaries (initdb, postgres) not found on PATH")

// url builds a libpq-style URL for a database reached over the cluster's
// unix socket.
func (c *cluster) url(database string) string {
	q := url.Values{}
	q.Set("host", c.dir)
	q.Set("port", "5432")
	q.Set("sslmode", "disable")
	u := url.URL{Scheme: "postgres", User: url.User("postgres"), Path: "/" + database, RawQuery: q.Encode()}
	return u.String()
}
