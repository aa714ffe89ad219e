package rest

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"google.golang.org/grpc"

	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// Rate is an API rate limit: N requests per window.
type Rate struct {
	N      int64
	Window time.Duration
}

var rateUnits = map[string]time.Duration{"second": time.Second, "minute": time.Minute, "hour": time.Hour, "day": 24 * time.Hour}

// ParseRate reads "N/second|minute|hour|day" (Django REST framework's
// throttle rates, as Weblate's settings write them).
func ParseRate(s string) (Rate, error) {
	num, unit, ok := strings.Cut(strings.TrimSpace(s), "/")
	n, err := strconv.ParseInt(num, 10, 64)
	window, known := rateUnits[unit]
	if !ok || err != nil || n < 1 || !known {
		return Rate{}, fmt.Errorf("rate %q: want N/second, N/minute, N/hour or N/day with N at least 1", s)
	}
	return Rate{N: n, Window: window}, nil
}

// quotaTaker is the part of the rate-limit service the gateway uses.
type quotaTaker interface {
	TakeQuota(ctx context.Context, in *notificationv1.TakeQuotaRequest, opts ...grpc.CallOption) (*notificationv1.TakeQuotaResponse, error)
}

// limiter counts API requests per caller in fixed windows. The counters
// live in the database behind the rate-limit service, shared by every
// gateway replica: a replica takes a small lease of a caller's quota at a
// time and spends it locally, so replicas together never exceed the limit
// while a busy caller costs one database write per lease, not per request.
type limiter struct {
	quotas quotaTaker
	now    func() time.Time
	mu     sync.Mutex
	leases map[string]*lease
}

// lease is this replica's share of one caller's current window.
type lease struct {
	mu          sync.Mutex
	windowStart int64
	tokens      int64 // taken from the database, not spent yet
	used        int64 // the window's total use in the database at the last take
}

func newLimiter(q quotaTaker) *limiter {
	return &limiter{quotas: q, now: time.Now, leases: map[string]*lease{}}
}

// leaseSize is how much of a limit one replica takes at a time: a
// hundredth, at least one request (a small limit stays exact per request)
// and at most fifty.
func leaseSize(r Rate) int64 { return min(max(r.N/100, 1), 50) }

// verdict is the outcome of counting one request.
type verdict struct {
	allowed          bool
	limit, remaining int64
	reset            int64 // seconds until the window ends
}

// take counts one request of key against r.
func (l *limiter) take(ctx context.Context, key string, r Rate) (verdict, error) {
	now := l.now()
	w := int64(r.Window / time.Second)
	start := now.Unix() / w * w
	ls := l.lease(key, start)
	ls.mu.Lock()
	defer ls.mu.Unlock()
	if ls.windowStart != start {
		// Field by field: assigning a fresh lease would also overwrite
		// the mutex held here, and the deferred Unlock would be fatal.
		ls.windowStart, ls.tokens, ls.used = start, 0, 0
	}
	if ls.tokens == 0 {
		resp, err := l.quotas.TakeQuota(ctx, &notificationv1.TakeQuotaRequest{Key: key, Limit: r.N,
			WindowSeconds: w, Want: leaseSize(r)})
		if err != nil {
			return verdict{}, err
		}
		ls.tokens += resp.GetGranted()
		ls.used = resp.GetUsed()
	}
	v := verdict{limit: r.N, reset: start + w - now.Unix()}
	if ls.tokens > 0 {
		ls.tokens--
		v.allowed = true
	}
	// What this replica holds unspent is still the caller's to use.
	v.remaining = max(r.N-ls.used+ls.tokens, 0)
	return v, nil
}

// lease finds or makes the lease of key, dropping finished ones now and
// then so that the map holds about the callers of the current windows.
func (l *limiter) lease(key string, start int64) *lease {
	l.mu.Lock()
	defer l.mu.Unlock()
	ls, ok := l.leases[key]
	if !ok {
		if len(l.leases) >= 10000 {
			for k, old := range l.leases {
				if old.mu.TryLock() {
					if old.windowStart < start {
						delete(l.leases, k)
					}
					old.mu.Unlock()
				}
			}
		}
		ls = &lease{windowStart: start}
		l.leases[key] = ls
	}
	return ls
}

// throttle counts the request of c: signed-in callers by user name,
// anonymous ones by client address. The headers go on every counted
// answer; over the limit the answer is 429 with Retry-After. When the
// counters cannot be reached the request is served uncounted (logged):
// a rate limit must not take the API down with it.
func (g *gateway) throttle(c *call) error {
	if g.limits == nil {
		return nil
	}
	key, rate := "anon:"+clientIP(c.r, g.cfg.TrustForwarded), g.cfg.RateAnon
	if c.user != nil {
		key, rate = "user:"+c.user.GetUsername(), g.cfg.RateUser
	}
	if rate.N == 0 {
		return nil
	}
	v, err := g.limits.take(c.ctx, key, rate)
	if err != nil {
		g.log.Warn("rate limit not counted", "key", key, "err", err)
		return nil
	}
	h := c.w.Header()
	h.Set("X-RateLimit-Limit", strconv.FormatInt(v.limit, 10))
	h.Set("X-RateLimit-Remaining", strconv.FormatInt(v.remaining, 10))
	h.Set("X-RateLimit-Reset", strconv.FormatInt(v.reset, 10))
	if v.allowed {
		return nil
	}
	e := clientError(http.StatusTooManyRequests, "throttled",
		fmt.Sprintf("Request was throttled. Expected available in %d seconds.", v.reset))
	e.header = http.Header{"Retry-After": {strconv.FormatInt(v.reset, 10)}}
	return e
}

// clientIP is the caller's address: the connection's peer, or behind a
// trusted proxy the last X-Forwarded-For entry (the one the proxy itself
// appended; earlier entries come from the client and prove nothing).
func clientIP(r *http.Request, trustForwarded bool) string {
	if trustForwarded {
		if xff := r.Header.Values("X-Forwarded-For"); len(xff) > 0 {
			parts := strings.Split(xff[len(xff)-1], ",")
			if ip := strings.TrimSpace(parts[len(parts)-1]); net.ParseIP(ip) != nil {
				return ip
			}
		}
	}
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}
