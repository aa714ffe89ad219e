package grpcx

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

func TestInProcessHealth(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	p := NewInProcess()
	s := NewServer(slog.New(slog.NewTextHandler(io.Discard, nil)))
	go func() { _ = Serve(ctx, s, p.Listener()) }()
	conn, err := p.Dial()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	resp, err := healthpb.NewHealthClient(conn).Check(ctx, &healthpb.HealthCheckRequest{})
	if err != nil || resp.GetStatus() != healthpb.HealthCheckResponse_SERVING {
		t.Fatalf("health: %v %v", resp, err)
	}
}

// TestWatchHealth reports what the check says: NOT_SERVING while the
// database does not answer, SERVING again once it does.
func TestWatchHealth(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	p := NewInProcess()
	s, hs := NewServerWithHealth(slog.New(slog.NewTextHandler(io.Discard, nil)), "")
	go func() { _ = Serve(ctx, s, p.Listener()) }()
	var down atomic.Bool
	down.Store(true)
	check := func(context.Context) error {
		if down.Load() {
			return errors.New("database does not answer")
		}
		return nil
	}
	go WatchHealth(ctx, hs, "catalog", check, 20*time.Millisecond)
	conn, err := p.Dial()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	client := healthpb.NewHealthClient(conn)
	expect := func(service string, want healthpb.HealthCheckResponse_ServingStatus) {
		t.Helper()
		for end := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
			resp, err := client.Check(ctx, &healthpb.HealthCheckRequest{Service: service})
			if err == nil && resp.GetStatus() == want {
				return
			}
			if time.Now().After(end) {
				t.Fatalf("health of %q: %v %v, want %v", service, resp, err, want)
			}
		}
	}
	expect("", healthpb.HealthCheckResponse_NOT_SERVING)
	expect("catalog", healthpb.HealthCheckResponse_NOT_SERVING)
	down.Store(false)
	expect("", healthpb.HealthCheckResponse_SERVING)
	expect("catalog", healthpb.HealthCheckResponse_SERVING)
}

// TestDeadlines gives calls without one the short deadline, repository
// work the long one, and keeps an earlier deadline of the caller.
func TestDeadlines(t *testing.T) {
	interceptor := Deadlines(2 * time.Second)
	remaining := func(ctx context.Context, method string) time.Duration {
		var got time.Duration
		_ = interceptor(ctx, method, nil, nil, nil, func(ctx context.Context, _ string, _, _ any, _ *grpc.ClientConn, _ ...grpc.CallOption) error {
			dl, ok := ctx.Deadline()
			if !ok {
				t.Fatalf("%s: no deadline", method)
			}
			got = time.Until(dl)
			return nil
		})
		return got
	}
	if d := remaining(t.Context(), "/tms.catalog.v1.CatalogService/GetProject"); d > 2*time.Second || d < time.Second {
		t.Errorf("short call: %v", d)
	}
	if d := remaining(t.Context(), "/tms.translation.v1.TranslationService/UploadFile"); d < 9*time.Minute {
		t.Errorf("long call: %v", d)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	if d := remaining(ctx, "/tms.catalog.v1.CatalogService/GetProject"); d > 100*time.Millisecond {
		t.Errorf("the caller's earlier deadline was lengthened: %v", d)
	}
}

// TestCallDeadline bounds what a server handles whoever calls: a short
// call by the server's bound, repository work by LongTimeout, and an
// earlier deadline of the caller stays.
func TestCallDeadline(t *testing.T) {
	bound := callDeadline(2 * time.Second)
	remaining := func(ctx context.Context, method string) time.Duration {
		var got time.Duration
		_, _ = bound(ctx, nil, &grpc.UnaryServerInfo{FullMethod: method}, func(ctx context.Context, _ any) (any, error) {
			dl, ok := ctx.Deadline()
			if !ok {
				t.Fatalf("%s: no deadline", method)
			}
			got = time.Until(dl)
			return nil, nil
		})
		return got
	}
	tests := []struct {
		name, method string
		callerBound  time.Duration // 0: the caller sets none
		atLeast      time.Duration
		atMost       time.Duration
	}{
		{"short call", "/tms.translation.v1.TranslationService/ListUnits", 0, time.Second, 2 * time.Second},
		{"repository work", "/tms.translation.v1.TranslationService/UploadFile", 0, 9 * time.Minute, LongTimeout},
		{"caller sooner", "/tms.translation.v1.TranslationService/ListUnits", 100 * time.Millisecond, 0, 100 * time.Millisecond},
		{"caller later", "/tms.translation.v1.TranslationService/ListUnits", time.Hour, time.Second, 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx := t.Context()
			if tt.callerBound > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.callerBound)
				defer cancel()
			}
			d := remaining(ctx, tt.method)
			if d < tt.atLeast {
				t.Errorf("remaining %v, want at least %v", d, tt.atLeast)
			}
			if d > tt.atMost {
				t.Errorf("remaining %v, want at most %v", d, tt.atMost)
			}
		})
	}
}

// TestEndedCallStatus: a handler whose context ended fails with
// DeadlineExceeded or Canceled, whatever opaque error the database made of
// the interruption, and is not logged as an internal error; a plain
// failure stays Internal and is logged.
func TestEndedCallStatus(t *testing.T) {
	var logged bytes.Buffer
	chain := func(ctx context.Context, h grpc.UnaryHandler) error {
		status := statusUnary(slog.New(slog.NewTextHandler(&logged, nil)))
		_, err := callDeadline(50*time.Millisecond)(ctx, nil, &grpc.UnaryServerInfo{FullMethod: "/x.v1.S/M"},
			func(ctx context.Context, req any) (any, error) {
				return status(ctx, req, &grpc.UnaryServerInfo{FullMethod: "/x.v1.S/M"}, h)
			})
		return err
	}
	interrupted := func(ctx context.Context, _ any) (any, error) {
		<-ctx.Done()
		return nil, errors.New("interrupted (9)") // what SQLite says
	}
	canceled, cancel := context.WithCancel(t.Context())
	cancel() // the caller left before the work ended
	tests := []struct {
		name string
		ctx  context.Context
		h    grpc.UnaryHandler
		want codes.Code
		logs bool
	}{
		{"past the bound", t.Context(), interrupted, codes.DeadlineExceeded, false},
		{"caller gone", canceled, interrupted, codes.Canceled, false},
		{"plain failure", t.Context(), func(context.Context, any) (any, error) { return nil, errors.New("disk full") }, codes.Internal, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logged.Reset()
			err := chain(tt.ctx, tt.h)
			if got := status.Code(err); got != tt.want {
				t.Errorf("code %v, want %v (%v)", got, tt.want, err)
			}
			if got := logged.Len() > 0; got != tt.logs {
				t.Errorf("logged %v, want %v: %s", got, tt.logs, logged.String())
			}
		})
	}
}
