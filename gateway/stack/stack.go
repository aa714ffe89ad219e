package stack

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"

	"github.com/tmsproject/tms/gateway/rest"
	"github.com/tmsproject/tms/pkg/grpcx"
	"github.com/tmsproject/tms/pkg/netguard"
	"github.com/tmsproject/tms/pkg/obs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// service is what every backend package's *Service provides.
type service interface {
	Register(grpc.ServiceRegistrar)
	Run(ctx context.Context) error
	Close() error
	// Check tells whether the service can serve (its database answers).
	Check(ctx context.Context) error
}

// healthEvery is how often a backend's health is checked.
const healthEvery = 5 * time.Second

// Stack is a running process: some backends and maybe the gateway.
type Stack struct {
	cfg   Config
	token string // the service credential (Config.ServiceToken)
	// metricsAddr is where the metrics listener is bound.
	metricsAddr string
	backends    []backend
	// conns are the clients' connections to every backend: Local ones
	// to the backends this process runs, TCP to the others.
	conns    map[string]grpc.ClientConnInterface
	inproc   map[string]*grpcx.InProcess
	local    map[string]*grpcx.Local
	handler  http.Handler
	wg       sync.WaitGroup
	cleanups []func() error
	errs     chan error
}

// Start opens the databases, starts the backends this process runs and
// connects the clients of every backend. It returns once everything serves;
// background work stops when ctx ends (then call Close).
func Start(ctx context.Context, cfg Config) (*Stack, error) {
	if cfg.Log == nil {
		cfg.Log = slog.Default()
	}
	if err := cfg.absolute(); err != nil {
		return nil, err
	}
	anon, user, err := cfg.rates()
	if err != nil {
		return nil, err
	}
	if err = cfg.timeouts(); err != nil {
		return nil, err
	}
	if err = netguard.SetAllowList(cfg.EgressAllow); err != nil {
		return nil, fmt.Errorf("TMS_EGRESS_ALLOW: %w", err)
	}
	token, err := cfg.serviceToken()
	if err != nil {
		return nil, err
	}
	st := &Stack{cfg: cfg, token: token, conns: map[string]grpc.ClientConnInterface{}, inproc: map[string]*grpcx.InProcess{},
		local: map[string]*grpcx.Local{}, errs: make(chan error, 8)}
	locks, err := lockRoles(cfg.DataDir, cfg.roles())
	switch {
	case err == nil:
		st.cleanups = append(st.cleanups, locks.release)
	case errors.Is(err, errNoDataDir) && !cfg.needsDataDir():
		// A stateless process (its databases on PostgreSQL, no working
		// copies) needs no files: it runs without lock and pid files.
		cfg.Log.Info("no writable data directory; running without lock and pid files", "dir", cfg.DataDir)
	default:
		return nil, err
	}
	if err := st.observe(ctx); err != nil {
		return nil, errors.Join(err, st.Close())
	}
	if err := st.connect(cfg.BackendTimeout); err != nil {
		return nil, errors.Join(err, st.Close())
	}
	for _, name := range Backends {
		if !cfg.runs(name) {
			continue
		}
		if err := st.startBackend(ctx, name); err != nil {
			return nil, errors.Join(fmt.Errorf("start %s: %w", name, err), st.Close())
		}
	}
	if cfg.runs(Gateway) {
		st.handler = st.withProbes(rest.New(rest.Config{ //nolint:contextcheck // the handler serves each request with the request's context
			Catalog:        catalogv1.NewCatalogServiceClient(st.conns[Catalog]),
			Translation:    translationv1.NewTranslationServiceClient(st.conns[Translation]),
			Memory:         translationv1.NewMemoryServiceClient(st.conns[Translation]),
			Changelog:      changelogv1.NewChangelogServiceClient(st.conns[Changelog]),
			Notification:   notificationv1.NewNotificationServiceClient(st.conns[Notification]),
			Webhooks:       notificationv1.NewWebhookServiceClient(st.conns[Notification]),
			Access:         notificationv1.NewAccessServiceClient(st.conns[Notification]),
			RateLimits:     notificationv1.NewRateLimitServiceClient(st.conns[Notification]),
			RateAnon:       anon,
			RateUser:       user,
			TrustForwarded: cfg.TrustForwarded,
			Log:            cfg.Log.With("service", Gateway),
		}))
	}
	return st, nil
}

// connect creates one client connection per backend: in-memory for the ones
// this process runs in all-in-one mode, TCP for the others.
func (st *Stack) connect(deadline time.Duration) error {
	client := []grpc.UnaryClientInterceptor{grpcx.ServiceToken(st.token)}
	if deadline > 0 {
		client = append(client, grpcx.Deadlines(deadline))
	}
	opts := []grpc.DialOption{grpc.WithChainUnaryInterceptor(client...), grpcx.WithServiceTokenStreams(st.token)}
	for _, name := range Backends {
		addr := st.cfg.Addrs[name]
		var (
			conn *grpc.ClientConn
			err  error
		)
		switch {
		case st.cfg.runs(name) && addr == "":
			p := grpcx.NewInProcess()
			st.inproc[name] = p
			if conn, err = p.Dial(opts...); err == nil {
				st.local[name] = grpcx.NewLocal(conn, st.serverConfig(name), client...)
			}
		case addr != "":
			conn, err = grpcx.Dial(addr, opts...)
		default:
			return fmt.Errorf("service %s is neither run here nor given an address (TMS_%s_ADDR)", name, strings.ToUpper(name))
		}
		if err != nil {
			return fmt.Errorf("connect %s: %w", name, err)
		}
		st.conns[name] = conn
		if l := st.local[name]; l != nil {
			st.conns[name] = l
		}
		st.cleanups = append(st.cleanups, conn.Close)
	}
	return nil
}

func (st *Stack) startBackend(ctx context.Context, name string) error {
	// The services label their own log lines; the server's are labelled here.
	svc, err := st.newService(ctx, name, st.cfg.Log)
	if err != nil {
		return err
	}
	st.cleanups = append(st.cleanups, svc.Close)
	srv, hs := grpcx.NewServerWith(st.serverConfig(name)) //nolint:contextcheck // the server handles each call with the call's context
	svc.Register(srv)
	if l := st.local[name]; l != nil {
		svc.Register(l)
	}
	obs.InitServerMetrics(srv)
	var lis net.Listener
	if p := st.inproc[name]; p != nil {
		lis = p.Listener()
	} else if lis, err = net.Listen("tcp", st.cfg.Addrs[name]); err != nil {
		return err
	}
	// A backend lives until Close stops it (after the gateway has drained),
	// not until the start context ends.
	life, cancel := context.WithCancel(context.WithoutCancel(ctx))
	served := make(chan struct{})
	st.backends = append(st.backends, backend{name: name, health: hs, stop: cancel, served: served})
	st.goRun(func() error { grpcx.WatchHealth(life, hs, name, svc.Check, healthEvery); return nil })
	st.goRun(func() error { defer close(served); return grpcx.Serve(life, srv, lis) })
	st.goRun(func() error { return svc.Run(life) })
	return nil
}

// serverConfig is the gRPC server of backend name, and of the Local
// connection to it.
func (st *Stack) serverConfig(name string) grpcx.ServerConfig {
	return grpcx.ServerConfig{Log: st.cfg.Log.With("service", name), Token: st.token, CallTimeout: st.cfg.QueryTimeout}
}

// backend is a running service, for Close to stop.
type backend struct {
	name   string
	health *health.Server
	stop   context.CancelFunc
	served chan struct{} // closed when its server has stopped
}

// stopBackends stops the services in reverse start order: each reports
// NOT_SERVING first (load balancers and callers move away), then drains
// its calls for at most grpcx.ShutdownGrace, then its loops end.
func (st *Stack) stopBackends() {
	for i := len(st.backends) - 1; i >= 0; i-- {
		b := st.backends[i]
		b.health.Shutdown()
		b.stop()
		<-b.served
	}
	st.backends = nil
}

func (st *Stack) goRun(f func() error) {
	st.wg.Add(1)
	go func() {
		defer st.wg.Done()
		if err := f(); err != nil && !errors.Is(err, context.Canceled) {
			st.errs <- err
		}
	}()
}

// Handler is the REST gateway, nil when this process does not run it.
func (st *Stack) Handler() http.Handler { return st.handler }

// Conn is the connection this process's clients use to reach backend
// name: the in-process one for a backend it runs, TCP for the others.
// Calls carry the service credential and act for the caller in their
// context.
func (st *Stack) Conn(name string) grpc.ClientConnInterface { return st.conns[name] }

// Err reports the first failure of a background loop.
func (st *Stack) Err() <-chan error { return st.errs }

// Close stops the services in reverse start order, waits for the
// background loops (end ctx first) and releases everything in reverse
// order of acquisition.
func (st *Stack) Close() error {
	st.stopBackends()
	st.wg.Wait()
	var errs []error
	for i := len(st.cleanups) - 1; i >= 0; i-- {
		errs = append(errs, st.cleanups[i]())
	}
	return errors.Join(errs...)
}
