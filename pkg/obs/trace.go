package obs

import (
	"context"
	"net/http"
	"strings"

	"go.opentelemetry.io/contrib/instrumentation/google.golang.org/grpc/otelgrpc"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracegrpc"
	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.26.0"
	"go.opentelemetry.io/otel/trace"
	"google.golang.org/grpc"
)

// StartTracing exports the process's traces over OTLP/gRPC to endpoint
// ("host:port", or "https://host:port" for TLS) as service; an empty
// endpoint exports nothing (the default). Call the returned function at
// shutdown to flush.
func StartTracing(ctx context.Context, endpoint, service string) (func(context.Context) error, error) {
	otel.SetTextMapPropagator(propagation.TraceContext{})
	if endpoint == "" {
		return func(context.Context) error { return nil }, nil
	}
	opts := []otlptracegrpc.Option{otlptracegrpc.WithEndpoint(strings.TrimPrefix(endpoint, "https://"))}
	if !strings.HasPrefix(endpoint, "https://") {
		opts = append(opts, otlptracegrpc.WithInsecure())
	}
	exp, err := otlptracegrpc.New(ctx, opts...)
	if err != nil {
		return nil, err
	}
	UseSpanProcessor(sdktrace.NewBatchSpanProcessor(exp), service)
	return otel.GetTracerProvider().(*sdktrace.TracerProvider).Shutdown, nil
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

// StartHTTP starts the span of a REST request named by its route,
// continuing a trace the client sent (traceparent).
func StartHTTP(r *http.Request, route string) (context.Context, trace.Span) {
	ctx := otel.GetTextMapPropagator().Extract(r.Context(), propagation.HeaderCarrier(r.Header))
	return otel.Tracer("tms/gateway").Start(ctx, r.Method+" "+route, trace.WithSpanKind(trace.SpanKindServer),
		trace.WithAttributes(attribute.String("http.route", route), attribute.String("http.request.method", r.Method)))
}

// EndHTTP ends the span of a REST request with its status.
func EndHTTP(span trace.Span, code int) {
	span.SetAttributes(attribute.Int("http.response.status_code", code))
	if code >= 500 {
		span.SetStatus(codes.Error, http.StatusText(code))
	}
	span.End()
}
