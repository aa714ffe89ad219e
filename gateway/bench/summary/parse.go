package summary

import (
	"bufio"
	"io"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Result is every run of one benchmark.
type Result struct {
	Name string
	Runs []map[string]float64 // metric unit -> value, one map per run
	Skip string               // why it skipped (first reason seen)
	Fail string               // why it failed
}

// Report is a parsed benchmark output.
type Report struct {
	Results  []*Result // in order of first appearance
	Commands []string  // "# command: …" lines the script wrote
	byName   map[string]*Result
}

// benchLine is "BenchmarkName-4   <N>   <value> <unit> ...".
var benchLine = regexp.MustCompile(`^(Benchmark\S+?)(?:-\d+)?\s+(\d+)\s+(.*)$`)

// status is "--- SKIP: BenchmarkName" (or FAIL).
var status = regexp.MustCompile(`^\s*--- (SKIP|FAIL): (Benchmark\S+)`)

// Parse reads go test -bench output; other lines are ignored. The reason
// of a skip or failure is the first indented log line after its status
// line.
func Parse(r io.Reader) (*Report, error) {
	rep := &Report{byName: map[string]*Result{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var pending *string // the reason field awaiting its first log line
	for sc.Scan() {
		line := sc.Text()
		if pending != nil && strings.HasPrefix(line, "    ") {
			if *pending == "" {
				*pending = reason(line)
			}
			continue
		}
		pending = nil
		switch {
		case strings.HasPrefix(line, "# command: "):
			rep.Commands = append(rep.Commands, strings.TrimPrefix(line, "# command: "))
		case status.MatchString(line):
			m := status.FindStringSubmatch(line)
			res := rep.result(m[2])
			if m[1] == "SKIP" {
				pending = &res.Skip
			} else {
				pending = &res.Fail
			}
			if *pending != "" {
				pending = new(string) // keep the first reason
			}
		case benchLine.MatchString(line):
			m := benchLine.FindStringSubmatch(line)
			if run, ok := metrics(m[3]); ok {
				res := rep.result(m[1])
				res.Runs = append(res.Runs, run)
			}
		}
	}
	return rep, sc.Err()
}

// reason strips the "file_test.go:12: " prefix of a log line.
func reason(line string) string {
	line = strings.TrimSpace(line)
	if i := strings.Index(line, ".go:"); i >= 0 {
		if j := strings.Index(line[i:], ": "); j >= 0 {
			return line[i+j+2:]
		}
	}
	return line
}

// metrics reads "<value> <unit>" pairs.
func metrics(s string) (map[string]float64, bool) {
	f := strings.Fields(s)
	if len(f) < 2 || len(f)%2 != 0 {
		return nil, false
	}
	out := map[string]float64{}
	for i := 0; i < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return nil, false
		}
		out[f[i+1]] = v
	}
	return out, true
}

func (rep *Report) result(name string) *Result {
	if r, ok := rep.byName[name]; ok {
		return r
	}
	r := &Result{Name: name}
	rep.byName[name] = r
	rep.Results = append(rep.Results, r)
	return r
}

// Lookup returns the result of a benchmark, nil if it did not run.
func (rep *Report) Lookup(name string) *Result { return rep.byName[name] }

// Median is the median of a metric over the runs that report it, and
// whether any does.
func (r *Result) Median(unit string) (float64, bool) {
	var vs []float64
	for _, run := range r.Runs {
		if v, ok := run[unit]; ok {
			vs = append(vs, v)
		}
	}
	if len(vs) == 0 {
		return 0, false
	}
	return median(vs), true
}

func median(vs []float64) float64 {
	s := slices.Clone(vs)
	slices.Sort(s)
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}
