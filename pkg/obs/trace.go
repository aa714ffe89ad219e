package obs

import (
	"context"
	"net/http"
	"os"
	"strings"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
)

// StartTracing exports the process's traces over OTLP/gRPC, configured
// as the OpenTelemetry SDK is everywhere: OTEL_EXPORTER_OTLP_ENDPOINT (or
// OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) turns it on, and the exporter, the
// resource and the sampler read the other OTEL_* variables themselves
// (OTEL_EXPORTER_OTLP_HEADERS, OTEL_SERVICE_NAME, OTEL_TRACES_SAMPLER,
// ...). OTEL_SDK_DISABLED=true or OTEL_TRACES_EXPORTER=none turns it off.
// legacy is the older TMS_OTLP_ENDPOINT ("host:port", or
// "https://host:port" for TLS), used when no OTEL endpoint is set.
// service names the process unless OTEL_SERVICE_NAME does. Call the
// returned function at shutdown to flush.
func StartTracing(ctx context.Context, legacy, service string) (func(context.Context) error, error) {
	otel.SetTextMapPropagator(propagation.NewCompositeTextMapPropagator(propagation.TraceContext{}, propagation.Baggage{}))
	off := func(context.Context) error { return nil }
	var opts []otlptracegrpc.Option
	switch {
	case strings.EqualFold(os.Getenv("OTEL_SDK_DISABLED"), "true") || os.Getenv("OTEL_TRACES_EXPORTER") == "none":
		return off, nil
	case os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "":
		// the exporter reads its configuration from the environment
	case legacy != "":
		opts = append(opts, otlptracegrpc.WithEndpoint(strings.TrimPrefix(legacy, "https://")))
		if !strings.HasPrefix(legacy, "https://") {
			opts = append(opts, otlptracegrpc.WithInsecure())
		}
	default:
		return off, nil
	}
	exp, err := otlptracegrpc.New(ctx, opts...)
	if err != nil {
		return nil, err
	}
	// Later options win: OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES
	// over the process's own name.
	res, err := resource.New(ctx, resource.WithAttributes(semconv.ServiceName(service)), resource.WithFromEnv(),
		resource.WithTelemetrySDK())
	if err != nil {
		return nil, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	otel.SetTracerProvider(tp)
	return tp.Shutdown, nil
}

// UseSpanProcessor installs a tracer provider sending spans to p (a test
// records them in memory this way).
func UseSpanProcessor(p sdktrace.SpanProcessor, service string) {
	res := resource.NewSchemaless(semconv.ServiceName(service))
	otel.SetTracerProvider(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(p), sdktrace.WithResource(res)))
	otel.SetTextMapPropagator(propagation.TraceContext{})
}

// ServerTracing makes a span of every call a gRPC server answers,
// continuing the caller's trace.
func ServerTracing() grpc.ServerOption { return grpc.StatsHandler(otelgrpc.NewServerHandler()) }

// ClientTracing makes a span of every call and sends the trace along.
func ClientTracing() grpc.DialOption { return grpc.WithStatsHandler(otelgrpc.NewClientHandler()) }

// HTTPHandler makes a span of every request h answers (otelhttp),
// continuing a trace the client sent (traceparent); NameHTTPSpan names it
// once the request's route is known.
func HTTPHandler(h http.Handler) http.Handler {
	traced := otelhttp.NewHandler(h, "http", otelhttp.WithSpanNameFormatter(func(_ string, r *http.Request) string {
		// otelhttp names the span again at the end when a ServeMux
		// around the handler matched a pattern: keep the route's name.
		if route, _ := r.Context().Value(routeKey{}).(*string); route != nil && *route != "" {
			return r.Method + " " + *route
		}
		return r.Method
	}))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var route string
		traced.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), routeKey{}, &route)))
	})
}

// routeKey holds the route of a request HTTPHandler serves, once known.
type routeKey struct{}

// NameHTTPSpan names the span of the request of ctx by its method and
// route pattern, as the HTTP semantic conventions name server spans.
func NameHTTPSpan(ctx context.Context, method, route string) {
	if p, _ := ctx.Value(routeKey{}).(*string); p != nil {
		*p = route
	}
	span := trace.SpanFromContext(ctx)
	span.SetName(method + " " + route)
	span.SetAttributes(semconv.HTTPRoute(route))
}
