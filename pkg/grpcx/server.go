package grpcx

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"runtime/debug"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/reflection"
	"google.golang.org/grpc/status"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/obs"
	"github.com/tmsproject/tms/pkg/policy"
)

// NewServer returns a gRPC server with the house interceptors: panics become
// Internal errors, every returned error is mapped once to a gRPC status by
// errs.ToStatus, and the caller sent by the client reaches the handler's
// context (policy). A health service is registered; register the service's own
// implementation on the returned server.
func NewServer(log *slog.Logger) *grpc.Server {
	s, _ := NewServerWithHealth(log, "")
	return s
}

// NewServerWithHealth is NewServer returning its health service too, for
// WatchHealth; calls without the service credential token are refused
// first of all (WithServiceToken; "" admits all).
func NewServerWithHealth(log *slog.Logger, token string) (*grpc.Server, *health.Server) {
	return NewServerWith(ServerConfig{Log: log, Token: token})
}

// ServerConfig configures NewServerWith.
type ServerConfig struct {
	Log *slog.Logger
	// Token is the service credential every call must carry; "" admits
	// all.
	Token string
	// CallTimeout bounds each unary call the server handles (LongMethods:
	// LongTimeout), whoever the caller; zero: the caller's deadline only.
	CallTimeout time.Duration
}

// NewServerWith is NewServerWithHealth with a bound on each call: the
// handler's context ends then, so a database query still running is
// interrupted and frees its connection, and the call fails with
// DeadlineExceeded.
func NewServerWith(cfg ServerConfig) (*grpc.Server, *health.Server) {
	s := grpc.NewServer(
		grpc.ChainUnaryInterceptor(serverUnary(cfg)...),
		grpc.ChainStreamInterceptor(requireServiceTokenStream(cfg.Token), obs.ServerStreamMetrics(), statusStream(cfg.Log),
			policy.StreamServerInterceptor()),
		obs.ServerTracing(),
		grpc.MaxRecvMsgSize(64<<20), grpc.MaxSendMsgSize(64<<20),
		// Clients ping every KeepaliveTime; a server refusing that
		// (default: once in 5 minutes) would close their connections.
		grpc.KeepaliveEnforcementPolicy(keepalive.EnforcementPolicy{MinTime: KeepaliveTime / 2, PermitWithoutStream: true}),
		// Connections end after a while (calls under way finish), so
		// that clients resolve the service's replicas again and spread
		// their calls over the ones started since.
		grpc.KeepaliveParams(keepalive.ServerParameters{MaxConnectionAge: MaxConnectionAge, MaxConnectionAgeGrace: LongTimeout}),
	)
	hs := health.NewServer()
	healthpb.RegisterHealthServer(s, hs)
	// Server reflection lets an internal caller explore the API with
	// grpcurl (with the service credential, like every other call).
	reflection.Register(s)
	return s, hs
}

// serverUnary is the house's unary server interceptors, outermost first:
// a server's and a Local connection's.
func serverUnary(cfg ServerConfig) []grpc.UnaryServerInterceptor {
	return []grpc.UnaryServerInterceptor{requireServiceToken(cfg.Token), obs.ServerRequestID(), obs.ServerMetrics(),
		recoverUnary(cfg.Log), callDeadline(cfg.CallTimeout), statusUnary(cfg.Log), policy.ServerInterceptor()}
}

// WatchHealth reports check's verdict as the health of the server (overall
// and of service) every interval until ctx ends: SERVING while check
// passes, NOT_SERVING while it fails (a database that does not answer).
func WatchHealth(ctx context.Context, hs *health.Server, service string, check func(context.Context) error, every time.Duration) {
	for {
		cctx, cancel := context.WithTimeout(ctx, every)
		status := healthpb.HealthCheckResponse_SERVING
		if err := check(cctx); err != nil {
			status = healthpb.HealthCheckResponse_NOT_SERVING
		}
		cancel()
		hs.SetServingStatus("", status)
		hs.SetServingStatus(service, status)
		select {
		case <-ctx.Done():
			return
		case <-time.After(every):
		}
	}
}

func statusUnary(log *slog.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		resp, err := h(ctx, req)
		if err != nil {
			err = ended(ctx, err)
			if errs.KindOf(err) == errs.Internal {
				log.ErrorContext(ctx, "request failed", "method", info.FullMethod, "err", err)
			}
			return nil, errs.ToStatus(err)
		}
		return resp, nil
	}
}

// statusStream is statusUnary of streaming calls: a handler's errs
// error reaches the client as its status, not as Unknown.
func statusStream(log *slog.Logger) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) error {
		err := h(srv, ss)
		if err == nil {
			return nil
		}
		err = ended(ss.Context(), err)
		if _, isStatus := status.FromError(err); !isStatus && errs.KindOf(err) == errs.Internal {
			log.ErrorContext(ss.Context(), "request failed", "method", info.FullMethod, "err", err)
		}
		return errs.ToStatus(err)
	}
}

// ended names the failure of a call whose context ended (its deadline, or
// the caller gone) for what it is, whatever error the database or a
// downstream call made of the interruption: DeadlineExceeded or Canceled,
// not Internal.
func ended(ctx context.Context, err error) error {
	if errs.KindOf(err) != errs.Internal {
		return err
	}
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded):
		return errs.Wrap(errs.DeadlineExceeded, err, "The request did not finish in time.")
	case ctx.Err() != nil || errors.Is(err, context.Canceled):
		return errs.Wrap(errs.Canceled, err, "The request was canceled.")
	}
	return err
}

func recoverUnary(log *slog.Logger) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (resp any, err error) {
		defer func() {
			if r := recover(); r != nil {
				log.ErrorContext(ctx, "panic", "method", info.FullMethod, "panic", r, "stack", string(debug.Stack()))
				err = errs.ToStatus(errs.New(errs.Internal, "panic"))
			}
		}()
		return h(ctx, req)
	}
}

// Serve runs s on lis until ctx ends, then stops gracefully within
// ShutdownGrace.
func Serve(ctx context.Context, s *grpc.Server, lis net.Listener) error {
	done := make(chan error, 1)
	go func() { done <- s.Serve(lis) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		stopped := make(chan struct{})
		go func() { s.GracefulStop(); close(stopped) }()
		select {
		case <-stopped:
		case <-time.After(ShutdownGrace):
			s.Stop() // calls still running after the grace are cut
		}
		return nil
	}
}

// ShutdownGrace bounds how long a stopping server waits for the calls it
// is answering.
const ShutdownGrace = 10 * time.Second
