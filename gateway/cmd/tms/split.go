package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/tmsproject/tms/gateway/stack"
	"github.com/tmsproject/tms/pkg/grpcx"
	"github.com/tmsproject/tms/pkg/pgserver"
)

const splitSynopsis = `
Usage: tms run-split [--data-dir=DIR]

Runs the service as a split deployment on this machine, for development and
fault testing: a throwaway PostgreSQL cluster from the machine's binaries
(initdb and postgres on PATH) with one database per service, then catalog,
translation, changelog, notification and the gateway as separate processes
of this binary, each writing DIR/run/<name>.pid. The gateway listens on
TMS_HTTP_ADDR. Runs in the foreground; SIGINT or SIGTERM stops every process
and the database, whose data is thrown away.`

// splitServices are the processes of run-split, in start order (a service
// after the ones it calls).
var splitServices = append(append([]string{}, stack.Backends...), stack.Gateway)

func runSplit(args []string, stdout, stderr io.Writer) int {
	cfg, err := stack.FromEnv()
	if err != nil {
		fmt.Fprintln(stderr, "tms run-split:", err)
		return exitUsage
	}
	fs := newFlags("run-split", splitSynopsis, stdout, stderr)
	fs.StringVar(&cfg.DataDir, "data-dir", cfg.DataDir, "lock and pid files, working copies (TMS_DATA_DIR)")
	if code, done := fs.parse(args); done {
		return code
	}
	if err := splitMain(cfg, stderr); err != nil {
		fmt.Fprintln(stderr, "tms run-split:", err)
		return exitFailure
	}
	return exitOK
}

func splitMain(cfg stack.Config, stderr io.Writer) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	data, err := filepath.Abs(cfg.DataDir)
	if err != nil {
		return err
	}
	pg, err := pgserver.Start()
	if err != nil {
		return fmt.Errorf("start PostgreSQL: %w", err)
	}
	defer pg.Stop()
	// The processes authenticate their calls with one shared credential:
	// the configured one, or one made for this run.
	token := cfg.ServiceToken
	if token == "" {
		token = grpcx.NewServiceToken()
	}
	env := []string{"TMS_DATA_DIR=" + data, "TMS_DATABASE_URL=", "TMS_SERVICE_TOKEN=" + token}
	for _, s := range stack.Backends {
		url, err := pg.CreateDatabase(s)
		if err != nil {
			return err
		}
		// A configured address is kept (so that grpcurl knows where to
		// call); otherwise any free one.
		addr := cfg.Addrs[s]
		if addr == "" {
			if addr, err = freeAddr(); err != nil {
				return err
			}
		}
		env = append(env, "TMS_"+strings.ToUpper(s)+"_DATABASE_URL="+url, "TMS_"+strings.ToUpper(s)+"_ADDR="+addr)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var procs []*proc
	defer func() { stopAll(procs) }()
	for _, s := range splitServices {
		cmd := exec.Command(self, "serve", "--services="+s) //nolint:gosec // G204: this very binary
		cmd.Env = append(os.Environ(), env...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
		p, err := startPrefixed(cmd, s, stderr)
		if err != nil {
			return fmt.Errorf("start %s: %w", s, err)
		}
		procs = append(procs, p)
		if err := waitStarted(ctx, p, data, s); err != nil {
			return err
		}
	}
	<-ctx.Done()
	return nil
}

// proc is a started process whose output is being copied.
type proc struct {
	cmd    *exec.Cmd
	output chan struct{} // closed when its output ends (it exited)
}

// startPrefixed starts cmd with its output on w, each line labelled.
func startPrefixed(cmd *exec.Cmd, label string, w io.Writer) (*proc, error) {
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = cmd.Stdout
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &proc{cmd: cmd, output: make(chan struct{})}
	go func() {
		defer close(p.output)
		sc := bufio.NewScanner(out)
		sc.Buffer(make([]byte, 64<<10), 1<<20)
		for sc.Scan() {
			fmt.Fprintf(w, "%-12s %s\n", label, sc.Text())
		}
	}()
	return p, nil
}

// waitStarted waits for the process's pid file, written once it holds its
// role's lock, then a moment for it to bind its port.
func waitStarted(ctx context.Context, p *proc, data, role string) error {
	pidFile := filepath.Join(data, "run", role+".pid")
	want := fmt.Sprint(p.cmd.Process.Pid)
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); {
		if b, err := os.ReadFile(pidFile); err == nil && strings.TrimSpace(string(b)) == want { //nolint:gosec // G304: a pid file of the data directory
			// A moment for it to bind its port.
			select {
			case <-ctx.Done():
			case <-time.After(300 * time.Millisecond):
			}
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-p.output:
			return fmt.Errorf("%s exited at start", role)
		case <-time.After(100 * time.Millisecond):
		}
	}
	return fmt.Errorf("%s did not start within 60 s", role)
}

// stopAll ends the processes in reverse start order and waits for them.
func stopAll(procs []*proc) {
	for i := len(procs) - 1; i >= 0; i-- {
		_ = procs[i].cmd.Process.Signal(syscall.SIGTERM)
	}
	for i := len(procs) - 1; i >= 0; i-- {
		select {
		case <-procs[i].output:
		case <-time.After(15 * time.Second):
			_ = procs[i].cmd.Process.Kill()
			<-procs[i].output
		}
		_ = procs[i].cmd.Wait()
	}
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer func() { _ = l.Close() }() // only its port was wanted
	return l.Addr().String(), nil
}
