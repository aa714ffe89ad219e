package suite

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/stack"
	"github.com/tmsproject/tms/services/notification/delivery"
)

// receiver is a webhook endpoint that checks the Standard Webhooks
// signature of what it receives; while down it answers 503.
type receiver struct {
	t      *testing.T
	secret string
	mu     sync.Mutex
	down   bool
	got    []map[string]any
	ids    []string
	bad    int
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.down {
		w.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	id, ts := req.Header.Get("webhook-id"), req.Header.Get("webhook-timestamp")
	n, _ := strconv.ParseInt(ts, 10, 64)
	want, err := delivery.Sign(r.secret, id, n, body)
	if err != nil || req.Header.Get("webhook-signature") != want || time.Since(time.Unix(n, 0)) > time.Minute {
		r.bad++
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var p map[string]any
	_ = json.Unmarshal(body, &p)
	r.got, r.ids = append(r.got, p), append(r.ids, id)
	w.WriteHeader(http.StatusNoContent)
}

// TestWebhooks creates a webhook through the API, receives signed changes,
// survives the receiver being down (redelivered once it is back, never
// twice) and shows the delivery log to the project's administrators only.
func TestWebhooks(t *testing.T) {
	f := &permissionFixture{t: t, admin: newStack(t, func(c *stack.Config) { c.AllowLocalWebhooks = true })}
	a := f.admin
	a.want(201, "POST", a.base+"projects/", map[string]any{"name": "open", "slug": "open", "web": "https://x.example/"})
	f.component("open", "app")
	a.want(201, "POST", a.base+"users/", map[string]any{"username": "tina", "full_name": "Tina", "email": "tina@x.example"})
	tina := client{t: t, base: a.base, token: a.want(200, "POST", a.base+"users/tina/token/", map[string]any{})["token"].(string)}

	recv := &receiver{t: t}
	hookSrv := httptest.NewServer(recv)
	t.Cleanup(hookSrv.Close)
	body := map[string]any{"target_url": hookSrv.URL + "/hook", "actions": []int{2, 5}}
	tina.want(403, "POST", a.base+"projects/open/webhooks/", body)
	client{t: t, base: a.base, token: anonymous}.want(401, "GET", a.base+"projects/open/webhooks/", nil)
	for _, bad := range []any{
		map[string]any{"target_url": "ftp://x.example/"},
		map[string]any{"actions": []int{2}},
		map[string]any{"target_url": hookSrv.URL, "actions": "2,5"},
		map[string]any{"target_url": hookSrv.URL, "actions": []string{"two"}},
		map[string]any{"target_url": hookSrv.URL, "secret": "hunter2"},
		json.RawMessage(`{"target_url": `),
	} {
		a.want(400, "POST", a.base+"projects/open/webhooks/", bad)
	}
	if n := a.want(200, "GET", a.base+"projects/open/webhooks/", nil)["count"]; n != 0.0 {
		t.Errorf("refused webhooks were stored: %v", n)
	}
	a.want(404, "GET", a.base+"projects/nope/webhooks/", nil)
	hook := a.want(201, "POST", a.base+"projects/open/webhooks/", body)
	recv.mu.Lock()
	recv.secret, _ = hook["secret"].(string)
	recv.mu.Unlock()
	if len(recv.secret) < 10 || hook["target_url"] != hookSrv.URL+"/hook" {
		t.Fatalf("created webhook: %v", hook)
	}
	hookURL := hook["url"].(string)
	if got := a.want(200, "GET", hookURL, nil); got["secret"] != nil {
		t.Errorf("the secret is shown again: %v", got)
	}
	tina.want(403, "GET", hookURL+"deliveries/", nil)

	unit := a.base + f.helloUnit("open")
	a.want(200, "PATCH", unit, map[string]any{"target": []string{"Hallo 1"}, "state": 20})
	waitFor(t, func() bool { recv.mu.Lock(); defer recv.mu.Unlock(); return len(recv.got) == 1 })
	recv.mu.Lock()
	first := recv.got[0]
	recv.down = true
	recv.mu.Unlock()
	if data, _ := first["data"].(map[string]any); first["type"] != "change" || data["action"] != 2.0 || data["project"] != "open" ||
		data["target"] != "Hallo 1" || data["old"] != "Hallo" {
		t.Errorf("payload: %v", first)
	}
	a.want(200, "PATCH", unit, map[string]any{"target": []string{"Hallo 2"}, "state": 20})
	a.want(200, "POST", a.base+"components/open/app/lock/", map[string]any{"lock": false}) // not an action of the filter
	waitFor(t, func() bool {
		log := a.want(200, "GET", hookURL+"deliveries/", nil)["results"].([]any)
		return len(log) == 2 && log[0].(map[string]any)["status_code"] == 503.0
	})
	recv.mu.Lock()
	recv.down = false
	recv.mu.Unlock()
	waitForLong(t, 90*time.Second, func() bool { recv.mu.Lock(); defer recv.mu.Unlock(); return len(recv.got) == 2 })
	time.Sleep(3 * time.Second)
	recv.mu.Lock()
	defer recv.mu.Unlock()
	if len(recv.got) != 2 || recv.bad != 0 || recv.ids[0] == recv.ids[1] {
		t.Errorf("received %d (ids %v), %d with a bad signature; want 2 distinct", len(recv.got), recv.ids, recv.bad)
	}
	if data, _ := recv.got[1]["data"].(map[string]any); data["action"] != 2.0 || data["target"] != "Hallo 2" {
		t.Errorf("redelivered payload: %v", recv.got[1])
	}
}

func waitForLong(t *testing.T, limit time.Duration, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(limit); !cond(); time.Sleep(200 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("condition not met within %v", limit)
		}
	}
}
