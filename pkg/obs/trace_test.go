package obs

import (
	"testing"

	"go.opentelemetry.io/otel"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// TestStartTracingFromEnv: the standard OTEL_* variables turn the export
// on and off, and the older TMS_OTLP_ENDPOINT still turns it on.
func TestStartTracingFromEnv(t *testing.T) {
	for _, tc := range []struct {
		name   string
		env    map[string]string
		legacy string
		on     bool
	}{
		{"nothing set", nil, "", false},
		{"OTEL endpoint", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317"}, "", true},
		{"OTEL traces endpoint", map[string]string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT": "http://127.0.0.1:4317"}, "", true},
		{"legacy endpoint", nil, "127.0.0.1:4317", true},
		{"SDK disabled", map[string]string{"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:4317", "OTEL_SDK_DISABLED": "true"}, "", false},
		{"no exporter", map[string]string{"OTEL_TRACES_EXPORTER": "none"}, "127.0.0.1:4317", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prev := otel.GetTracerProvider()
			t.Cleanup(func() { otel.SetTracerProvider(prev) })
			for _, k := range []string{"OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_SDK_DISABLED", "OTEL_TRACES_EXPORTER"} {
				t.Setenv(k, tc.env[k])
			}
			t.Setenv("OTEL_SERVICE_NAME", "from-env")
			shutdown, err := StartTracing(t.Context(), tc.legacy, "tms-test")
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { _ = shutdown(t.Context()) })
			_, sdk := otel.GetTracerProvider().(*sdktrace.TracerProvider)
			if sdk != tc.on {
				t.Errorf("tracing on: %v, want %v", sdk, tc.on)
			}
		})
	}
}
