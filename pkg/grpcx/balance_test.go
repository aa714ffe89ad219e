package grpcx_test

import (
	"context"
	"net"
	"sync/atomic"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/health"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"

	"github.com/tmsproject/tms/pkg/grpcx"
)

// TestDialBalancesOverReplicas: a name with two addresses (two replicas
// behind a headless Service) gets calls on both, not only on the first.
func TestDialBalancesOverReplicas(t *testing.T) {
	var counts [2]atomic.Int32
	addrs := make([]resolver.Address, 2)
	for i := range counts {
		lis, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		srv := grpc.NewServer(grpc.UnaryInterceptor(func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
			counts[i].Add(1)
			return h(ctx, req)
		}))
		healthpb.RegisterHealthServer(srv, health.NewServer())
		go func() { _ = srv.Serve(lis) }()
		t.Cleanup(srv.Stop)
		addrs[i] = resolver.Address{Addr: lis.Addr().String()}
	}
	r := manual.NewBuilderWithScheme("replicas")
	r.InitialState(resolver.State{Addresses: addrs})
	conn, err := grpcx.Dial("replicas:///translation", grpc.WithResolvers(r))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	client := healthpb.NewHealthClient(conn)
	for range 20 {
		if _, cerr := client.Check(t.Context(), &healthpb.HealthCheckRequest{}, grpc.WaitForReady(true)); cerr != nil {
			t.Fatal(cerr)
		}
	}
	if a, b := counts[0].Load(), counts[1].Load(); a == 0 || b == 0 || a+b != 20 {
		t.Errorf("calls per replica: %d and %d, want both used", a, b)
	}
	// A comma list of the same two addresses balances the same way.
	listed, err := grpcx.Dial(addrs[0].Addr + "," + addrs[1].Addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = listed.Close() })
	for range 20 {
		if _, cerr := healthpb.NewHealthClient(listed).Check(t.Context(), &healthpb.HealthCheckRequest{}, grpc.WaitForReady(true)); cerr != nil {
			t.Fatal(cerr)
		}
	}
	if a, b := counts[0].Load(), counts[1].Load(); a < 11 || b < 11 || a+b != 40 {
		t.Errorf("calls per listed replica: %d and %d in all, want both used again", a, b)
	}
}
