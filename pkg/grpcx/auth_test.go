package grpcx

import (
	"io"
	"log/slog"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"

	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

// TestServiceToken: a server with a credential refuses calls without it
// or with another one before any handler runs, and answers health checks
// to anyone (probes).
func TestServiceToken(t *testing.T) {
	srv, _ := NewServerWithHealth(slog.New(slog.NewTextHandler(io.Discard, nil)), "secret")
	catalogv1.RegisterCatalogServiceServer(srv, catalogv1.UnimplementedCatalogServiceServer{})
	p := NewInProcess()
	go func() { _ = srv.Serve(p.Listener()) }()
	t.Cleanup(srv.Stop)
	cases := []struct {
		name string
		opts []grpc.DialOption
		want codes.Code // of a catalog call; Unimplemented: it reached the handler
	}{
		{"no credential", nil, codes.Unauthenticated},
		{"wrong credential", []grpc.DialOption{WithServiceToken("guess")}, codes.Unauthenticated},
		{"credential", []grpc.DialOption{WithServiceToken("secret")}, codes.Unimplemented},
	}
	for _, c := range cases {
		conn, err := p.Dial(c.opts...)
		if err != nil {
			t.Fatal(err)
		}
		_, err = catalogv1.NewCatalogServiceClient(conn).ListProjects(t.Context(), &catalogv1.ListProjectsRequest{})
		if got := status.Code(err); got != c.want {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
		if _, err := healthpb.NewHealthClient(conn).Check(t.Context(), &healthpb.HealthCheckRequest{}); err != nil {
			t.Errorf("%s: health check refused: %v", c.name, err)
		}
		_ = conn.Close()
	}
}
