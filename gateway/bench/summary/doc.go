// Package summary turns the text output of `go test -bench` (several runs
// of each benchmark, as -count gives) into the BENCHMARKS.md report: the
// median of every metric, the product's performance targets and whether
// each is met, and the machine the numbers were taken on.
package summary
