package grpcx

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
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
	defer conn.Close()
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
	defer conn.Close()
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
