// Package grpctest runs gRPC services in tests the way the stack does:
// the house server (interceptors, status mapping, recovery) on an
// in-process listener, reached through a real client connection.
package grpctest

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"

	"google.golang.org/grpc"

	"github.com/tmsproject/tms/pkg/grpcx"
)

// Serve starts a server with what register adds to it and returns a
// client connection to it; both stop when the test ends.
func Serve(t testing.TB, register func(grpc.ServiceRegistrar)) *grpc.ClientConn {
	t.Helper()
	conn, _ := ServeStoppable(t, register)
	return conn
}

// ServeStoppable is Serve with a stop that takes the server down before
// the test ends (a service that went away): calls through the
// connection then fail with Unavailable.
func ServeStoppable(t testing.TB, register func(grpc.ServiceRegistrar)) (*grpc.ClientConn, func()) {
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
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("serve: %v", err)
			}
		})
	}
	t.Cleanup(func() {
		if err := conn.Close(); err != nil {
			t.Errorf("close the client connection: %v", err)
		}
		stop()
	})
	return conn, stop
}
