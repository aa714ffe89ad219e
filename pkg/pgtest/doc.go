// Package pgtest gives tests a throwaway PostgreSQL database.
//
// URL returns TMS_TEST_DATABASE_URL when it is set. Otherwise the first call
// in a test binary starts a private cluster with the PostgreSQL binaries on
// PATH (initdb, postgres), listening only on a unix socket in a short
// temporary directory (no port to collide on), and every call creates a
// fresh database for the calling test, dropped when the test ends. Tests are therefore isolated from each other
// and may run in parallel.
//
// A package that uses PostgreSQL in several tests should declare
//
//	func TestMain(m *testing.M) { pgtest.Main(m) }
//
// so that the cluster starts once (lazily, on the first URL call) and stops
// when the binary exits. Without Main the cluster is reference-counted by the
// tests using it and stopped when the last of them finishes, which is
// correct but restarts it for each sequential test. Either way the server is
// tied to the test binary with a parent-death signal, so a crashed or killed
// test run leaves no server behind, and stale directories of dead runs are
// swept on the next start.
//
// Clusters live under /dev/shm when it is a roomy tmpfs (else the temporary
// directory): a cluster writes about 40 MB, which on a slow disk dominates
// start-up. The first freshly initialised data directory is kept there as a
// template (tmspgtmpl-*, keyed by the initdb binary), so later clusters are
// copied in milliseconds instead of running initdb.
//
// When the binaries are missing the test fails with a message saying what
// to install; TMS_TEST_SKIP_POSTGRES=1 turns PostgreSQL tests into skips
// instead.
package pgtest
