// Package origin creates, for benchmarks and client tests, a bare git
// repository holding a given set of files in one commit. It uses go-git in
// process, so no git binary is needed, and it is what a component's repo
// points at when local repositories are allowed.
package origin
