package stack

import (
	"log/slog"
	"strings"
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

func TestNeedsDataDir(t *testing.T) {
	pg := map[string]string{Catalog: "postgres://x/catalog", Changelog: "postgres://x/changelog", Notification: "postgres://x/n"}
	cases := []struct {
		services []string
		urls     map[string]string
		want     bool
	}{
		{[]string{"all"}, nil, true},
		{[]string{Gateway}, nil, false},
		{[]string{Catalog}, pg, false},
		{[]string{Catalog}, nil, true},
		{[]string{Translation}, map[string]string{Translation: "postgres://x/t"}, true},
		{[]string{Changelog, Notification}, pg, false},
	}
	for _, c := range cases {
		cfg := Config{Services: c.services, DatabaseURLs: c.urls}
		if got := cfg.needsDataDir(); got != c.want {
			t.Errorf("%v with %v: needsDataDir %v, want %v", c.services, c.urls, got, c.want)
		}
	}
}

// TestStatelessWithoutDataDir starts a gateway-only process whose data
// directory cannot be created (a read-only image): it needs no files and
// runs; a process that keeps files refuses to.
func TestStatelessWithoutDataDir(t *testing.T) {
	addrs := map[string]string{}
	for _, b := range Backends {
		addrs[b] = "127.0.0.1:1" // dialled lazily, never here
	}
	cfg := Config{DataDir: "/proc/tms-cannot-create", Services: []string{Gateway}, Addrs: addrs,
		ServiceToken: "stateless-gateway-credential-0123456789", Log: slog.New(slog.DiscardHandler)}
	st, err := Start(t.Context(), cfg)
	if err != nil {
		t.Fatalf("stateless gateway without a data directory: %v", err)
	}
	_ = st.Close()
	cfg.Services = []string{Translation}
	if st, err := Start(t.Context(), cfg); err == nil {
		_ = st.Close()
		t.Error("the translation service started without its data directory")
	}
}

// TestServiceTokenRequired: a process that reaches or serves a service over
// the network refuses to start without the service credential; one that
// runs everything in memory makes its own.
func TestServiceTokenRequired(t *testing.T) {
	split := Config{Addrs: map[string]string{Catalog: "127.0.0.1:1"}}
	if _, err := split.serviceToken(); err == nil || !strings.Contains(err.Error(), "TMS_SERVICE_TOKEN") {
		t.Errorf("split without a credential: %v", err)
	}
	split.ServiceToken = "given-given-given-given-given-given"
	if tok, err := split.serviceToken(); tok != split.ServiceToken || err != nil {
		t.Errorf("split with a credential: %q %v", tok, err)
	}
	for _, weak := range []string{" ", "short", strings.Repeat("a", 40)} {
		split.ServiceToken = weak
		if _, err := split.serviceToken(); err == nil || !strings.Contains(err.Error(), "too weak") {
			t.Errorf("split with %q: %v, want too weak", weak, err)
		}
	}
	a, _ := Config{}.serviceToken()
	b, _ := Config{}.serviceToken()
	if len(a) < 40 || a == b {
		t.Errorf("in-process credentials %q and %q: want long random ones", a, b)
	}
}

// TestPlaceholdersRefused: a deployment (network addresses or PostgreSQL)
// with an example's placeholder for a secret does not start; a process on
// its own data directory is not a deployment.
func TestPlaceholdersRefused(t *testing.T) {
	split := map[string]string{Catalog: "127.0.0.1:1"}
	cases := []struct {
		name string
		cfg  Config
		want string // "" when it starts
	}{
		{"service token", Config{Addrs: split, ServiceToken: "change-me"}, "TMS_SERVICE_TOKEN"},
		{"admin token", Config{Addrs: split, ServiceToken: "a-real-one-0123456789abcdef0123456789", AdminToken: "CHANGEME"}, "TMS_ADMIN_TOKEN"},
		{"database password", Config{DatabaseURL: "postgres://tms:change-me@db/tms", ServiceToken: "x0123456789abcdef0123456789abcdef"}, "TMS_DATABASE_URL password"},
		{"one service's database", Config{DatabaseURLs: map[string]string{Translation: "postgres://u:password@db/t"}}, "TMS_TRANSLATION_DATABASE_URL password"},
		{"real secrets", Config{Addrs: split, ServiceToken: "dev-service-credential-not-for-production", AdminToken: "wlu_abc"}, ""},
		{"one process", Config{ServiceToken: "change-me"}, ""},
	}
	for _, c := range cases {
		_, err := c.cfg.serviceToken()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: refused: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want+" is a placeholder")):
			t.Errorf("%s: %v, want a refusal naming %s", c.name, err, c.want)
		}
	}
}
