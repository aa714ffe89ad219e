package notification_test

import (
	"bytes"
	"context"
	"log/slog"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/pgtest"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/notification"
)

func TestMain(m *testing.M) { pgtest.Main(m) }

var tokenLine = regexp.MustCompile(`admin API token: (wlu_[A-Za-z0-9]{36})`)

// start opens the service on cfg, returning it and what it logged.
func start(t *testing.T, cfg notification.Config) (*notification.Service, string) {
	t.Helper()
	var buf bytes.Buffer
	cfg.Log = slog.New(slog.NewTextHandler(&buf, nil))
	svc, err := notification.New(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return svc, buf.String()
}

// closeService closes svc; a failure fails the test.
func closeService(t *testing.T, svc *notification.Service) {
	t.Helper()
	if err := svc.Close(); err != nil {
		t.Error(err)
	}
}

func authenticate(t *testing.T, svc *notification.Service, tok string) error {
	t.Helper()
	resp, err := svc.Server().Authenticate(t.Context(), &notificationv1.AuthenticateRequest{Token: tok})
	if err == nil && resp.GetUser().GetUsername() != "admin" {
		t.Fatalf("token belongs to %q", resp.GetUser().GetUsername())
	}
	return err
}

// TestBootstrap checks the built-in accounts and the admin token across
// restarts, on both engines.
func TestBootstrap(t *testing.T) {
	engines := map[string]func(t *testing.T) notification.Config{
		db.SQLite: func(t *testing.T) notification.Config {
			return notification.Config{DataDir: filepath.Join(t.TempDir(), "data")}
		},
		db.Postgres: func(t *testing.T) notification.Config {
			return notification.Config{DB: db.Config{URL: pgtest.URL(t)}}
		},
	}
	for name, cfgOf := range engines {
		t.Run(name, func(t *testing.T) { testBootstrap(t, cfgOf(t)) })
	}
}

func testBootstrap(t *testing.T, cfg notification.Config) {
	svc, logged := start(t, cfg)
	m := tokenLine.FindStringSubmatch(logged)
	if m == nil || strings.Count(logged, "admin API token") != 1 {
		t.Fatalf("first start logged no token once: %q", logged)
	}
	first := m[1]
	if err := authenticate(t, svc, first); err != nil {
		t.Fatalf("generated token rejected: %v", err)
	}
	checkBuiltins(t, svc)
	closeService(t, svc)

	// A restart keeps the token and prints nothing.
	svc, logged = start(t, cfg)
	if strings.Contains(logged, "admin API token") {
		t.Fatalf("restart logged a token: %q", logged)
	}
	if err := authenticate(t, svc, first); err != nil {
		t.Fatalf("token lost on restart: %v", err)
	}
	checkBuiltins(t, svc) // nothing doubled
	closeService(t, svc)

	// A configured token replaces it.
	cfg.AdminToken = "wlu_configured"
	svc, logged = start(t, cfg)
	if strings.Contains(logged, "admin API token:") || !strings.Contains(logged, "TMS_ADMIN_TOKEN replaced the admin API token") {
		t.Fatalf("configured start did not say it replaced the token (or logged one): %q", logged)
	}
	if err := authenticate(t, svc, "wlu_configured"); err != nil {
		t.Fatalf("configured token rejected: %v", err)
	}
	if err := authenticate(t, svc, first); !errs.Is(errs.FromStatus(err), errs.Unauthenticated) {
		t.Fatalf("replaced token still accepted: %v", err)
	}
	closeService(t, svc)

	// The same configured token again replaces nothing and says nothing.
	svc, logged = start(t, cfg)
	defer closeService(t, svc)
	if strings.Contains(logged, "TMS_ADMIN_TOKEN") {
		t.Fatalf("unchanged configured token logged: %q", logged)
	}
}

func checkBuiltins(t *testing.T, svc *notification.Service) {
	t.Helper()
	ctx := t.Context()
	admin, err := svc.Server().GetUser(ctx, &notificationv1.GetUserRequest{Username: "admin"})
	if err != nil || !admin.GetUser().GetIsSuperuser() || !admin.GetUser().GetIsActive() {
		t.Fatalf("admin: %v %v", admin, err)
	}
	anon, err := svc.Server().GetUser(ctx, &notificationv1.GetUserRequest{Username: "anonymous"})
	if err != nil || anon.GetUser().GetIsSuperuser() || anon.GetUser().GetIsActive() {
		t.Fatalf("anonymous: %v %v", anon, err)
	}
	users, err := svc.Server().ListUsers(ctx, &notificationv1.ListUsersRequest{})
	if err != nil || users.GetTotal() != 2 {
		t.Fatalf("users: %v %v", users, err)
	}
	subs, err := svc.Server().ListSubscriptions(ctx, &notificationv1.ListSubscriptionsRequest{Username: "admin"})
	if err != nil || subs.GetTotal() != 10 {
		t.Fatalf("admin subscriptions: %v %v", subs.GetTotal(), err)
	}
}

func TestRunEndsWithContext(t *testing.T) {
	svc, _ := start(t, notification.Config{DataDir: t.TempDir()})
	defer closeService(t, svc)
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- svc.Run(ctx) }()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return")
	}
}

// TestConcurrentFirstStart starts two instances on one fresh PostgreSQL
// database at once: one admin, and exactly one of them prints the token.
func TestConcurrentFirstStart(t *testing.T) {
	cfg := notification.Config{DB: db.Config{URL: pgtest.URL(t)}}
	type result struct {
		svc    *notification.Service
		logged string
		err    error
	}
	results := make(chan result, 2)
	for range 2 {
		go func() {
			var buf bytes.Buffer
			c := cfg
			c.Log = slog.New(slog.NewTextHandler(&buf, nil))
			svc, err := notification.New(context.Background(), c)
			results <- result{svc, buf.String(), err}
		}()
	}
	var tokens []string
	var svc *notification.Service
	for range 2 {
		r := <-results
		if r.err != nil {
			t.Fatal(r.err)
		}
		defer closeService(t, r.svc)
		svc = r.svc
		if m := tokenLine.FindStringSubmatch(r.logged); m != nil {
			tokens = append(tokens, m[1])
		}
	}
	if len(tokens) != 1 {
		t.Fatalf("%d instances printed a token", len(tokens))
	}
	if err := authenticate(t, svc, tokens[0]); err != nil {
		t.Fatalf("printed token rejected: %v", err)
	}
	checkBuiltins(t, svc)
}
