// Package e2e holds end-to-end tests of whole deployments: the real tms
// binary in a split deployment (one process per service on PostgreSQL, the
// gateway dialing them over TCP) driven through the REST API as a client
// would, and every service in one process listening on TCP, driven by an
// internal caller with the generated gRPC clients beside a REST client.
package e2e
