package obs

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"log/slog"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

type requestIDKey struct{}

// requestIDHeader is the HTTP header and gRPC metadata key of the id.
const requestIDHeader = "x-request-id"

// RequestIDHeader is the HTTP header the gateway answers the id in.
const RequestIDHeader = "X-Request-Id"

// NewRequestID returns a random id.
func NewRequestID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// WithRequestID returns ctx carrying id.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey{}, id)
}

// RequestID is the id of ctx, "" when none.
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// ClientRequestID forwards the id of the context to the called service.
func ClientRequestID() grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		if id := RequestID(ctx); id != "" {
			ctx = metadata.AppendToOutgoingContext(ctx, requestIDHeader, id)
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

// StreamClientRequestID is ClientRequestID for streams.
func StreamClientRequestID() grpc.StreamClientInterceptor {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		if id := RequestID(ctx); id != "" {
			ctx = metadata.AppendToOutgoingContext(ctx, requestIDHeader, id)
		}
		return streamer(ctx, desc, cc, method, opts...)
	}
}

// ServerRequestID puts the id the caller sent into the handler's context.
func ServerRequestID() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		if md, ok := metadata.FromIncomingContext(ctx); ok {
			if v := md.Get(requestIDHeader); len(v) == 1 && len(v[0]) <= 64 {
				ctx = WithRequestID(ctx, v[0])
			}
		}
		return h(ctx, req)
	}
}

// LogHandler adds the request id of the record's context to every log
// line written with a context (slog's *Context methods).
func LogHandler(h slog.Handler) slog.Handler { return requestIDHandler{h} }

type requestIDHandler struct{ slog.Handler }

func (h requestIDHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestID(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

func (h requestIDHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return requestIDHandler{h.Handler.WithAttrs(as)}
}

func (h requestIDHandler) WithGroup(name string) slog.Handler {
	return requestIDHandler{h.Handler.WithGroup(name)}
}
