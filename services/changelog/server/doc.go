// Package server implements the ChangelogService gRPC API on top of the
// store: it validates requests, converts between protobuf messages and
// stored records, and returns errs kinds that the gRPC interceptor maps to
// status codes.
package server
