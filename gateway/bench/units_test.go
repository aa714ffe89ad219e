package bench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// unitSizes are the database sizes the unit benchmarks compare: a
// component of 167 strings (1k units with its five translations and the
// source) and the generated 250k-unit component. A flat latency between
// them shows that neither a page nor an edit scans the table.
var unitSizes = []struct {
	name    string
	strings int
}{{"1k", 167}, {"250k", genStrings}}

// unitsFixture is the shared stack holding bench/app of one size.
func unitsFixture(b *testing.B, strings int) *env {
	return sharedEnv(b, fmt.Sprintf("units-%d", strings), func(e *env) {
		e.project()
		generatedComponent(e, "app", strings, GenLanguages, 85, nil)
		if got, want := e.count("/api/units/"), strings*(len(GenLanguages)+1); got != want {
			e.tb.Fatalf("fixture has %d units, want %d", got, want)
		}
	})
}

const unitsPath = "/api/translations/bench/app/de/units/"

// BenchmarkUnitsListPage GETs pages of 50 units of the de translation
// (first pages, the middle, the last and random ones); one op is one
// request. Target: p50 under 5 ms, flat between 1k and 250k.
func BenchmarkUnitsListPage(b *testing.B) {
	for _, size := range unitSizes {
		b.Run(size.name, func(b *testing.B) {
			e := unitsFixture(b, size.strings)
			last := (size.strings + 49) / 50
			pages := pageMix(last)
			var all, deep latencies
			// Bytes and allocations per request, of the whole process
			// (gateway and services, background work included).
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				page := pages[i%len(pages)]
				req := httptest.NewRequest("GET", fmt.Sprintf("http://tms.test%s?page_size=50&page=%d", unitsPath, page), nil)
				req.Header.Set("Authorization", "Token "+adminToken)
				start := time.Now()
				code, body := e.send(req)
				d := time.Since(start)
				all = append(all, d)
				if page == last {
					deep = append(deep, d)
				}
				if code != 200 {
					b.Fatalf("page %d: status %d: %s", page, code, clip(body))
				}
				if i < len(pages) {
					checkPage(b, body, page, last, size.strings)
				}
			}
			b.StopTimer()
			all.report(b)
			if len(deep) > 0 {
				b.ReportMetric(float64(deep.percentile(0.5))/float64(time.Millisecond), "last-page-p50-ms")
			}
			reportMemory(b)
		})
	}
}

// pageMix is the order pages are requested in: the first ones, quarters,
// the last two (deep pages), then random pages.
func pageMix(last int) []int {
	pages := []int{1, 2, 3, max(last/4, 1), max(last/2, 1), max(3*last/4, 1), max(last-1, 1), last}
	r := rand.New(rand.NewPCG(1, 2))
	for range 24 {
		pages = append(pages, 1+r.IntN(last))
	}
	return pages
}

// checkPage decodes a page and checks its count and length.
func checkPage(b *testing.B, body []byte, page, last, total int) {
	var p struct {
		Count   int `json:"count"`
		Results []struct {
			ID int64 `json:"id"`
		} `json:"results"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		b.Fatal(err)
	}
	want := 50
	if page == last {
		want = total - 50*(last-1)
	}
	if p.Count != total || len(p.Results) != want {
		b.Fatalf("page %d: count %d, %d results; want %d, %d", page, p.Count, len(p.Results), total, want)
	}
}

// BenchmarkUnitPatch PATCHes units of the de translation spread over the
// whole file with a new target each time; one op is one request. Target:
// p50 under 5 ms, flat between 1k and 250k.
func BenchmarkUnitPatch(b *testing.B) {
	for _, size := range unitSizes {
		b.Run(size.name, func(b *testing.B) {
			e := unitsFixture(b, size.strings)
			units := sampleUnits(e, (size.strings+49)/50)
			var lat latencies
			b.ReportAllocs() // of the whole process, as in BenchmarkUnitsListPage
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				u := units[i%len(units)]
				target := make([]string, u.forms)
				for k := range target {
					target[k] = fmt.Sprintf("Bench edit %d/%d of %s", i, k, u.source)
				}
				data, _ := json.Marshal(map[string]any{"target": target, "state": 20})
				req := httptest.NewRequest("PATCH", fmt.Sprintf("http://tms.test/api/units/%d/", u.id), strings.NewReader(string(data)))
				req.Header.Set("Authorization", "Token "+adminToken)
				req.Header.Set("Content-Type", "application/json")
				start := time.Now()
				code, body := e.send(req)
				lat = append(lat, time.Since(start))
				if code != 200 {
					b.Fatalf("PATCH unit %d: status %d: %s", u.id, code, clip(body))
				}
			}
			b.StopTimer()
			lat.report(b)
			reportMemory(b)
		})
	}
}

type sampledUnit struct {
	id     int64
	forms  int
	source string
}

// sampleUnits collects the units of the pages of pageMix: the first,
// the middle and the end of the file.
func sampleUnits(e *env, last int) []sampledUnit {
	var out []sampledUnit
	for _, page := range pageMix(last)[:8] {
		var p struct {
			Results []struct {
				ID     int64    `json:"id"`
				Source []string `json:"source"`
				Target []string `json:"target"`
			} `json:"results"`
		}
		e.must(200, "GET", fmt.Sprintf("%s?page_size=50&page=%d", unitsPath, page), nil, &p)
		for _, u := range p.Results {
			out = append(out, sampledUnit{id: u.ID, forms: max(len(u.Target), 1), source: u.Source[0]})
		}
	}
	return out
}
