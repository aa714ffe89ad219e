package summary

import (
	"fmt"
	"io"
	"slices"
	"strings"
)

// Machine describes where the benchmarks ran.
type Machine struct {
	CPUs      int
	CPUModel  string
	MemTotal  string
	GoVersion string
	OS        string
	Date      string
}

// Render writes BENCHMARKS.md: the table of targets, the benchmarks
// without a target, the machine and the commands.
func Render(w io.Writer, rep *Report, m Machine) error {
	var b strings.Builder
	b.WriteString("# Benchmarks\n\nWritten by `make bench` (scripts/bench.sh); do not edit by hand. " +
		"Each figure is the median over the runs (-count). Latency benchmarks time one REST request per op " +
		"through the gateway handler in process (real gRPC services, SQLite); p50/p99 are over the requests of a run. " +
		"Peak RSS is the process's maximum resident set (getrusage), fixtures included.\n\n")
	b.WriteString("| Benchmark | Runs | Median time/op | p50 | p99 | Peak RSS | Other metrics | Target | Met? |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|\n")
	listed := map[string]bool{}
	for _, t := range Targets {
		listed[t.Bench] = true
		b.WriteString(row(rep, t))
	}
	for _, r := range rep.Results {
		if !listed[r.Name] {
			b.WriteString(row(rep, Target{Bench: r.Name, Text: "—"}))
		}
	}
	fmt.Fprintf(&b, "\nFlat means the 250k median p50 is at most %.0f× the 1k one.\n", FlatFactor)
	fmt.Fprintf(&b, "\n## Machine\n\n- CPU: %s, %d logical CPUs (nproc)\n- Memory: %s\n- Go: %s (%s)\n- Date: %s\n",
		m.CPUModel, m.CPUs, m.MemTotal, m.GoVersion, m.OS, m.Date)
	b.WriteString("\n## Commands\n\n```sh\nmake bench   # runs scripts/bench.sh, which runs:\n")
	for _, c := range rep.Commands {
		b.WriteString(c + "\n")
	}
	b.WriteString("```\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// row is one table line; a benchmark that did not run says so.
func row(rep *Report, t Target) string {
	r := rep.Lookup(t.Bench)
	cells := []string{"`" + t.Bench + "`"}
	switch {
	case r == nil:
		return "| " + strings.Join(append(cells, "0", "—", "—", "—", "—", "—", t.Text, "not run"), " | ") + " |\n"
	case len(r.Runs) == 0:
		why := "no result"
		if r.Fail != "" {
			why = "**failed**: " + r.Fail
		} else if r.Skip != "" {
			why = "skipped: " + r.Skip
		}
		return "| " + strings.Join(append(cells, "0", "—", "—", "—", "—", "—", t.Text, escape(why)), " | ") + " |\n"
	}
	med := func(unit string, f func(float64) string) string {
		if v, ok := r.Median(unit); ok {
			return f(v)
		}
		return "—"
	}
	met := "—"
	if v, ok := t.Check(rep); ok {
		met = map[bool]string{true: "yes", false: "**no**"}[v.Met]
		if v.Reason != "" {
			met += " (" + v.Reason + ")"
		}
	}
	if r.Fail != "" {
		met = "**failed**: " + escape(r.Fail)
	}
	cells = append(cells, fmt.Sprint(len(r.Runs)), med("ns/op", duration), med("p50-ms", millis), med("p99-ms", millis),
		med("peak-RSS-MB", megabytes), others(r), t.Text, met)
	return "| " + strings.Join(cells, " | ") + " |\n"
}

// shown are the metrics with a column of their own.
var shown = []string{"ns/op", "p50-ms", "p99-ms", "peak-RSS-MB"}

// others lists the remaining metrics' medians, by name.
func others(r *Result) string {
	var units []string
	for _, run := range r.Runs {
		for u := range run {
			if !slices.Contains(shown, u) && !slices.Contains(units, u) {
				units = append(units, u)
			}
		}
	}
	slices.Sort(units)
	var parts []string
	for _, u := range units {
		v, _ := r.Median(u)
		parts = append(parts, fmt.Sprintf("%s %s", number(v), u))
	}
	if len(parts) == 0 {
		return "—"
	}
	return strings.Join(parts, ", ")
}

func duration(ns float64) string {
	switch {
	case ns >= 1e9:
		return fmt.Sprintf("%.2f s", ns/1e9)
	case ns >= 1e6:
		return fmt.Sprintf("%.2f ms", ns/1e6)
	default:
		return fmt.Sprintf("%.0f µs", ns/1e3)
	}
}

func millis(v float64) string    { return fmt.Sprintf("%.2f ms", v) }
func megabytes(v float64) string { return fmt.Sprintf("%.0f MB", v) }
func ratioText(r float64) string { return fmt.Sprintf("%.1f× the 1k p50", r) }

func number(v float64) string {
	if v == float64(int64(v)) {
		return fmt.Sprint(int64(v))
	}
	return fmt.Sprintf("%.1f", v)
}

func escape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
