package stack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/tmsproject/tms/pkg/obs"
)

// observe starts the metrics listener (TMS_METRICS_ADDR) and the trace
// export (TMS_OTLP_ENDPOINT) of the process, when configured.
func (st *Stack) observe(ctx context.Context) error {
	flush, err := obs.StartTracing(ctx, st.cfg.OTLPEndpoint, "tms-"+strings.Join(st.cfg.roles(), "-"))
	if err != nil {
		return err
	}
	st.cleanups = append(st.cleanups, func() error {
		// At shutdown ctx may be done: the last export gets 5 s of its own.
		fctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		return flush(fctx)
	})
	if st.cfg.MetricsAddr == "" {
		return nil
	}
	lis, err := net.Listen("tcp", st.cfg.MetricsAddr)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: metricsMux(st.cfg.Pprof), ReadHeaderTimeout: 10 * time.Second}
	st.metricsAddr = lis.Addr().String()
	st.cleanups = append(st.cleanups, srv.Close)
	go func() {
		if err := srv.Serve(lis); err != nil && !errors.Is(err, http.ErrServerClosed) {
			st.cfg.Log.Warn("metrics listener stopped", "err", err)
		}
	}()
	return nil
}

// metricsMux serves /metrics and, when enabled, Go's profiler: on its own
// listener, as neither is for the API's callers. The profiler is off by
// default: a scrape port reachable in a cluster must not hand out CPU
// profiles and command lines.
func metricsMux(withPprof bool) *http.ServeMux {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(obs.Registry, promhttp.HandlerOpts{}))
	if !withPprof {
		return mux
	}
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// MetricsAddr is the address the metrics listener is bound to ("" when
// none).
func (st *Stack) MetricsAddr() string { return st.metricsAddr }

// NewLogger is the process's logger: text or JSON lines (TMS_LOG_FORMAT)
// at info level, each line about a request carrying its request_id.
func NewLogger(w io.Writer) (*slog.Logger, error) {
	opts := &slog.HandlerOptions{Level: slog.LevelInfo}
	switch f := setting("TMS_LOG_FORMAT"); f {
	case "text":
		return slog.New(obs.LogHandler(slog.NewTextHandler(w, opts))), nil
	case "json":
		return slog.New(obs.LogHandler(slog.NewJSONHandler(w, opts))), nil
	default:
		return nil, fmt.Errorf("TMS_LOG_FORMAT=%q: want text or json", f)
	}
}
