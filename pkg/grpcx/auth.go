package grpcx

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"strings"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"

	"github.com/tmsproject/tms/pkg/errs"
)

// serviceTokenKey is the metadata key of the deployment's service
// credential: every call between the gateway and the services carries it,
// so that only the deployment's own processes reach a service, and the
// caller they name in metadata (policy) can be believed.
const serviceTokenKey = "tms-service-token" //nolint:gosec // G101: the name of a metadata key, not a credential

// healthPrefix is the health service's methods, left open for probes.
const healthPrefix = "/grpc.health.v1.Health/"

// NewServiceToken returns a random credential (for a process that runs
// every service itself, or for run-split to hand to its children).
func NewServiceToken() string {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// WithServiceToken sends token with every call of a connection.
func WithServiceToken(token string) grpc.DialOption {
	return grpc.WithChainUnaryInterceptor(ServiceToken(token))
}

// ServiceToken is the interceptor of WithServiceToken (for a Local
// connection).
func ServiceToken(token string) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any,
		cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		return invoker(metadata.AppendToOutgoingContext(ctx, serviceTokenKey, token), method, req, reply, cc, opts...)
	}
}

// WithServiceTokenStreams is WithServiceToken for streaming calls.
func WithServiceTokenStreams(token string) grpc.DialOption {
	return grpc.WithChainStreamInterceptor(func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn,
		method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		return streamer(metadata.AppendToOutgoingContext(ctx, serviceTokenKey, token), desc, cc, method, opts...)
	})
}

// requireServiceToken refuses (Unauthenticated) every call but the health
// checks that does not carry token. An empty token admits every call: a
// server a test wires up by itself.
func requireServiceToken(token string) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		if err := checkServiceToken(ctx, token, info.FullMethod); err != nil {
			return nil, err
		}
		return h(ctx, req)
	}
}

// requireServiceTokenStream is requireServiceToken for streams (server
// reflection, health Watch).
func requireServiceTokenStream(token string) grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, info *grpc.StreamServerInfo, h grpc.StreamHandler) error {
		if err := checkServiceToken(ss.Context(), token, info.FullMethod); err != nil {
			return err
		}
		return h(srv, ss)
	}
}

func checkServiceToken(ctx context.Context, token, method string) error {
	if token == "" || strings.HasPrefix(method, healthPrefix) {
		return nil
	}
	md, _ := metadata.FromIncomingContext(ctx)
	got := md.Get(serviceTokenKey)
	if len(got) != 1 || subtle.ConstantTimeCompare([]byte(got[0]), []byte(token)) != 1 {
		return errs.ToStatus(errs.New(errs.Unauthenticated, "This service answers the deployment's own processes only: the call lacks a valid service credential."))
	}
	return nil
}
