package stack

import (
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestProbes: the gateway's liveness and readiness probes answer without
// a token and outside the rate limits; readiness names each service.
func TestProbes(t *testing.T) {
	st, err := Start(t.Context(), Config{DataDir: t.TempDir(), Services: []string{"all"},
		RateLimitAnon: "1/day", Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	srv := httptest.NewServer(st.Handler())
	t.Cleanup(srv.Close)
	get := func(path string) (int, map[string]any) {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = resp.Body.Close() }()
		var v map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&v)
		return resp.StatusCode, v
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		code, body := get("/readyz")
		services, _ := body["services"].(map[string]any)
		if code == 200 && len(services) == len(Backends) && services[Catalog] == "SERVING" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("readyz: %d %v", code, body)
		}
		time.Sleep(100 * time.Millisecond)
	}
	for range 3 { // more than the anonymous limit: probes are not counted
		if code, _ := get("/healthz"); code != 200 {
			t.Fatalf("healthz: %d", code)
		}
	}
}
