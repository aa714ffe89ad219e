package grpcx

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

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
	s, hs := NewServerWithHealth(slog.New(slog.NewTextHandler(io.Discard, nil)))
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
