package stack

import (
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestTimeoutsFromEnv: the timeouts are read once, at start, as durations
// (Go's "2m", or whole seconds; unset: the default of Settings); a bad
// one is an error naming its variable.
func TestTimeoutsFromEnv(t *testing.T) {
	for _, tc := range []struct {
		env, value string
		want       time.Duration
		field      func(Config) time.Duration
	}{
		{"TMS_GIT_TIMEOUT", "", 2 * time.Minute, func(c Config) time.Duration { return c.GitTimeout }},
		{"TMS_GIT_TIMEOUT", "120", 120 * time.Second, func(c Config) time.Duration { return c.GitTimeout }},
		{"TMS_GIT_TIMEOUT", "2m", 2 * time.Minute, func(c Config) time.Duration { return c.GitTimeout }},
		{"TMS_BACKEND_TIMEOUT", "5s", 5 * time.Second, func(c Config) time.Duration { return c.BackendTimeout }},
		{"TMS_QUERY_TIMEOUT", "90s", 90 * time.Second, func(c Config) time.Duration { return c.QueryTimeout }},
	} {
		t.Setenv(tc.env, tc.value)
		c, err := FromEnv()
		if err != nil || tc.field(c) != tc.want {
			t.Errorf("%s=%q: %v, %v; want %v", tc.env, tc.value, tc.field(c), err, tc.want)
		}
		t.Setenv(tc.env, "")
	}
	for _, env := range []string{"TMS_GIT_TIMEOUT", "TMS_BACKEND_TIMEOUT", "TMS_QUERY_TIMEOUT"} {
		for _, bad := range []string{"soon", "-5s", "0", "0s"} {
			t.Setenv(env, bad)
			if _, err := FromEnv(); err == nil || !strings.Contains(err.Error(), env) {
				t.Errorf("%s=%q: %v, want an error naming the variable", env, bad, err)
			}
		}
		t.Setenv(env, "")
	}
	if _, err := Start(t.Context(), Config{DataDir: t.TempDir(), GitTimeout: -time.Second}); err == nil ||
		!strings.Contains(err.Error(), "TMS_GIT_TIMEOUT") {
		t.Errorf("a negative timeout in code: %v", err)
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
