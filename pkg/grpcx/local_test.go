package grpcx

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	testpb "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/status"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
)

// probe is a test server whose UnaryCall reports what its handler saw,
// and fails, panics or waits when the request's response_size asks it to.
type probe struct {
	testpb.UnimplementedTestServiceServer
	mu   sync.Mutex
	seen seenCall
	kept *testpb.SimpleRequest
}

// What a probe's request asks of it (response_size).
const (
	answer int32 = iota
	fail
	panics
	waits
)

// seenCall is what one handler saw of its context.
type seenCall struct {
	caller      string
	hasCaller   bool
	leaked      bool // the client's context value reached the handler
	hasDeadline bool
}

type clientKey struct{}

func (p *probe) UnaryCall(ctx context.Context, req *testpb.SimpleRequest) (*testpb.SimpleResponse, error) {
	c, ok := policy.FromContext(ctx)
	_, dl := ctx.Deadline()
	p.mu.Lock()
	p.seen = seenCall{caller: c.Username, hasCaller: ok, leaked: ctx.Value(clientKey{}) != nil, hasDeadline: dl}
	p.kept = req
	p.mu.Unlock()
	switch req.GetResponseSize() {
	case fail:
		return nil, errs.NotFoundf("Not found.")
	case panics:
		panic("boom")
	case waits:
		<-ctx.Done()
		return nil, ctx.Err()
	}
	req.ResponseSize = 99
	return &testpb.SimpleResponse{Username: "answered"}, nil
}

// startProbe serves a probe on an in-memory listener and returns a
// connection over the wire and a Local one to the same handler, both
// sending clientToken, the server wanting serverToken.
func startProbe(t *testing.T, serverToken, clientToken string) (*probe, map[string]grpc.ClientConnInterface) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	cfg := ServerConfig{Log: slog.New(slog.NewTextHandler(io.Discard, nil)), Token: serverToken}
	p, pr := NewInProcess(), &probe{}
	s, _ := NewServerWith(cfg)
	testpb.RegisterTestServiceServer(s, pr)
	done := make(chan struct{})
	go func() { defer close(done); _ = Serve(ctx, s, p.Listener()) }()
	wire, err := p.Dial(WithServiceToken(clientToken))
	if err != nil {
		t.Fatal(err)
	}
	local := NewLocal(wire, cfg, ServiceToken(clientToken))
	testpb.RegisterTestServiceServer(local, pr)
	t.Cleanup(func() { _ = wire.Close(); cancel(); <-done })
	return pr, map[string]grpc.ClientConnInterface{"wire": wire, "local": local}
}

// TestLocalAsWire runs the same calls over the wire and through a Local
// connection: both give the handler the same context (the caller through
// metadata, none of the client's values, the deadline) and the client the
// same answer and status.
func TestLocalAsWire(t *testing.T) {
	pr, conns := startProbe(t, "secret", "secret")
	alice := policy.WithCaller(context.WithValue(context.Background(), clientKey{}, "x"), policy.Caller{Username: "alice"})
	cases := []struct {
		name string
		ctx  context.Context
		ask  int32
		code codes.Code
		seen seenCall
	}{
		{"caller", alice, answer, codes.OK, seenCall{caller: "alice", hasCaller: true}},
		{"service's own call", policy.System(alice), answer, codes.OK, seenCall{}},
		{"no caller", context.Background(), answer, codes.OK, seenCall{}},
		{"error", alice, fail, codes.NotFound, seenCall{caller: "alice", hasCaller: true}},
		{"panic", alice, panics, codes.Internal, seenCall{caller: "alice", hasCaller: true}},
	}
	for name, conn := range conns {
		for _, tc := range cases {
			t.Run(name+"/"+tc.name, func(t *testing.T) {
				ctx, cancel := context.WithTimeout(tc.ctx, 5*time.Second)
				defer cancel()
				req := &testpb.SimpleRequest{ResponseSize: tc.ask}
				resp, err := testpb.NewTestServiceClient(conn).UnaryCall(ctx, req)
				if got := status.Code(err); got != tc.code {
					t.Fatalf("code %v (%v), want %v", got, err, tc.code)
				}
				want := tc.seen
				want.hasDeadline = true
				pr.mu.Lock()
				seen, kept := pr.seen, pr.kept
				pr.mu.Unlock()
				if seen != want {
					t.Errorf("handler saw %+v, want %+v", seen, want)
				}
				if req.GetResponseSize() != tc.ask || kept == req {
					t.Errorf("the handler shares the client's request")
				}
				if tc.code == codes.OK && resp.GetUsername() != "answered" {
					t.Errorf("answer %v", resp)
				}
			})
		}
	}
}

// TestLocalRefusesWithoutToken: a Local call passes the server's
// interceptors, the service credential first.
func TestLocalRefusesWithoutToken(t *testing.T) {
	_, conns := startProbe(t, "secret", "wrong")
	for name, conn := range conns {
		_, err := testpb.NewTestServiceClient(conn).UnaryCall(context.Background(), &testpb.SimpleRequest{})
		if status.Code(err) != codes.Unauthenticated {
			t.Errorf("%s: %v, want Unauthenticated", name, err)
		}
	}
}

// TestLocalCancel: the handler's context ends with the caller's.
func TestLocalCancel(t *testing.T) {
	_, conns := startProbe(t, "", "")
	for name, conn := range conns {
		ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
		_, err := testpb.NewTestServiceClient(conn).UnaryCall(ctx, &testpb.SimpleRequest{ResponseSize: waits})
		cancel()
		if code := status.Code(err); code != codes.DeadlineExceeded {
			t.Errorf("%s: %v, want DeadlineExceeded", name, err)
		}
	}
}

// TestLocalTrace: a Local call goes on with the caller's trace, in a
// client and a server span named as otelgrpc names them.
func TestLocalTrace(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	prev := otel.GetTracerProvider()
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)))
	t.Cleanup(func() { otel.SetTracerProvider(prev) })
	_, conns := startProbe(t, "", "")
	ctx, parent := otel.Tracer("test").Start(context.Background(), "request")
	if _, err := testpb.NewTestServiceClient(conns["local"]).UnaryCall(ctx, &testpb.SimpleRequest{}); err != nil {
		t.Fatal(err)
	}
	parent.End()
	kinds := map[string]bool{}
	for _, s := range rec.Ended() {
		if s.Name() != "grpc.testing.TestService/UnaryCall" {
			continue
		}
		kinds[s.SpanKind().String()] = true
		if s.SpanContext().TraceID() != parent.SpanContext().TraceID() {
			t.Errorf("the %s span is in another trace", s.SpanKind())
		}
	}
	if !kinds["client"] || !kinds["server"] {
		t.Errorf("spans of the call: %v, want a client and a server one", kinds)
	}
}
