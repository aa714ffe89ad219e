// Package grpcx runs the gRPC servers of the services and connects clients to
// them, in one process (an in-memory listener that keeps the real gRPC stack
// and interceptors) or across processes (TCP).
package grpcx
