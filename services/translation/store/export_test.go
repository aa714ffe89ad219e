package store

import "testing"

// SplitScans makes every SQLite search of the test scan its units in parts
// id ranges, however few units there are.
func SplitScans(t testing.TB, parts int) {
	t.Helper()
	oldMin, oldParts := splitScanMin, scanParts
	splitScanMin, scanParts = 1, func() int { return parts }
	t.Cleanup(func() { splitScanMin, scanParts = oldMin, oldParts })
}
