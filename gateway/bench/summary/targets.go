package summary

// Target is a performance goal of one benchmark.
type Target struct {
	Bench  string  // benchmark name as printed, sub-benchmark included
	Metric string  // the unit compared: "ns/op" or "p50-ms"
	Limit  float64 // upper bound in Metric's unit; 0: measured, no goal
	// FlatWith names the small-scale benchmark whose Metric this one may
	// exceed by at most FlatFactor ("flat between 1k and 250k").
	FlatWith string
	Text     string // the goal as the report states it
}

// FlatFactor is how much slower the large case may be and still count
// as flat: the noise of a p50 on a shared 2-core machine, not growth
// with the table.
const FlatFactor = 2.0

// Targets are the goals of the performance issue, in report order.
var Targets = []Target{
	{Bench: "BenchmarkImportBleachbit", Metric: "ns/op", Limit: 3e9, Text: "< 3 s"},
	{Bench: "BenchmarkImportGenerated250k", Metric: "ns/op", Limit: 30e9, Text: "< 30 s"},
	{Bench: "BenchmarkImportJSON40k", Metric: "ns/op", Text: "measured (no target)"},
	{Bench: "BenchmarkUnitsListPage/1k", Metric: "p50-ms", Limit: 5, Text: "p50 < 5 ms"},
	{Bench: "BenchmarkUnitsListPage/250k", Metric: "p50-ms", Limit: 5, FlatWith: "BenchmarkUnitsListPage/1k",
		Text: "p50 < 5 ms, flat vs 1k"},
	{Bench: "BenchmarkUnitPatch/1k", Metric: "p50-ms", Limit: 5, Text: "p50 < 5 ms"},
	{Bench: "BenchmarkUnitPatch/250k", Metric: "p50-ms", Limit: 5, FlatWith: "BenchmarkUnitPatch/1k",
		Text: "p50 < 5 ms, flat vs 1k"},
	{Bench: "BenchmarkCommit10kEdits", Metric: "ns/op", Text: "measured (no target)"},
	{Bench: "BenchmarkUpload5k", Metric: "ns/op", Text: "measured (no target)"},
}

// Verdict is the outcome of one target.
type Verdict struct {
	Met    bool
	Reason string // why not, or the flatness ratio
}

// Check compares a benchmark's medians with its target. ok is false when
// the target has no limit or the benchmark has no runs.
func (t Target) Check(rep *Report) (v Verdict, ok bool) {
	r := rep.Lookup(t.Bench)
	if t.Limit == 0 || r == nil || len(r.Runs) == 0 {
		return Verdict{}, false
	}
	got, found := r.Median(t.Metric)
	if !found {
		return Verdict{Reason: "metric " + t.Metric + " missing"}, true
	}
	v = Verdict{Met: got < t.Limit}
	if !v.Met {
		v.Reason = "over the limit"
	}
	if t.FlatWith == "" {
		return v, true
	}
	base := rep.Lookup(t.FlatWith)
	if base == nil {
		return Verdict{Reason: t.FlatWith + " did not run"}, true
	}
	small, found := base.Median(t.Metric)
	if !found || small <= 0 {
		return Verdict{Reason: t.FlatWith + " has no " + t.Metric}, true
	}
	ratio := got / small
	v.Reason = joinReason(v.Reason, ratioText(ratio))
	if ratio > FlatFactor {
		v.Met = false
		v.Reason = joinReason(v.Reason, "not flat")
	}
	return v, true
}

func joinReason(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}
