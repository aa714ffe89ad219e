// Package dbtest runs storage tests against both database engines.
//
// Every service's storage conformance suite calls Engines, which runs the
// same test body on a fresh SQLite file and on a fresh PostgreSQL database
// (see package pgtest), each migrated with the service's migration sources.
// Packages using it should declare
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
// so that the PostgreSQL test cluster starts once per test binary.
package dbtest
