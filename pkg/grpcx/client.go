package grpcx

import (
	"context"
	"net"

	"github.com/tmsproject/tms/pkg/obs"
	"github.com/tmsproject/tms/pkg/policy"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/test/bufconn"
)

// Dial connects to a service at a TCP address (split deployment).
func Dial(addr string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	return grpc.NewClient(addr, append([]grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(64<<20), grpc.MaxCallSendMsgSize(64<<20)),
		grpc.WithChainUnaryInterceptor(obs.ClientMetrics(), obs.ClientRequestID(), policy.ClientInterceptor()),
		grpc.WithChainStreamInterceptor(obs.StreamClientRequestID(), policy.StreamClientInterceptor()),
		obs.ClientTracing(),
	}, opts...)...)
}

// InProcess is an in-memory listener: servers and clients in one process talk
// real gRPC (same codecs, interceptors and status mapping) without sockets.
type InProcess struct {
	lis *bufconn.Listener
}

// NewInProcess returns a listener with a 1 MiB buffer.
func NewInProcess() *InProcess { return &InProcess{lis: bufconn.Listen(1 << 20)} }

// Listener is what the server serves on.
func (p *InProcess) Listener() net.Listener { return p.lis }

// Dial connects a client to the in-memory listener.
func (p *InProcess) Dial(opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	return grpc.NewClient("passthrough:///inprocess", append([]grpc.DialOption{
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return p.lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(64<<20), grpc.MaxCallSendMsgSize(64<<20)),
		grpc.WithChainUnaryInterceptor(obs.ClientMetrics(), obs.ClientRequestID(), policy.ClientInterceptor()),
		grpc.WithChainStreamInterceptor(obs.StreamClientRequestID(), policy.StreamClientInterceptor()),
		obs.ClientTracing(),
	}, opts...)...)
}
