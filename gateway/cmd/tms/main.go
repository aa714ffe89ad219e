// Command tms runs the translation management service: every service and the
// REST gateway in one process (the default), or any subset of them for a
// split deployment.
//
//	tms serve [--services=all|catalog,translation,changelog,notification,gateway]
//	          [--http-addr=127.0.0.1:8080] [--data-dir=./data]
//
// Configuration comes from the TMS_* environment variables (see README.md);
// flags override them.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tmsproject/tms/gateway/stack"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "tms:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	if len(args) > 0 && args[0] == "serve" {
		args = args[1:]
	}
	cfg := stack.FromEnv()
	fs := flag.NewFlagSet("tms serve", flag.ContinueOnError)
	services := fs.String("services", "all", "services this process runs: all, or a comma list of catalog, translation, changelog, notification, gateway")
	fs.StringVar(&cfg.HTTPAddr, "http-addr", cfg.HTTPAddr, "gateway listen address (TMS_HTTP_ADDR)")
	fs.StringVar(&cfg.DataDir, "data-dir", cfg.DataDir, "embedded databases and working copies (TMS_DATA_DIR)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if cfg.SiteURL == "" {
		cfg.SiteURL = "http://" + cfg.HTTPAddr
	}
	var err error
	if cfg.Services, err = stack.ParseServices(*services); err != nil {
		return err
	}
	cfg.Log = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	st, err := stack.Start(ctx, cfg)
	if err != nil {
		return err
	}
	defer st.Close()
	if h := st.Handler(); h != nil {
		return serveHTTP(ctx, stop, cfg, h, st.Err())
	}
	cfg.Log.Info("services running", "services", cfg.Services)
	select {
	case <-ctx.Done():
	case err = <-st.Err():
		stop()
	}
	return err
}

// serveHTTP runs the gateway until ctx ends or a background loop fails.
func serveHTTP(ctx context.Context, stop func(), cfg stack.Config, h http.Handler, bgErr <-chan error) error {
	srv := &http.Server{Addr: cfg.HTTPAddr, Handler: h, ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 5 * time.Minute, IdleTimeout: 2 * time.Minute}
	done := make(chan error, 1)
	go func() { done <- srv.ListenAndServe() }()
	cfg.Log.Info("gateway listening", "addr", cfg.HTTPAddr, "services", cfg.Services)
	var err error
	select {
	case err = <-done:
	case err = <-bgErr:
	case <-ctx.Done():
	}
	stop()
	shut, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if serr := srv.Shutdown(shut); serr != nil && err == nil {
		err = serr
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}
