// Package grpctest runs gRPC services in tests the way the stack does:
// the house server (interceptors, status mapping, recovery) on an
// in-process listener, reached through a real client connection.
package grpctest

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"google.golang.org/grpc"

	"github.com/tmsproject/tms/pkg/grpcx"
)

// Serve starts a server with what register adds to it and returns a
// client connection to it; both stop when the test ends.
func Serve(t testing.TB, register func(grpc.ServiceRegistrar)) *grpc.ClientConn {
	t.Helper()
	srv := grpcx.NewServer(slog.New(slog.NewTextHandler(io.Discard, nil)))
	register(srv)
	lis := grpcx.NewInProcess()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- grpcx.Serve(ctx, srv, lis.Listener()) }()
	conn, err := lis.Dial()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := conn.Close(); err != nil {
			t.Errorf("close the client connection: %v", err)
		}
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return conn
}
