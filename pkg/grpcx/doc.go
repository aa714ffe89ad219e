// Package grpcx runs the gRPC servers of the services and connects clients to
// them: across processes over TCP (Dial), or in one process, where unary
// calls go through a Local connection (the handler called directly under the
// same client and server interceptors) and streams over an in-memory
// listener that keeps the real gRPC stack (InProcess).
package grpcx
