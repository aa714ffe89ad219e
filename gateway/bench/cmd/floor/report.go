package main

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"github.com/tmsproject/tms/gateway/bench"
)

// ratioTarget is the goal for every load scenario: the service
// does at least half the baseline's work per second.
const ratioTarget = 0.5

// writeReport writes the side-by-side section of BENCHMARKS.md.
func writeReport(w io.Writer, c config, imp importResult, rates []rate, settled bench.Settled) error {
	var b strings.Builder
	if c.wrk != "" {
		writeWrkReport(&b, c, rates)
		writeImportRows(&b, c, imp)
		writeIndexRow(&b, c, settled)
		_, err := io.WriteString(w, b.String())
		return err
	}
	fmt.Fprintf(&b, "## Side by side with the floor\n\n"+
		"`make bench` runs `floor` (gateway/bench/cmd/floor): it builds ../shared/perf/baseline, the least work "+
		"that answers the same requests from SQLite (no gRPC, no authentication, no lookups), seeds it with %d "+
		"strings in %d translations, imports a generated component of the same shape into `tms serve` on a fresh "+
		"data directory through the REST API, and drives both over HTTP with the same Go load generator: %d "+
		"concurrent keep-alive clients, %d rounds of %v per scenario and server, alternating; the median round is "+
		"shown. The service's requests carry an API token (the admin's); edits touch distinct units of one "+
		"translation. Goal: a ratio of %.1f or better.\n\n", c.strings, c.languages+1, c.clients, c.rounds,
		c.duration, ratioTarget)
	b.WriteString("| Scenario | Baseline | Service | Ratio | Goal | Met? |\n|---|---|---|---|---|---|\n")
	for _, r := range rates {
		ratio := r.service / r.baseline
		met := map[bool]string{true: "yes", false: "**no**"}[ratio >= ratioTarget]
		if r.errors > 0 {
			met += fmt.Sprintf(" (%d answers not 200)", r.errors)
		}
		fmt.Fprintf(&b, "| %s | %.0f req/s | %.0f req/s | %.2f | ≥ %.1f | %s |\n", r.name, r.baseline, r.service,
			ratio, ratioTarget, met)
	}
	b.WriteString("\n")
	writeImportRows(&b, c, imp)
	writeIndexRow(&b, c, settled)
	_, err := io.WriteString(w, b.String())
	return err
}

// writeIndexRow says how long the search index took to cover the import
// and the memory to take its strings (the service does both in the
// background); the measurements began after.
func writeIndexRow(b *strings.Builder, c config, settled bench.Settled) {
	index := "FTS5 trigram"
	if c.postgres {
		index = "pg_trgm GIN"
	}
	fmt.Fprintf(b, "The search index (%s) covered every unit %.0f s after the import, and the translation memory "+
		"held its translated strings %.0f s after it; the rounds ran after that.\n\n",
		index, settled.Indexed.Seconds(), settled.Remembered.Seconds())
}

// writeImport writes the import row alone (-import-only), and the upload
// and search rows when there are some.
func writeImport(w io.Writer, c config, imp importResult, up *uploadResult, found []searchResult, settled bench.Settled) error {
	var b strings.Builder
	writeImportRows(&b, c, imp)
	if up != nil {
		writeUploadRow(&b, *up)
	}
	if len(found) > 0 {
		writeSearchRows(&b, c, imp.units, found, settled)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeImportRows(b *strings.Builder, c config, imp importResult) {
	engine := "SQLite"
	if c.postgres {
		engine = "PostgreSQL"
	}
	fmt.Fprintf(b, "Import through `tms serve` (%s; %d strings, %d languages plus the source, %d units; %d CPUs): "+
		"%.1f s, %.0f units/s, peak RSS of the process %d MB.\n\n", engine, c.strings, c.languages, imp.units,
		runtime.NumCPU(), imp.elapsed.Seconds(), float64(imp.units)/imp.elapsed.Seconds(), imp.peakRSS>>20)
}

// wrkRatioTarget is issue 28's goal: 0.7 of the floor at 8 and at 64
// connections.
const wrkRatioTarget = 0.7

// writeWrkReport writes the side-by-side rows measured with wrk.
func writeWrkReport(b *strings.Builder, c config, rates []rate) {
	fmt.Fprintf(b, "### Side by side with the floor, wrk at %d connections\n\n"+
		"`floor -wrk` (gateway/bench/cmd/floor) seeds ../shared/perf/baseline and `tms serve` with %d strings in %d "+
		"translations and drives both with `wrk -t2 -c%d -d%v --latency`, %d rounds per scenario and server, "+
		"alternating; the median round is shown. Edits come from a Lua script of %d distinct requests. "+
		"Goal: a ratio of %.1f or better, no errors.\n\n", c.clients, c.strings, c.languages+1, c.clients,
		c.duration, c.rounds, wrkRequests, wrkRatioTarget)
	b.WriteString("| Scenario | Baseline | Service | Ratio | p99 baseline / service | Met? |\n|---|---|---|---|---|---|\n")
	for _, r := range rates {
		ratio := r.service / r.baseline
		met := map[bool]string{true: "yes", false: "**no**"}[ratio >= wrkRatioTarget && r.errors == 0]
		if r.errors > 0 {
			met += fmt.Sprintf(" (%d errors)", r.errors)
		}
		fmt.Fprintf(b, "| %s | %.0f req/s | %.0f req/s | %.2f | %v / %v | %s |\n", r.name, r.baseline, r.service,
			ratio, r.baseP99.Round(10*time.Microsecond), r.svcP99.Round(10*time.Microsecond), met)
	}
	b.WriteString("\n")
	writeProfiles(b, c, rates)
}

// profileLines is how many functions of a profile the report shows.
const profileLines = 30

// profileHide leaves out of a profile's report the frames every request
// passes through (the runtime, HTTP and gRPC plumbing, the interceptors),
// so that its lines name the work.
const profileHide = `^runtime\.|^internal/|^net/http\.|^google.golang.org/grpc\.|grpcx\.|otelhttp|HTTPHandler|^sync\.|^syscall\.`

// writeProfiles writes, for every scenario profiled (-pprof), the top of
// `go tool pprof -top -cum` of its extra round: where the service's time
// goes, for the next person to look.
func writeProfiles(b *strings.Builder, c config, rates []rate) {
	for _, r := range rates {
		if r.profile == "" || c.trace {
			continue
		}
		out, err := exec.Command("go", "tool", "pprof", "-top", "-cum", fmt.Sprintf("-nodecount=%d", profileLines), //nolint:gosec // G204: the benchmark's own profile and binary
			"-hide", profileHide, c.tms, r.profile).Output()
		if err != nil {
			fmt.Fprintf(os.Stderr, "floor: pprof %s: %v\n", r.profile, err)
			continue
		}
		fmt.Fprintf(b, "CPU profile of the service, %s (`go tool pprof -top -cum`, plumbing frames hidden; "+
			"one extra round at %d connections, not counted above):\n\n```\n%s```\n\n",
			r.name, c.clients, pprofExcerpt(string(out)))
	}
}

// pprofExcerpt drops pprof's header lines up to the total, and the
// file and build lines that change with every binary.
func pprofExcerpt(out string) string {
	var keep []string
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "File:") || strings.HasPrefix(line, "Build ID:") || strings.HasPrefix(line, "Time:") ||
			strings.HasPrefix(line, "Active filters:") || strings.HasPrefix(line, "   hide=") {
			continue
		}
		keep = append(keep, line)
	}
	return strings.Join(keep, "\n")
}
