// Package stacktest starts the whole stack for tests and hands out what a
// client needs: the REST API's address, gRPC connections to every service
// and the admin's token. A stack runs in the test's process (as `make run`
// does, or with every service listening on TCP) or as separate processes
// of the tms binary (as a split deployment does). The REST suite, the wlc
// tests, the benchmarks and the end-to-end tests start their stacks here;
// this package's own tests run one table of cases over REST and over gRPC
// against an in-process stack and a split one, so that a gRPC caller is
// shown to get what a REST caller gets.
package stacktest

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"testing"

	"google.golang.org/grpc"

	"github.com/tmsproject/tms/gateway/stack"
	"github.com/tmsproject/tms/pkg/grpcx"
)

// AdminToken is the API token of the admin of every stack started here.
const AdminToken = "wlu_stacktest0123456789abcdefghijklmnopq"

// ServiceToken is the service credential of stacks whose services listen
// on TCP.
const ServiceToken = "stacktest-service-credential-0123456789"

// Mode is how a stack runs.
type Mode int

const (
	// InProcess runs every service and the gateway in the test's process
	// on SQLite, the gateway calling the services through in-process
	// connections, as `make run` does.
	InProcess Mode = iota
	// Listening is InProcess with every service listening on TCP and the
	// gateway dialing them, as in a split deployment.
	Listening
	// Binary runs the tms binary as one process running everything, as
	// `make run` does.
	Binary
	// Split runs each service and the gateway as a process of its own.
	Split
)

// Options say how to start a stack; the zero value is an in-process
// stack on SQLite in a temporary directory.
type Options struct {
	Mode    Mode
	DataDir string // "": a temporary directory
	// Config adjusts the configuration of an in-process stack (InProcess
	// and Listening) before it starts.
	Config func(*stack.Config)
	// Log receives an in-process stack's log; nil discards it.
	Log *slog.Logger
	// SiteURL makes the stack's own REST address its site URL (written
	// into commit messages and files).
	SiteURL bool
	// Env is added to the environment of every process of a Binary or
	// Split stack.
	Env []string
	// DatabaseURL puts a Binary or Split stack's services on one
	// PostgreSQL database (a schema each); "": SQLite files.
	DatabaseURL string
	// Keep lets the stack outlive the test that starts it (a fixture
	// shared by benchmarks): the caller stops it with Stop.
	Keep bool
}

// Stack is a running stack.
type Stack struct {
	// API is the REST API's base URL, ending in /api/.
	API string
	// DataDir holds the stack's databases and working copies (a
	// subdirectory per service for a Split stack).
	DataDir string
	// Addrs are the services' gRPC addresses (none for InProcess and
	// Binary).
	Addrs map[string]string

	tb      testing.TB
	st      *stack.Stack
	handler http.Handler
	cancel  context.CancelFunc
	srv     *httptest.Server
	closed  bool
	split   *split
}

// Start starts a stack as opts say; it stops when the test ends, or at
// Close.
func Start(tb testing.TB, opts Options) *Stack {
	tb.Helper()
	if opts.DataDir == "" {
		opts.DataDir = tb.TempDir()
	}
	s := &Stack{tb: tb, DataDir: opts.DataDir}
	if opts.Mode == Split || opts.Mode == Binary {
		s.startProcesses(opts)
	} else {
		s.startInProcess(opts)
	}
	if !opts.Keep {
		tb.Cleanup(s.Close)
	}
	return s
}

// startInProcess starts the stack in this process. The HTTP server's
// address is known before the stack starts, so that the site URL is the
// one the test reaches.
func (s *Stack) startInProcess(opts Options) {
	s.srv = httptest.NewUnstartedServer(nil)
	cfg := stack.Config{DataDir: opts.DataDir, AllowLocalRepos: true, AdminToken: AdminToken,
		Services: []string{"all"}, Log: opts.Log}
	if cfg.Log == nil {
		cfg.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if opts.SiteURL {
		cfg.SiteURL = "http://" + s.srv.Listener.Addr().String()
	}
	if opts.Mode == Listening {
		s.Addrs = map[string]string{}
		for _, name := range stack.Backends {
			s.Addrs[name] = FreeAddr(s.tb)
		}
		cfg.Addrs, cfg.ServiceToken = s.Addrs, ServiceToken
	}
	if opts.Config != nil {
		opts.Config(&cfg)
	}
	ctx, cancel := context.WithCancel(context.Background())
	st, err := stack.Start(ctx, cfg)
	if err != nil {
		cancel()
		_ = s.srv.Listener.Close()
		s.tb.Fatal(err)
	}
	s.st, s.cancel, s.handler = st, cancel, st.Handler()
	s.srv.Config.Handler = s.handler
	s.srv.Start()
	s.API = s.srv.URL + "/api/"
}

// Handler is an in-process stack's REST handler, to call without a
// socket (nil for a stack of processes).
func (s *Stack) Handler() http.Handler { return s.handler }

// Conn is a gRPC connection to service name (stack.Catalog, ...) with the
// service credential: over TCP when the service listens, else the
// in-process connection the gateway uses (a Binary stack has none). A call acts for the caller in
// its context (policy.WithCaller), or as the service itself.
func (s *Stack) Conn(name string) grpc.ClientConnInterface {
	s.tb.Helper()
	if s.Addrs == nil {
		if s.st == nil {
			s.tb.Fatal("the services of a Binary stack do not listen on TCP")
		}
		return s.st.Conn(name)
	}
	conn, err := grpcx.Dial(s.Addrs[name], grpcx.WithServiceToken(ServiceToken), grpcx.WithServiceTokenStreams(ServiceToken))
	if err != nil {
		s.tb.Fatal(err)
	}
	s.tb.Cleanup(func() { _ = conn.Close() })
	return conn
}

// Process is a process of a Split stack (a service's or the gateway's
// name) or of a Binary one (All).
func (s *Stack) Process(name string) *exec.Cmd { return s.split.procs[name] }

// Close stops the stack and fails the test if that fails; benchmarks
// that start a stack per iteration call it at once instead of piling
// stacks up.
func (s *Stack) Close() {
	if err := s.Stop(); err != nil {
		s.tb.Errorf("close the stack: %v", err)
	}
}

// Stop stops the stack (again: nothing) and says what failed.
func (s *Stack) Stop() error {
	if s.closed {
		return nil
	}
	s.closed = true
	if s.split != nil {
		s.split.stop()
		return nil
	}
	s.srv.Close()
	s.cancel()
	return s.st.Close()
}
