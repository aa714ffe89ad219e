package grpcx

import (
	"context"
	"net"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/keepalive"
	"google.golang.org/grpc/resolver"
	"google.golang.org/grpc/resolver/manual"
	"google.golang.org/grpc/test/bufconn"

	"github.com/tmsproject/tms/pkg/obs"
	"github.com/tmsproject/tms/pkg/policy"
)

// KeepaliveTime is how often a client pings an idle connection, so that
// a replica that vanished (its pod killed, its node lost) is noticed in
// seconds instead of at the next call's deadline.
const KeepaliveTime = 20 * time.Second

// MaxConnectionAge is how long a server keeps a client's connection
// before asking it to reconnect (and so to resolve the replicas again).
const MaxConnectionAge = 5 * time.Minute

// roundRobin spreads a client's calls over every address its name
// resolves to: every replica of a service behind a headless Service
// (dns:///name:port), instead of the first address only.
const roundRobin = `{"loadBalancingConfig": [{"round_robin": {}}]}`

// Dial connects to a service at a TCP address (split deployment). A host
// name is resolved through DNS (the dns:/// scheme is the default) and
// calls are balanced over every address it has. A comma list of addresses
// (replicas on one machine, `tms run-scale`) is balanced over likewise.
func Dial(addr string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	if strings.Contains(addr, ",") {
		var list []resolver.Address
		for _, a := range strings.Split(addr, ",") {
			if a = strings.TrimSpace(a); a != "" {
				list = append(list, resolver.Address{Addr: a})
			}
		}
		r := manual.NewBuilderWithScheme("tms-list")
		r.InitialState(resolver.State{Addresses: list})
		addr, opts = "tms-list:///replicas", append(opts, grpc.WithResolvers(r))
	}
	return grpc.NewClient(addr, append([]grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(roundRobin),
		// A replica that comes back (a restarted process at the same
		// address) is connected to again within a second: with every
		// address of a name failing, round_robin fails calls at once
		// until one reconnects.
		grpc.WithConnectParams(grpc.ConnectParams{MinConnectTimeout: 5 * time.Second,
			Backoff: backoff.Config{BaseDelay: 100 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: time.Second}}),
		grpc.WithKeepaliveParams(keepalive.ClientParameters{Time: KeepaliveTime, Timeout: 10 * time.Second, PermitWithoutStream: true}),
		grpc.WithDefaultCallOptions(grpc.MaxCallRecvMsgSize(64<<20), grpc.MaxCallSendMsgSize(64<<20)),
		grpc.WithChainUnaryInterceptor(clientUnary()...),
		grpc.WithChainStreamInterceptor(obs.ClientStreamMetrics(), obs.StreamClientRequestID(), policy.StreamClientInterceptor()),
		obs.ClientTracing(),
	}, opts...)...)
}

// clientUnary is the house's unary client interceptors, outermost first:
// a connection's and a Local connection's.
func clientUnary() []grpc.UnaryClientInterceptor {
	return []grpc.UnaryClientInterceptor{obs.ClientMetrics(), obs.ClientRequestID(), policy.ClientInterceptor()}
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
		grpc.WithChainUnaryInterceptor(clientUnary()...),
		grpc.WithChainStreamInterceptor(obs.ClientStreamMetrics(), obs.StreamClientRequestID(), policy.StreamClientInterceptor()),
		obs.ClientTracing(),
	}, opts...)...)
}
