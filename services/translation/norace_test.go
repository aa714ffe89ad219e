//go:build !race

package translation_test

// raceScale stretches the waits of the tests under the race detector.
const raceScale = 1
