package rest

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"google.golang.org/grpc"

	"github.com/tmsproject/tms/pkg/dbtest"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/notification/server"
	"github.com/tmsproject/tms/services/notification/store"
)

func TestParseRate(t *testing.T) {
	cases := []struct {
		in   string
		want Rate
		ok   bool
	}{
		{"60/hour", Rate{60, time.Hour}, true},
		{"100/day", Rate{100, 24 * time.Hour}, true},
		{"5000/hour", Rate{5000, time.Hour}, true},
		{"10/second", Rate{10, time.Second}, true},
		{" 30/minute ", Rate{30, time.Minute}, true},
		{"0/hour", Rate{}, false},
		{"-1/hour", Rate{}, false},
		{"60", Rate{}, false},
		{"60/hours", Rate{}, false},
		{"x/hour", Rate{}, false},
		{"", Rate{}, false},
	}
	for _, c := range cases {
		got, err := ParseRate(c.in)
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ParseRate(%q) = %v, %v; want %v ok=%v", c.in, got, err, c.want, c.ok)
		}
	}
}

// quotas serves the real rate-limit server on a fresh SQLite database,
// called directly (the gRPC hop adds nothing to what is tested here).
type quotas struct{ srv *server.RateLimits }

func (q quotas) TakeQuota(ctx context.Context, in *notificationv1.TakeQuotaRequest, _ ...grpc.CallOption) (*notificationv1.TakeQuotaResponse, error) {
	return q.srv.TakeQuota(ctx, in)
}

func newQuotas(t *testing.T) quotas {
	return quotas{server.NewRateLimits(store.New(dbtest.SQLite(t, store.Migrations)))}
}

// TestLimitSharedByReplicas gives two gateways one counter store: their
// callers together get exactly the limit, whichever replica they reach.
//
// The windows are the real clock's hours: a round that straddles the
// turn of an hour (two windows, twice the allowance) runs again once.
func TestLimitSharedByReplicas(t *testing.T) {
	q := newQuotas(t)
	a, b := newLimiter(q), newLimiter(q)
	for _, r := range []Rate{{7, time.Hour}, {450, time.Hour}} {
		for attempt := 0; ; attempt++ {
			hour := time.Now().Unix() / 3600
			key := fmt.Sprintf("anon:%d:%d", r.N, attempt)
			allowed := sharedRound(t, a, b, key, r)
			if time.Now().Unix()/3600 != hour && attempt == 0 {
				continue
			}
			if int64(allowed) != r.N {
				t.Errorf("limit %d: two replicas allowed %d requests", r.N, allowed)
			}
			break
		}
	}
}

// sharedRound makes twice r's allowance of requests of key, two in three
// through replica a and the rest through b, and returns how many were
// allowed.
func sharedRound(t *testing.T, a, b *limiter, key string, r Rate) int {
	t.Helper()
	allowed := 0
	for i := range 2 * r.N {
		l := a
		if i%3 == 0 {
			l = b
		}
		v, err := l.take(t.Context(), key, r)
		if err != nil {
			t.Fatal(err)
		}
		if v.allowed {
			allowed++
		}
		if v.limit != r.N || v.remaining < 0 || v.remaining > r.N || v.reset <= 0 || v.reset > 3600 {
			t.Fatalf("verdict %+v", v)
		}
	}
	return allowed
}

// TestLimitNextWindow crosses into the next window with a lease left
// from the previous one: the caller's allowance starts over (this once
// reset the lease's held mutex and killed the process).
func TestLimitNextWindow(t *testing.T) {
	now := time.Date(2026, 11, 24, 10, 59, 59, 0, time.UTC)
	clock := func() time.Time { return now }
	l := newLimiter(&clockQuotas{now: clock, used: map[string]int64{}})
	l.now = clock
	r := Rate{2, time.Hour}
	for _, want := range []bool{true, true, false} {
		if v, err := l.take(t.Context(), "user:a", r); err != nil || v.allowed != want {
			t.Fatalf("first window: allowed %v, err %v; want %v", v.allowed, err, want)
		}
	}
	now = now.Add(2 * time.Second)
	v, err := l.take(t.Context(), "user:a", r)
	if err != nil {
		t.Fatal(err)
	}
	if !v.allowed {
		t.Errorf("next window: refused, want allowed")
	}
	if v.remaining != 1 {
		t.Errorf("next window: remaining %d, want 1", v.remaining)
	}
}

// clockQuotas is the quota service's counting on the test's clock.
type clockQuotas struct {
	now  func() time.Time
	used map[string]int64 // key and window start -> requests granted
}

func (q *clockQuotas) TakeQuota(_ context.Context, req *notificationv1.TakeQuotaRequest, _ ...grpc.CallOption) (*notificationv1.TakeQuotaResponse, error) {
	start := q.now().Unix() / req.GetWindowSeconds() * req.GetWindowSeconds()
	k := fmt.Sprint(req.GetKey(), "@", start)
	granted := min(req.GetWant(), req.GetLimit()-q.used[k])
	q.used[k] += granted
	return &notificationv1.TakeQuotaResponse{Granted: granted, Used: q.used[k], WindowStart: start}, nil
}

// TestThrottleOverHTTP checks the headers, the 429 answer, that users and
// client addresses are counted apart, and whom X-Forwarded-For may name.
func TestThrottleOverHTTP(t *testing.T) {
	h := New(Config{RateLimits: newQuotas(t), RateAnon: Rate{3, time.Hour}, RateUser: Rate{100, time.Hour}})
	get := func(remote, xff string) *httptest.ResponseRecorder {
		r := httptest.NewRequest("GET", "/api/", nil)
		r.RemoteAddr = remote + ":5555"
		if xff != "" {
			r.Header.Set("X-Forwarded-For", xff)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		return w
	}
	for i, want := range []string{"2", "1", "0"} {
		w := get("192.0.2.1", "")
		if w.Code != 200 || w.Header().Get("X-RateLimit-Limit") != "3" || w.Header().Get("X-RateLimit-Remaining") != want ||
			w.Header().Get("X-RateLimit-Reset") == "" {
			t.Fatalf("request %d: %d %v", i, w.Code, w.Header())
		}
	}
	w := get("192.0.2.1", "203.0.113.9") // forwarded headers are not trusted here
	var body errBody
	_ = json.Unmarshal(w.Body.Bytes(), &body)
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" || len(body.Errors) != 1 ||
		body.Errors[0].Code != "throttled" || body.Type != "client_error" {
		t.Fatalf("over the limit: %d %v %s", w.Code, w.Header(), w.Body)
	}
	if w := get("192.0.2.2", ""); w.Code != 200 {
		t.Errorf("another client address was throttled: %d", w.Code)
	}

	trusting := New(Config{RateLimits: newQuotas(t), RateAnon: Rate{1, time.Hour}, TrustForwarded: true})
	for _, c := range []struct {
		xff  string
		code int
	}{{"198.51.100.1", 200}, {"198.51.100.1", 429}, {"10.9.9.9, 198.51.100.2", 200}, {"198.51.100.2", 429}} {
		r := httptest.NewRequest("GET", "/api/", nil)
		r.RemoteAddr = "127.0.0.1:1"
		r.Header.Set("X-Forwarded-For", c.xff)
		w := httptest.NewRecorder()
		trusting.ServeHTTP(w, r)
		if w.Code != c.code {
			t.Errorf("behind a trusted proxy, X-Forwarded-For %q: %d, want %d", c.xff, w.Code, c.code)
		}
	}
}

// TestPagesShareTheRateLimit: the HTML pages and badges count against the
// same limit as the API; past it they answer 429 too.
func TestPagesShareTheRateLimit(t *testing.T) {
	h := New(Config{RateLimits: newQuotas(t), RateAnon: Rate{2, time.Hour}, RateUser: Rate{100, time.Hour}})
	codes := []int{}
	for _, path := range []string{"/api/", "/projects/a/b/c/d/e/f/", "/widget/a/b/c/d/e/"} {
		r := httptest.NewRequest("GET", path, nil)
		r.RemoteAddr = "192.0.2.7:5555"
		w := httptest.NewRecorder()
		h.ServeHTTP(w, r)
		codes = append(codes, w.Code)
	}
	if codes[2] != http.StatusTooManyRequests || codes[1] == http.StatusTooManyRequests {
		t.Errorf("API, page, badge: %v; want the badge, third, throttled", codes)
	}
}
