package obs

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// TestRequestIDFollowsTheCall: the id a client context carries reaches the
// server's context through metadata, and log lines written with it name it.
func TestRequestIDFollowsTheCall(t *testing.T) {
	ctx := WithRequestID(context.Background(), "abc123")
	var sent metadata.MD
	invoker := func(ctx context.Context, _ string, _, _ any, _ *grpc.ClientConn, _ ...grpc.CallOption) error {
		sent, _ = metadata.FromOutgoingContext(ctx)
		return nil
	}
	if err := ClientRequestID()(ctx, "/x.Y/Z", nil, nil, nil, invoker); err != nil {
		t.Fatal(err)
	}
	var got string
	handler := func(ctx context.Context, _ any) (any, error) { got = RequestID(ctx); return nil, nil }
	in := metadata.NewIncomingContext(context.Background(), sent)
	if _, err := ServerRequestID()(in, nil, &grpc.UnaryServerInfo{FullMethod: "/x.Y/Z"}, handler); err != nil {
		t.Fatal(err)
	}
	if got != "abc123" {
		t.Fatalf("server saw request id %q", got)
	}
	var buf bytes.Buffer
	log := slog.New(LogHandler(slog.NewJSONHandler(&buf, nil))).With("service", "catalog")
	log.WarnContext(WithRequestID(context.Background(), got), "slow")
	log.Warn("no request")
	lines := bytes.Split(bytes.TrimSpace(buf.Bytes()), []byte("\n"))
	var first, second map[string]any
	_ = json.Unmarshal(lines[0], &first)
	_ = json.Unmarshal(lines[1], &second)
	if first["request_id"] != "abc123" || first["service"] != "catalog" || second["request_id"] != nil {
		t.Errorf("log lines: %s", buf.String())
	}
}
