package stack

import (
	"context"
	"encoding/json"
	"net/http"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"
)

// probeTimeout bounds each backend's answer to a readiness probe.
const probeTimeout = time.Second

// withProbes serves the gateway's probes next to the API, outside its
// rate limits and authentication: /healthz answers while the process
// serves (liveness), /readyz once it serves its routes (readiness). A
// service that does not answer does not make the gateway unready: the
// routes that need it answer 503 or 504 and every other route serves, so
// restarting one service's pod never takes the whole API out of rotation.
// /readyz names each service's health check ("degraded" when one is not
// SERVING) for operators. Both answer {"status": ..., "services": {...}}.
func (st *Stack) withProbes(api http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		writeProbe(w, http.StatusOK, "ok", nil)
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		states, ready := st.backendHealth(r.Context())
		status := "ok"
		if !ready {
			status = "degraded"
		}
		writeProbe(w, http.StatusOK, status, states)
	})
	mux.Handle("/", api)
	return mux
}

// backendHealth asks every service for its health, in parallel.
func (st *Stack) backendHealth(ctx context.Context) (map[string]string, bool) {
	type answer struct{ name, state string }
	out := make(chan answer, len(Backends))
	for _, name := range Backends {
		go func() {
			cctx, cancel := context.WithTimeout(ctx, probeTimeout)
			defer cancel()
			resp, err := healthpb.NewHealthClient(st.conns[name]).Check(cctx, &healthpb.HealthCheckRequest{Service: name})
			state := resp.GetStatus().String()
			if err != nil {
				state = "UNREACHABLE"
			}
			out <- answer{name, state}
		}()
	}
	states, ready := map[string]string{}, true
	for range Backends {
		a := <-out
		states[a.name] = a.state
		ready = ready && a.state == healthpb.HealthCheckResponse_SERVING.String()
	}
	return states, ready
}

func writeProbe(w http.ResponseWriter, code int, status string, services map[string]string) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(map[string]any{"status": status, "services": services})
}
