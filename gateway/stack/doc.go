// Package stack assembles the services and the REST gateway into one
// process, or into one service per process for split deployments.
//
// In the all-in-one mode every service gets its own gRPC server on an
// in-memory listener, so calls between services and from the gateway travel
// through the real gRPC stack (codecs, interceptors, status mapping) exactly
// as they do across processes. In split mode a process runs the services
// named in Config.Services on TCP and dials the others by address.
package stack
