package grpcx

import (
	"context"
	"io"
	"log/slog"
	"testing"

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
