// Command benchsum reads `go test -bench` output (files named on the
// command line, or standard input) and writes the BENCHMARKS.md report to
// standard output. scripts/bench.sh runs it.
package main
