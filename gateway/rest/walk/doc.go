// Package walk holds the end-to-end test of the REST gateway: it starts
// every real service in-process, loads a small repository and follows every
// API URL found in every response, checking that each one resolves.
package walk
