// Package rest is the REST gateway: the only place that knows the API shape
// of SPEC.md and COMPAT.md (URLs, pages, JSON, headers, authentication and
// error bodies). It routes through a grpc-gateway ServeMux, calls the four
// backend services over gRPC and renders their plain messages into the
// documented JSON objects.
package rest
