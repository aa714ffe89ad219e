package policy

import (
	"context"
	"encoding/json"
	"strconv"
	"sync"

	"google.golang.org/grpc"
	"google.golang.org/grpc/metadata"
)

// Caller is the person a request acts for.
type Caller struct {
	// Username is empty for the anonymous caller.
	Username  string
	Superuser bool
	// Grants are what the caller's teams give it (AccessService.GetGrants).
	Grants []Grant
}

// Anonymous is the caller without an account as the built-in teams
// first define it (the gateway reads the current teams).
var Anonymous = Caller{Grants: DefaultGrants(true)}

// NewAccount is a caller with a new account's grants.
func NewAccount(username string) Caller {
	return Caller{Username: username, Grants: DefaultGrants(false)}
}

type ctxKey struct{}

// WithCaller returns ctx acting for c.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, ctxKey{}, c)
}

// FromContext returns the caller of ctx; ok is false for the service's own
// work, which no visibility rule restricts.
func FromContext(ctx context.Context) (c Caller, ok bool) {
	c, ok = ctx.Value(ctxKey{}).(Caller)
	return c, ok
}

// Metadata keys of the caller.
const (
	mdCaller    = "tms-caller"
	mdSuperuser = "tms-caller-superuser"
	mdGrants    = "tms-caller-grants"
)

// ClientInterceptor forwards the caller of the context, if any, to the
// called service.
func ClientInterceptor() grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		return invoker(outgoing(ctx), method, req, reply, cc, opts...)
	}
}

// StreamClientInterceptor is ClientInterceptor for streams.
func StreamClientInterceptor() grpc.StreamClientInterceptor {
	return func(ctx context.Context, desc *grpc.StreamDesc, cc *grpc.ClientConn, method string, streamer grpc.Streamer, opts ...grpc.CallOption) (grpc.ClientStream, error) {
		return streamer(outgoing(ctx), desc, cc, method, opts...)
	}
}

func outgoing(ctx context.Context) context.Context {
	if c, ok := FromContext(ctx); ok {
		grants, _ := json.Marshal(c.Grants)
		ctx = metadata.AppendToOutgoingContext(ctx, mdCaller, "user:"+c.Username,
			mdSuperuser, strconv.FormatBool(c.Superuser), mdGrants, string(grants))
	}
	return ctx
}

// ServerInterceptor puts the caller sent by the client into the context of
// the handler.
func ServerInterceptor() grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, _ *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		return h(incoming(ctx), req)
	}
}

// StreamServerInterceptor is ServerInterceptor for streams: the handler's
// stream answers the caller's context.
func StreamServerInterceptor() grpc.StreamServerInterceptor {
	return func(srv any, ss grpc.ServerStream, _ *grpc.StreamServerInfo, h grpc.StreamHandler) error {
		return h(srv, &callerStream{ServerStream: ss, ctx: incoming(ss.Context())})
	}
}

type callerStream struct {
	grpc.ServerStream
	ctx context.Context
}

func (s *callerStream) Context() context.Context { return s.ctx }

func incoming(ctx context.Context) context.Context {
	if md, ok := metadata.FromIncomingContext(ctx); ok {
		if v := md.Get(mdCaller); len(v) > 0 && len(v[0]) >= len("user:") && v[0][:5] == "user:" {
			su, _ := strconv.ParseBool(first(md.Get(mdSuperuser)))
			grants := decodedGrants.get(first(md.Get(mdGrants)))
			ctx = WithRequestMemo(WithCaller(ctx, Caller{Username: v[0][5:], Superuser: su, Grants: grants}))
		}
	}
	return ctx
}

// grantsCache keeps the grants of the encodings met last: every call of
// a request carries the same few (one per team combination), and decoding
// them was a twentieth of a units page. The slices are shared: read only.
type grantsCache struct {
	mu sync.RWMutex
	m  map[string][]Grant
}

var decodedGrants = &grantsCache{m: map[string][]Grant{}}

// grantsCacheSize bounds the cache; when full it starts over.
const grantsCacheSize = 256

func (c *grantsCache) get(raw string) []Grant {
	c.mu.RLock()
	g, ok := c.m[raw]
	c.mu.RUnlock()
	if ok {
		return g
	}
	// Malformed grants grant nothing: the caller is still restricted.
	_ = json.Unmarshal([]byte(raw), &g)
	g = g[:len(g):len(g)] // an append makes a copy
	c.mu.Lock()
	if len(c.m) >= grantsCacheSize {
		clear(c.m)
	}
	c.m[raw] = g
	c.mu.Unlock()
	return g
}

func first(v []string) string {
	if len(v) == 0 {
		return ""
	}
	return v[0]
}
