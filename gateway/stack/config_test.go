package stack

import (
	"testing"
	"time"
)

func TestGitTimeout(t *testing.T) {
	for in, want := range map[string]time.Duration{"": 0, "120": 120 * time.Second, "2m": 2 * time.Minute, "90s": 90 * time.Second} {
		if got, err := (Config{GitTimeout: in}).gitTimeout(); err != nil || got != want {
			t.Errorf("gitTimeout(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"soon", "-5s", "0", "0s"} {
		if _, err := (Config{GitTimeout: bad}).gitTimeout(); err == nil {
			t.Errorf("gitTimeout(%q) accepted", bad)
		}
	}
}

func TestBackendTimeout(t *testing.T) {
	if d, err := (Config{BackendTimeout: "5s"}).backendTimeout(); err != nil || d != 5*time.Second {
		t.Errorf("5s: %v %v", d, err)
	}
	if _, err := (Config{BackendTimeout: "fast"}).backendTimeout(); err == nil {
		t.Error("a bad backend timeout was accepted")
	}
}

func TestRates(t *testing.T) {
	if _, _, err := (Config{RateLimitAnon: "100/day", RateLimitUser: "5000/hour"}).rates(); err != nil {
		t.Error(err)
	}
	if _, _, err := (Config{RateLimitAnon: "lots"}).rates(); err == nil {
		t.Error("a bad anonymous rate was accepted")
	}
}
