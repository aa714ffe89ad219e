// Package e2e holds end-to-end tests that run the real tms binary: the split
// deployment (one process per service on PostgreSQL, the gateway dialing them
// over TCP) driven through the REST API as a client would.
package e2e
