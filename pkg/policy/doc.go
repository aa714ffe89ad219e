// Package policy decides who may see what, once, for every service.
//
// The caller of a request travels with it: the gateway puts the
// authenticated user (or the anonymous caller) into the request context,
// the client interceptor copies it into gRPC metadata, and the server
// interceptor of every service takes it out again, so a service that calls
// another on a user's behalf forwards the same caller. A context without a
// caller is the service's own work (an import, the outbox relay) and sees
// everything.
//
// Visibility is the reference's access control (COMPAT.md §4): projects
// with access_control public (0) or protected (1) are visible to everyone;
// private (100) and custom (200) projects only to superusers. What a caller
// may not see does not exist for it: services filter it out of every list,
// count and sum, and answer NotFound for single reads.
//
// Trust: the metadata is believed as sent. Any process that reaches a
// service port can claim any caller, as it can call any RPC today;
// authenticating service-to-service calls is the next step (issue 8).
package policy
