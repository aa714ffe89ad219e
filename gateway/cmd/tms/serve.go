package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/tmsproject/tms/gateway/stack"
	"github.com/tmsproject/tms/pkg/version"
)

const serveSynopsis = `
Usage: tms serve [--services=all] [--http-addr=ADDR] [--data-dir=DIR]

Runs the services and the REST gateway: all of them in one process on
embedded SQLite by default, or the --services given (a split deployment).
Two processes may share a data directory only when they run different
services: a second one for the same service stops at once.`

// serve runs the stack until SIGINT or SIGTERM.
func serve(args []string, stdout, stderr io.Writer) int {
	cfg, err := stack.FromEnv()
	if err != nil {
		fmt.Fprintln(stderr, "tms serve:", err)
		return exitUsage
	}
	fs := newFlags("serve", serveSynopsis, stdout, stderr)
	services := fs.String("services", "all", "services this process runs: all, or a comma list of catalog, translation, changelog, notification, gateway")
	fs.StringVar(&cfg.HTTPAddr, "http-addr", cfg.HTTPAddr, "gateway listen address (TMS_HTTP_ADDR)")
	fs.StringVar(&cfg.DataDir, "data-dir", cfg.DataDir, "embedded databases, working copies, lock and pid files (TMS_DATA_DIR)")
	fs.extra = func(w io.Writer) {
		fmt.Fprintln(w, "\nEnvironment (flags win):")
		stack.WriteSettings(w)
	}
	if code, done := fs.parse(args); done {
		return code
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "tms serve: unexpected argument %q\n", fs.Arg(0))
		return exitUsage
	}
	if cfg.Services, err = stack.ParseServices(*services); err != nil {
		fmt.Fprintln(stderr, "tms serve:", err)
		return exitUsage
	}
	if cfg.SiteURL == "" {
		cfg.SiteURL = "http://" + cfg.HTTPAddr
	}
	if cfg.Log, err = stack.NewLogger(stderr); err != nil {
		fmt.Fprintln(stderr, "tms serve:", err)
		return exitUsage
	}
	if err := runStack(cfg); err != nil {
		cfg.Log.Error("tms serve stopped", "err", err)
		return exitFailure
	}
	return exitOK
}

func runStack(cfg stack.Config) error {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfg.Log.Info("starting", "version", version.String(), "services", cfg.Services)
	st, err := stack.Start(ctx, cfg)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := st.Close(); cerr != nil {
			cfg.Log.Error("stopping the services", "err", cerr)
		}
	}()
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
// "listening" is logged once the port is bound, so a supervisor (or a
// user) reading it can connect at once.
func serveHTTP(ctx context.Context, stop func(), cfg stack.Config, h http.Handler, bgErr <-chan error) error {
	lis, err := net.Listen("tcp", cfg.HTTPAddr)
	if err != nil {
		stop()
		return fmt.Errorf("gateway: %w", err)
	}
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 5 * time.Minute, IdleTimeout: 2 * time.Minute}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(lis) }()
	cfg.Log.Info("gateway listening", "addr", lis.Addr().String(), "services", cfg.Services)
	select {
	case err = <-done:
	case err = <-bgErr:
	case <-ctx.Done():
	}
	stop()
	// ctx is done by now: the drain gets its own 10 s.
	shut, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	if serr := srv.Shutdown(shut); serr != nil && err == nil {
		err = serr
	}
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}
