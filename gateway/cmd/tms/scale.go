package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/tmsproject/tms/gateway/stack"
	"github.com/tmsproject/tms/pkg/grpcx"
	"github.com/tmsproject/tms/pkg/pgserver"
)

const scaleSynopsis = `
Usage: tms run-scale [--data-dir=DIR] [--replicas=N]

Runs the service as Kubernetes would at scale, on this machine: a throwaway
PostgreSQL cluster from the machine's binaries with one database per
service, then N replicas (default 2) of catalog, translation, changelog,
notification and the gateway, each a separate process of this binary with
a data directory (disk) of its own under DIR/replicas/. The gateways listen
on TMS_HTTP_ADDR and the ports after it; each service's replicas on free
ports, which the others dial as one balanced list. Each process's pid is in
DIR/run/<service>-<n>.pid (gateway-1, gateway-2, catalog-1, ...). A
replica that dies is started again after a second, as a Deployment would.
Runs in the foreground; SIGINT or SIGTERM stops every process and the
database, whose data is thrown away.`

func runScale(args []string, stdout, stderr io.Writer) int {
	cfg, err := stack.FromEnv()
	if err != nil {
		fmt.Fprintln(stderr, "tms run-scale:", err)
		return exitUsage
	}
	fs := newFlags("run-scale", scaleSynopsis, stdout, stderr)
	fs.StringVar(&cfg.DataDir, "data-dir", cfg.DataDir, "pid files and each replica's data directory (TMS_DATA_DIR)")
	n := fs.Int("replicas", 2, "processes of each service and of the gateway")
	if code, done := fs.parse(args); done {
		return code
	}
	if *n < 1 {
		fmt.Fprintln(stderr, "tms run-scale: --replicas must be 1 or more")
		return exitUsage
	}
	if err := scaleMain(cfg, *n, stderr); err != nil {
		fmt.Fprintln(stderr, "tms run-scale:", err)
		return exitFailure
	}
	return exitOK
}

// replica is one process of run-scale: its role, number and environment.
type replica struct {
	role string
	n    int
	env  []string
	data string
}

func (r replica) name() string { return r.role + "-" + strconv.Itoa(r.n) }

func scaleMain(cfg stack.Config, n int, stderr io.Writer) error {
	data, err := filepath.Abs(cfg.DataDir)
	if err != nil {
		return err
	}
	if err = os.MkdirAll(filepath.Join(data, "run"), 0o750); err != nil {
		return err
	}
	pg, err := pgserver.Start()
	if err != nil {
		return fmt.Errorf("start PostgreSQL: %w", err)
	}
	defer pg.Stop()
	replicas, err := scalePlan(cfg, n, data, pg)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var wg sync.WaitGroup
	for _, r := range replicas {
		started := make(chan error, 1)
		wg.Go(func() { supervise(ctx, r, data, stderr, started) })
		if err := <-started; err != nil {
			stop()
			wg.Wait()
			return err
		}
	}
	<-ctx.Done()
	wg.Wait()
	return nil
}

// scalePlan makes the databases and lays out every process: services in
// start order (a service after the ones it calls), then the gateways.
func scalePlan(cfg stack.Config, n int, data string, pg *pgserver.Server) ([]replica, error) {
	token := cfg.ServiceToken
	if token == "" {
		token = grpcx.NewServiceToken()
	}
	shared := []string{"TMS_DATABASE_URL=", "TMS_SERVICE_TOKEN=" + token}
	own := map[string][]string{} // each service's replicas' addresses
	for _, s := range stack.Backends {
		url, err := pg.CreateDatabase(s)
		if err != nil {
			return nil, err
		}
		for range n {
			addr, err := freeAddr()
			if err != nil {
				return nil, err
			}
			own[s] = append(own[s], addr)
		}
		shared = append(shared, "TMS_"+strings.ToUpper(s)+"_DATABASE_URL="+url,
			"TMS_"+strings.ToUpper(s)+"_ADDR="+strings.Join(own[s], ","))
	}
	host, port, err := net.SplitHostPort(cfg.HTTPAddr)
	if err != nil {
		return nil, fmt.Errorf("TMS_HTTP_ADDR %q: %w", cfg.HTTPAddr, err)
	}
	first, err := strconv.Atoi(port)
	if err != nil {
		return nil, fmt.Errorf("TMS_HTTP_ADDR %q: want a port number", cfg.HTTPAddr)
	}
	var out []replica
	for _, role := range splitServices {
		for i := range n {
			r := replica{role: role, n: i + 1, data: filepath.Join(data, "replicas", role+"-"+strconv.Itoa(i+1))}
			r.env = append(append([]string{}, shared...), "TMS_DATA_DIR="+r.data)
			if role == stack.Gateway {
				r.env = append(r.env, "TMS_HTTP_ADDR="+net.JoinHostPort(host, strconv.Itoa(first+i)))
			} else {
				// It listens on its own address; the others dial the list.
				r.env = append(r.env, "TMS_"+strings.ToUpper(role)+"_ADDR="+own[role][i])
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// supervise runs a replica until ctx ends, starting it again a second
// after it dies; started receives the outcome of the first start, after
// which a failed start is only reported and tried again.
func supervise(ctx context.Context, r replica, data string, stderr io.Writer, started chan<- error) {
	for first := true; ctx.Err() == nil; first = false {
		p, err := startReplica(ctx, r, data, stderr)
		if first {
			started <- err
			if err != nil {
				return
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "%-14s did not start: %v\n", r.name(), err)
		} else {
			select {
			case <-ctx.Done():
				stopAll([]*proc{p})
				return
			case <-p.output:
				_ = p.cmd.Wait()
				fmt.Fprintf(stderr, "%-14s exited (%v); starting it again\n", r.name(), p.cmd.ProcessState)
			}
		}
		select {
		case <-ctx.Done():
		case <-time.After(time.Second):
		}
	}
}

// startReplica starts the replica's process and waits until it holds its
// lock, then records its pid as DIR/run/<name>.pid.
func startReplica(ctx context.Context, r replica, data string, stderr io.Writer) (*proc, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(self, "serve", "--services="+r.role) //nolint:gosec // G204: this very binary
	cmd.Env = append(os.Environ(), r.env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGTERM}
	p, err := startPrefixed(cmd, r.name(), stderr)
	if err != nil {
		return nil, err
	}
	if err = waitStarted(ctx, p, r.data, r.role); err == nil {
		err = os.WriteFile(filepath.Join(data, "run", r.name()+".pid"), []byte(strconv.Itoa(cmd.Process.Pid)+"\n"), 0o600)
	}
	if err != nil {
		stopAll([]*proc{p})
		return nil, err
	}
	return p, nil
}
