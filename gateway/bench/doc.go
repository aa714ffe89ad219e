// Package bench holds the performance benchmarks of the whole stack (run by
// `make bench`, which writes BENCHMARKS.md): component import from git, the
// units list page and unit edits through the REST handler, committing
// pending edits and uploading a PO file. Every benchmark builds its own
// stack (SQLite in a temporary directory, in-process gRPC) inside the
// benchmark, so `go test` without -bench runs only the quick tests of the
// generator.
//
// Gen is the generator of realistic gettext components the benchmarks
// import; it lives outside the test files so that its own tests keep it
// honest.
package bench
