package grpcx

import (
	"context"
	"fmt"
	"strings"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	otelcodes "go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"
)

// Local is a client connection to services served in this process that
// skips the wire for unary calls: the handler is called directly, through
// the same client and server interceptor chains a call over the network
// passes (service credential, caller, request id, metrics, deadlines,
// panic recovery, status mapping). Only the encoding, HTTP/2 framing and
// the hand-over between goroutines are left out; a profile of a units
// page put them at a quarter of its cost.
//
// The request and the answer are copied (proto.Merge), so caller and
// handler never share a message, as over the wire. The handler's context
// has the caller's deadline and cancellation and none of its values:
// what it knows of the caller comes through metadata, as over the wire,
// and the trace goes on in a client and a server span named as otelgrpc
// names them.
// Streaming calls, and methods of services not registered here (health,
// reflection), go over wire, a real connection to the same servers.
type Local struct {
	wire    *grpc.ClientConn
	client  []grpc.UnaryClientInterceptor
	server  []grpc.UnaryServerInterceptor
	methods map[string]localMethod
}

// localMethod is a registered unary method and the server implementing it.
type localMethod struct {
	impl    any
	handler grpc.MethodHandler
}

// NewLocal returns a connection whose unary calls run the handlers
// registered on it (RegisterService) under the interceptors of a server
// made with cfg, after the house's client interceptors and then client,
// as a connection Dial made with them as options runs them. wire carries
// everything else.
func NewLocal(wire *grpc.ClientConn, cfg ServerConfig, client ...grpc.UnaryClientInterceptor) *Local {
	return &Local{wire: wire, client: append(clientUnary(), client...), server: serverUnary(cfg),
		methods: map[string]localMethod{}}
}

// RegisterService makes the unary methods of desc, implemented by impl,
// local (grpc.ServiceRegistrar).
func (l *Local) RegisterService(desc *grpc.ServiceDesc, impl any) {
	for _, m := range desc.Methods {
		l.methods[fmt.Sprintf("/%s/%s", desc.ServiceName, m.MethodName)] = localMethod{impl: impl, handler: m.Handler}
	}
}

// Invoke runs a unary call: the client interceptors, then the server's
// and the handler in this goroutine.
func (l *Local) Invoke(ctx context.Context, method string, args, reply any, opts ...grpc.CallOption) error {
	m, ok := l.methods[method]
	if !ok {
		return l.wire.Invoke(ctx, method, args, reply, opts...)
	}
	ctx, span := startSpan(ctx, method, trace.SpanKindClient)
	err := chainClient(l.client, l.wire, func(ctx context.Context, _ string, args, reply any, _ *grpc.ClientConn, _ ...grpc.CallOption) error {
		return l.serve(ctx, m, method, args, reply)
	})(ctx, method, args, reply, l.wire, opts...)
	endSpan(span, err)
	return err
}

// startSpan starts the span of one side of a call, named and typed as
// otelgrpc names the spans of a call over the wire, so that a trace reads
// the same in one process and across several.
func startSpan(ctx context.Context, method string, kind trace.SpanKind) (context.Context, trace.Span) {
	name := strings.TrimPrefix(method, "/")
	ctx, span := otel.Tracer(tracerName).Start(ctx, name, trace.WithSpanKind(kind))
	if span.IsRecording() { // without a tracer (the default), no attributes are built
		service, rpcMethod, _ := strings.Cut(name, "/")
		span.SetAttributes(attribute.String("rpc.system", "grpc"), attribute.String("rpc.service", service),
			attribute.String("rpc.method", rpcMethod))
	}
	return ctx, span
}

// endSpan records the call's status code and ends span.
func endSpan(span trace.Span, err error) {
	if !span.IsRecording() {
		return
	}
	span.SetAttributes(attribute.Int64("rpc.grpc.status_code", int64(status.Code(err))))
	if err != nil {
		span.SetStatus(otelcodes.Error, err.Error())
	}
	span.End()
}

// tracerName names the tracer of Local's spans.
const tracerName = "github.com/tmsproject/tms/pkg/grpcx"

// serve hands the call to the handler as a server would: the outgoing
// metadata become the incoming ones of a context without the caller's
// values.
func (l *Local) serve(ctx context.Context, m localMethod, method string, args, reply any) (err error) {
	md, _ := metadata.FromOutgoingContext(ctx)
	// The trace goes on, as the trace context in metadata carries it over
	// the wire.
	sctx := trace.ContextWithRemoteSpanContext(detached{ctx}, trace.SpanContextFromContext(ctx))
	sctx, span := startSpan(metadata.NewIncomingContext(sctx, md), method, trace.SpanKindServer)
	defer func() { endSpan(span, err) }()
	dec := func(in any) error {
		proto.Merge(in.(proto.Message), args.(proto.Message))
		return nil
	}
	resp, err := m.handler(m.impl, sctx, dec, func( //nolint:contextcheck // the handler's context is the caller's without its values, as a server's is
		ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		return chainServer(l.server, info, h)(ctx, req)
	})
	if err != nil {
		return err
	}
	proto.Merge(reply.(proto.Message), resp.(proto.Message))
	return nil
}

// NewStream opens a streaming call over the wire.
func (l *Local) NewStream(ctx context.Context, desc *grpc.StreamDesc, method string, opts ...grpc.CallOption) (grpc.ClientStream, error) {
	return l.wire.NewStream(ctx, desc, method, opts...)
}

// chainClient is the invoker that runs ics in order, outermost first,
// and then final.
func chainClient(ics []grpc.UnaryClientInterceptor, cc *grpc.ClientConn, final grpc.UnaryInvoker) grpc.UnaryInvoker {
	for i := len(ics) - 1; i >= 0; i-- {
		ic, next := ics[i], final
		final = func(ctx context.Context, method string, req, reply any, _ *grpc.ClientConn, opts ...grpc.CallOption) error {
			return ic(ctx, method, req, reply, cc, next, opts...)
		}
	}
	return final
}

// chainServer is the handler that runs ics in order, outermost first,
// and then h.
func chainServer(ics []grpc.UnaryServerInterceptor, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) grpc.UnaryHandler {
	for i := len(ics) - 1; i >= 0; i-- {
		ic, next := ics[i], h
		h = func(ctx context.Context, req any) (any, error) { return ic(ctx, req, info, next) }
	}
	return h
}

// detached is a caller's context as a handler sees it over the wire: its
// deadline and cancellation, none of its values.
type detached struct{ parent context.Context }

func (d detached) Deadline() (time.Time, bool) { return d.parent.Deadline() }
func (d detached) Done() <-chan struct{}       { return d.parent.Done() }
func (d detached) Err() error                  { return d.parent.Err() }
func (d detached) Value(any) any               { return nil }

// AfterFunc lets contexts derived from d follow its cancellation without
// a goroutine of their own (the context package looks for it).
func (d detached) AfterFunc(f func()) func() bool { return context.AfterFunc(d.parent, f) }
