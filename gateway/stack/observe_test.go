package stack

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/tmsproject/tms/pkg/obs"
)

// TestObservability: a REST request answers its request id, is counted on
// the metrics listener on both sides of each gRPC call, and makes one trace
// from the gateway into the services.
func TestObservability(t *testing.T) {
	rec := tracetest.NewSpanRecorder()
	prev := otel.GetTracerProvider()
	obs.UseSpanProcessor(rec, "test")
	t.Cleanup(func() { otel.SetTracerProvider(prev) })
	st, err := Start(t.Context(), Config{DataDir: t.TempDir(), Services: []string{"all"}, MetricsAddr: "127.0.0.1:0",
		Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	api := httptest.NewServer(st.Handler())
	t.Cleanup(api.Close)
	req, _ := http.NewRequest("GET", api.URL+"/api/projects/", nil)
	req.Header.Set("X-Request-Id", "req-42")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("X-Request-Id") != "req-42" {
		t.Errorf("answer %d, request id %q", resp.StatusCode, resp.Header.Get("X-Request-Id"))
	}
	metrics := fetchText(t, "http://"+st.MetricsAddr()+"/metrics")
	for _, want := range []string{
		`tms_http_requests_total{code="200",method="GET",route="/api/projects"}`,
		`grpc_server_handled_total{grpc_code="OK",grpc_method="ListProjects",grpc_service="tms.catalog.v1.CatalogService",grpc_type="unary"}`,
		`grpc_client_handled_total{grpc_code="OK",grpc_method="ListProjects",grpc_service="tms.catalog.v1.CatalogService",grpc_type="unary"}`,
		`grpc_server_started_total{grpc_method="DeleteProject",grpc_service="tms.catalog.v1.CatalogService",grpc_type="unary"}`,
		`tms_outbox_backlog{service="catalog"}`,
		"tms_http_request_duration_seconds_bucket",
	} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics lack %s", want)
		}
	}
	if strings.Contains(fetchText(t, "http://"+st.MetricsAddr()+"/debug/pprof/"), "goroutine") {
		t.Error("pprof on the metrics listener without TMS_PPROF")
	}
	checkOneTrace(t, rec.Ended())
}

// checkOneTrace wants the gateway's span and the catalog's server span in
// one trace.
func checkOneTrace(t *testing.T, spans []sdktrace.ReadOnlySpan) {
	var gateway, catalog sdktrace.ReadOnlySpan
	for _, s := range spans {
		switch s.Name() {
		case "GET /api/projects":
			gateway = s
		case "tms.catalog.v1.CatalogService/ListProjects":
			if s.SpanKind().String() == "server" {
				catalog = s
			}
		}
	}
	if gateway == nil || catalog == nil {
		names := []string{}
		for _, s := range spans {
			names = append(names, s.Name()+"/"+s.SpanKind().String())
		}
		t.Fatalf("spans %v: want the gateway's and the catalog's", names)
	}
	if gateway.SpanContext().TraceID() != catalog.SpanContext().TraceID() {
		t.Errorf("the catalog's span is in trace %s, the gateway's in %s", catalog.SpanContext().TraceID(), gateway.SpanContext().TraceID())
	}
}

func fetchText(t *testing.T, url string) string {
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}
