// Package errs defines the error kinds shared by every service and their one
// mapping to gRPC status (at the service edge) and back (in the gateway).
//
// A service returns *Error values from its domain code; the gRPC interceptor
// in pkg/grpcx turns them into a status carrying the kind, the client-facing
// code and the field violations, and the gateway turns that status back into
// an *Error to render the documented JSON error body.
package errs
