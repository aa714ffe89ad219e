package grpcx

import (
	"context"
	"slices"
	"time"

	"google.golang.org/grpc"
)

// LongMethods are the calls that do repository work (commits, pushes,
// uploads of whole files): they get LongTimeout instead of the short
// deadline of every other call.
var LongMethods = []string{
	"/tms.translation.v1.TranslationService/UploadFile",
	"/tms.translation.v1.TranslationService/RunRepositoryOperation",
	"/tms.translation.v1.TranslationService/GetFile",
	"/tms.translation.v1.TranslationService/AddTranslation",
	"/tms.translation.v1.TranslationService/DeleteTranslation",
	"/tms.translation.v1.TranslationService/ForgetComponent",
	"/tms.translation.v1.TranslationService/ForgetComponents",
	"/tms.translation.v1.TranslationService/ListMachinery",
}

// LongTimeout bounds the LongMethods.
const LongTimeout = 10 * time.Minute

// Deadlines gives every call a deadline, short or (for LongMethods)
// LongTimeout, unless its context already ends sooner: a paused or hung
// service then fails the call (DeadlineExceeded, 504 at the gateway)
// instead of holding the caller forever.
func Deadlines(short time.Duration) grpc.UnaryClientInterceptor {
	return func(ctx context.Context, method string, req, reply any, cc *grpc.ClientConn, invoker grpc.UnaryInvoker, opts ...grpc.CallOption) error {
		d := short
		if slices.Contains(LongMethods, method) {
			d = LongTimeout
		}
		if dl, ok := ctx.Deadline(); !ok || time.Until(dl) > d {
			var cancel context.CancelFunc
			ctx, cancel = context.WithTimeout(ctx, d)
			defer cancel()
		}
		return invoker(ctx, method, req, reply, cc, opts...)
	}
}

// callDeadline bounds the handler's context by d (LongMethods by
// LongTimeout) unless the caller's deadline is sooner; zero d leaves the
// caller's. The bound is the server's own, so a caller without a deadline
// (an internal gRPC client, grpcurl) cannot hold a database connection
// for longer either.
func callDeadline(d time.Duration) grpc.UnaryServerInterceptor {
	return func(ctx context.Context, req any, info *grpc.UnaryServerInfo, h grpc.UnaryHandler) (any, error) {
		if d <= 0 {
			return h(ctx, req)
		}
		limit := d
		if slices.Contains(LongMethods, info.FullMethod) {
			limit = max(d, LongTimeout)
		}
		ctx, cancel := context.WithTimeout(ctx, limit)
		defer cancel()
		return h(ctx, req)
	}
}
