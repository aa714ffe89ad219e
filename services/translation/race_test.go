//go:build race

package translation_test

// raceScale stretches the waits of the tests under the race detector,
// which slows an import down several times.
const raceScale = 10
