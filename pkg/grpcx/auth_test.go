package grpcx

import (
	"io"
	"log/slog"
	"slices"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/metadata"
	reflectionpb "google.golang.org/grpc/reflection/grpc_reflection_v1"
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
	t.Run("reflection", func(t *testing.T) { checkReflection(t, p) })
}

// checkReflection: server reflection lists the services to a caller with
// the credential (grpcurl -H), and is a stream refused like any call
// without it.
func checkReflection(t *testing.T, p *InProcess) {
	conn, err := p.Dial()
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = conn.Close() }()
	for _, c := range []struct {
		token string
		want  codes.Code
	}{{"", codes.Unauthenticated}, {"secret", codes.OK}} {
		ctx := t.Context()
		if c.token != "" {
			ctx = metadata.AppendToOutgoingContext(ctx, serviceTokenKey, c.token)
		}
		stream, err := reflectionpb.NewServerReflectionClient(conn).ServerReflectionInfo(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// A refused stream may close before the request is sent (io.EOF):
		// its status comes with Recv either way.
		_ = stream.Send(&reflectionpb.ServerReflectionRequest{MessageRequest: &reflectionpb.ServerReflectionRequest_ListServices{}})
		resp, err := stream.Recv()
		if got := status.Code(err); got != c.want {
			t.Errorf("token %q: %v, want %v", c.token, err, c.want)
			continue
		}
		if c.want == codes.OK {
			var names []string
			for _, s := range resp.GetListServicesResponse().GetService() {
				names = append(names, s.GetName())
			}
			if !slices.Contains(names, "tms.catalog.v1.CatalogService") {
				t.Errorf("services listed: %v", names)
			}
		}
	}
}
