package bench

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// concurrentClients is the load of issue 10's measurements (wrk -c8).
const concurrentClients = 8

// BenchmarkConcurrentMix runs 8 clients at once against the 1k component:
// each request is a units page, every fourth a unit PATCH. One op is one
// request; req/s is the throughput of all clients together.
func BenchmarkConcurrentMix(b *testing.B) {
	e := unitsFixture(b, 167)
	last := (167 + 49) / 50
	units := sampleUnits(e, last)
	var next atomic.Int64
	var lat latencies
	var mu sync.Mutex
	b.ResetTimer()
	start := time.Now()
	var wg sync.WaitGroup
	for range concurrentClients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var mine latencies
			for i := next.Add(1) - 1; i < int64(b.N); i = next.Add(1) - 1 {
				t0 := time.Now()
				if code, body := e.send(mixRequest(i, last, units)); code != 200 {
					b.Errorf("request %d: status %d: %s", i, code, clip(body))
					return
				}
				mine = append(mine, time.Since(t0))
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	b.StopTimer()
	lat.report(b)
	b.ReportMetric(float64(b.N)/elapsed.Seconds(), "req/s")
}

// mixRequest is request i of the mix: a PATCH every fourth, else a page.
func mixRequest(i int64, last int, units []sampledUnit) *http.Request {
	var req *http.Request
	if i%4 == 3 {
		u := units[int(i)%len(units)]
		target := make([]string, u.forms)
		for k := range target {
			target[k] = fmt.Sprintf("Concurrent edit %d/%d of %s", i, k, u.source)
		}
		data, _ := json.Marshal(map[string]any{"target": target, "state": 20})
		req = httptest.NewRequest("PATCH", fmt.Sprintf("http://tms.test/api/units/%d/", u.id), strings.NewReader(string(data)))
		req.Header.Set("Content-Type", "application/json")
	} else {
		req = httptest.NewRequest("GET", fmt.Sprintf("http://tms.test%s?page_size=50&page=%d", unitsPath, 1+int(i)%last), nil)
	}
	req.Header.Set("Authorization", "Token "+adminToken)
	return req
}
