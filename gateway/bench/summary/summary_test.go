package summary

import (
	"strings"
	"testing"
)

const sample = `# command: bench.test -test.bench X
goos: linux
BenchmarkImportBleachbit-2   	       1	1600000000 ns/op	       183.2 peak-RSS-MB	     31496 units
BenchmarkImportBleachbit-2   	       1	2000000000 ns/op	       190.0 peak-RSS-MB	     31496 units
BenchmarkImportBleachbit-2   	       1	4000000000 ns/op	       191.0 peak-RSS-MB	     31496 units
BenchmarkUnitsListPage/1k-2         	     200	   2041861 ns/op	         1.5 p50-ms	         3.0 p99-ms
BenchmarkUnitsListPage/250k
BenchmarkUnitsListPage/250k-2       	     200	 216910729 ns/op	       251.0 p50-ms	       421.1 p99-ms
BenchmarkUnitPatch/1k-2             	     200	   2125985 ns/op	         2.0 p50-ms	         3.4 p99-ms
BenchmarkUnitPatch/250k-2           	     200	   3233806 ns/op	         2.4 p50-ms	        10.1 p99-ms
--- SKIP: BenchmarkCommit10kEdits
    repo_test.go:29: commit is not implemented yet: 500 | x
--- SKIP: BenchmarkCommit10kEdits
    repo_test.go:29: second reason
--- FAIL: BenchmarkUpload5k
    repo_test.go:150: upload: 400 {}
PASS
`

func TestParseMedians(t *testing.T) {
	rep, err := Parse(strings.NewReader(sample))
	if err != nil {
		t.Fatal(err)
	}
	imp := rep.Lookup("BenchmarkImportBleachbit")
	if imp == nil || len(imp.Runs) != 3 {
		t.Fatalf("import result = %+v", imp)
	}
	tests := []struct {
		bench, unit string
		want        float64
	}{
		{"BenchmarkImportBleachbit", "ns/op", 2e9},
		{"BenchmarkImportBleachbit", "peak-RSS-MB", 190},
		{"BenchmarkUnitsListPage/250k", "p99-ms", 421.1},
	}
	for _, tt := range tests {
		if got, ok := rep.Lookup(tt.bench).Median(tt.unit); !ok || got != tt.want {
			t.Errorf("%s %s median = %v, %v; want %v", tt.bench, tt.unit, got, ok, tt.want)
		}
	}
	if c := rep.Lookup("BenchmarkCommit10kEdits"); c.Skip != "commit is not implemented yet: 500 | x" || len(c.Runs) != 0 {
		t.Errorf("commit skip = %q", c.Skip)
	}
	if u := rep.Lookup("BenchmarkUpload5k"); u.Fail != "upload: 400 {}" {
		t.Errorf("upload fail = %q", u.Fail)
	}
	if len(rep.Commands) != 1 {
		t.Errorf("commands = %q", rep.Commands)
	}
}

func TestMedianEven(t *testing.T) {
	if got := median([]float64{4, 1, 3, 2}); got != 2.5 {
		t.Errorf("median = %v", got)
	}
}

func TestCheckTargets(t *testing.T) {
	rep, _ := Parse(strings.NewReader(sample))
	tests := []struct {
		bench  string
		met    bool
		reason string
	}{
		{"BenchmarkImportBleachbit", true, ""},
		{"BenchmarkUnitsListPage/1k", true, ""},
		{"BenchmarkUnitsListPage/250k", false, "over the limit; 167.3× the 1k p50; not flat"},
		{"BenchmarkUnitPatch/250k", true, "1.2× the 1k p50"},
	}
	for _, tt := range tests {
		for _, target := range Targets {
			if target.Bench != tt.bench {
				continue
			}
			v, ok := target.Check(rep)
			if !ok || v.Met != tt.met || v.Reason != tt.reason {
				t.Errorf("%s: %+v, %v; want met %v reason %q", tt.bench, v, ok, tt.met, tt.reason)
			}
		}
	}
}

func TestRender(t *testing.T) {
	rep, _ := Parse(strings.NewReader(sample))
	var b strings.Builder
	if err := Render(&b, rep, Machine{CPUs: 2, CPUModel: "Test CPU", MemTotal: "1.0 GiB", GoVersion: "go1.26.0"}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"| `BenchmarkImportBleachbit` | 3 | 2.00 s | — | — | 190 MB | 31496 units | < 3 s | yes |",
		"| `BenchmarkUnitsListPage/250k` | 1 | 216.91 ms | 251.00 ms | 421.10 ms |",
		"skipped: commit is not implemented yet: 500 \\| x",
		"**failed**: upload: 400 {}",
		"Test CPU, 2 logical CPUs", "bench.test -test.bench X",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("report lacks %q:\n%s", want, out)
		}
	}
}

func TestMemText(t *testing.T) {
	if got := memText("24576000 kB"); got != "23.4 GiB" {
		t.Errorf("memText = %q", got)
	}
}
