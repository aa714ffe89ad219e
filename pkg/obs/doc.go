// Package obs is the processes' observability: Prometheus metrics (HTTP
// routes, gRPC calls on both sides, outbox backlog, change-delivery lag,
// import and commit durations) served on their own listener with pprof,
// OpenTelemetry traces exported over OTLP when an endpoint is configured,
// and a request id that follows a request from the gateway through every
// service and into their log lines.
package obs
