package main

import (
	"fmt"
	"io"
	"path/filepath"
	"runtime"
	"strings"
)

// compareChecks imports the same generated component into a fresh
// `tms serve` -rounds times with the quality checks on and as many with
// them off (the project's check_flags "ignore-all-checks": every check
// skipped), alternating which goes first, and writes the medians.
func compareChecks(c config, scratch string, w io.Writer) error {
	times := map[bool][]float64{} // seconds
	for round := range c.rounds {
		for i, on := range []bool{true, false} {
			if round%2 == 1 {
				on = i == 1
			}
			run := c
			run.projectFlags = ""
			if !on {
				run.projectFlags = "ignore-all-checks"
			}
			dir := filepath.Join(scratch, fmt.Sprintf("round%d-%v", round, on))
			svc, imp, err := startService(run, dir)
			if err != nil {
				return err
			}
			svc.stop()
			times[on] = append(times[on], imp.elapsed.Seconds())
		}
	}
	on, off := median(times[true]), median(times[false])
	var b strings.Builder
	b.WriteString("## Quality checks at import\n\n")
	fmt.Fprintf(&b, "Import through `tms serve` of %d strings, %d languages plus the source (%d units; %d CPUs), "+
		"%d rounds each way, alternating; median:\n\n", c.strings, c.languages, c.strings*(c.languages+1), runtime.NumCPU(), c.rounds)
	b.WriteString("| Quality checks | Import | Ratio to off | Goal | Met? |\n|---|---|---|---|---|\n")
	ratio := on / off
	met := "yes"
	if ratio > 1.2 {
		met = "**no**"
	}
	fmt.Fprintf(&b, "| off (`ignore-all-checks`) | %.1f s | 1.00 | | |\n", off)
	fmt.Fprintf(&b, "| on | %.1f s | %.2f | ≤ 1.20 | %s |\n\n", on, ratio, met)
	_, err := io.WriteString(w, b.String())
	return err
}
