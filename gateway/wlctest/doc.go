// Package wlctest drives the real Weblate command-line client, wlc (Debian
// package wlc), against the whole stack served over HTTP: the proof that
// an unmodified Weblate client works with the REST API. The test skips
// when wlc is not on PATH.
package wlctest
