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
