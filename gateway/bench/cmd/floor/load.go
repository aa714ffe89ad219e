package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// unitsPath is the service's units list of the measured translation.
const unitsPath = "/api/translations/bench/floor/de/units/"

// scenario is one kind of request, built for each server; i counts the
// requests of a round across its clients, so edits touch distinct units,
// and round makes every round's text new, so no edit is a no-op.
type scenario struct {
	name              string
	baseline, service func(round, i int64) *http.Request
}

// rate is the median throughput of one scenario on both servers.
type rate struct {
	name              string
	baseline, service float64 // requests per second, median of the rounds
	errors            int64   // answers other than 200, both servers
	// p99 latencies, median of the rounds (with wrk only).
	baseP99, svcP99 time.Duration
	// profile is the CPU profile of an extra round of the service (-pprof),
	// "" when none was taken.
	profile string
}

// sampled is one unit of the measured translation: its id and its forms.
type sampled struct {
	id    int64
	forms int
}

func scenarios(c config, base, svc *server, units []sampled) []scenario {
	last := (c.strings + 49) / 50
	deep := min(830, last)
	page := func(p int) scenario {
		return scenario{
			name: fmt.Sprintf("units page %d of %d", p, last),
			baseline: func(_, _ int64) *http.Request {
				return get(fmt.Sprintf("%s/units/?translation=2&page=%d", base.base, p))
			},
			service: func(_, _ int64) *http.Request {
				r := get(fmt.Sprintf("%s%s?page=%d", svc.base, unitsPath, p))
				r.Header.Set("Authorization", "Token "+adminToken)
				return r
			},
		}
	}
	edit := scenario{
		name: "unit PATCH, distinct units",
		baseline: func(round, i int64) *http.Request {
			id := int64(c.strings) + 1 + i%int64(c.strings) // translation 2's ids follow the source's
			q := url.Values{"id": {fmt.Sprint(id)}, "target": {fmt.Sprintf("Floor edit %d/%d", round, i)}}
			r, _ := http.NewRequest("POST", base.base+"/edit/?"+q.Encode(), nil)
			return r
		},
		service: func(round, i int64) *http.Request { return editRequest(svc, units, "Floor", round, i) },
	}
	return []scenario{page(1), page(deep), edit}
}

func get(u string) *http.Request {
	r, _ := http.NewRequest("GET", u, nil)
	return r
}

// measure runs every scenario c.rounds times on each server, alternating,
// and takes the medians.
func measure(c config, base, svc *server) ([]rate, error) {
	units, err := sampleUnits(svc, c.strings)
	if err != nil {
		return nil, err
	}
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: c.clients, MaxConnsPerHost: c.clients}}
	var out []rate
	for _, sc := range scenarios(c, base, svc, units) {
		if c.only != "" && !strings.Contains(sc.name, c.only) {
			continue
		}
		var b, s []float64
		var bp, sp []time.Duration
		r := rate{name: sc.name}
		for round := range int64(c.rounds) {
			for _, side := range []struct {
				name  string
				build func(int64, int64) *http.Request
				into  *[]float64
				p99   *[]time.Duration
			}{{"baseline", sc.baseline, &b, &bp}, {"service", sc.service, &s, &sp}} {
				res, err := runRound(c, client, func(i int64) *http.Request { return side.build(round, i) })
				if err != nil {
					return nil, err
				}
				// Each round on stderr: the median hides how far they spread.
				fmt.Fprintf(os.Stderr, "floor: %s round %d %s: %.0f req/s, p99 %v\n", sc.name, round+1, side.name, res.rps, res.p99)
				*side.into, *side.p99 = append(*side.into, res.rps), append(*side.p99, res.p99)
				r.errors += res.errors
			}
		}
		if c.pprof != "" {
			// One more round of the service, not counted, under the
			// profiler (whose sampling would slow a measured one).
			stop := profile(c, sc.name)
			_, err := runRound(c, client, func(i int64) *http.Request { return sc.service(int64(c.rounds), i) })
			r.profile = stop()
			if err != nil {
				return nil, err
			}
		}
		r.baseline, r.service = median(b), median(s)
		r.baseP99, r.svcP99 = medianDuration(bp), medianDuration(sp)
		fmt.Printf("%-32s baseline %8.0f req/s  service %8.0f req/s  ratio %.2f  p99 %v / %v  (errors %d)\n",
			sc.name, r.baseline, r.service, r.service/r.baseline, r.baseP99, r.svcP99, r.errors)
		out = append(out, r)
	}
	return out, nil
}

// runRound drives one round of requests with wrk, or else with the Go
// load generator (whose results have no p99).
func runRound(c config, client *http.Client, build func(int64) *http.Request) (wrkResult, error) {
	if c.wrk != "" {
		return wrkLoad(c, build)
	}
	rps, errs := load(client, c.clients, c.duration, build)
	return wrkResult{rps: rps, errors: errs}, nil
}

func medianDuration(xs []time.Duration) time.Duration {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// load runs clients loops of requests for d and returns the rate of 200
// answers and the count of other answers.
func load(client *http.Client, clients int, d time.Duration, build func(int64) *http.Request) (float64, int64) {
	var next, ok, bad atomic.Int64
	var first sync.Once // the first failure is printed, to say what went wrong
	var wg sync.WaitGroup
	start := time.Now()
	end := start.Add(d)
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for time.Now().Before(end) {
				resp, err := client.Do(build(next.Add(1) - 1))
				if err != nil {
					bad.Add(1)
					first.Do(func() { fmt.Fprintln(os.Stderr, "floor: request failed:", err) })
					continue
				}
				body, _ := io.ReadAll(resp.Body)
				_ = resp.Body.Close()
				if resp.StatusCode == 200 {
					ok.Add(1)
					continue
				}
				bad.Add(1)
				first.Do(func() {
					fmt.Fprintf(os.Stderr, "floor: %s %s: %d %.300s\n", resp.Request.Method, resp.Request.URL, resp.StatusCode, body)
				})
			}
		}()
	}
	wg.Wait()
	return float64(ok.Load()) / time.Since(start).Seconds(), bad.Load()
}

// sampleUnits lists the measured translation's units, in order.
func sampleUnits(svc *server, n int) ([]sampled, error) {
	units := make([]sampled, 0, n)
	for page := 1; len(units) < n; page++ {
		body, err := call(svc, "GET", fmt.Sprintf("%s?page_size=10000&page=%d", unitsPath, page), nil, 200)
		if err != nil {
			return nil, err
		}
		var p struct {
			Results []struct {
				ID     int64    `json:"id"`
				Target []string `json:"target"`
			} `json:"results"`
			Next *string `json:"next"`
		}
		if err := json.Unmarshal(body, &p); err != nil {
			return nil, err
		}
		for _, u := range p.Results {
			units = append(units, sampled{id: u.ID, forms: max(len(u.Target), 1)})
		}
		if p.Next == nil {
			break
		}
	}
	if len(units) == 0 {
		return nil, fmt.Errorf("no units in %s", unitsPath)
	}
	return units, nil
}

func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Clone(xs)
	slices.Sort(s)
	return s[len(s)/2]
}

// profile takes a CPU profile (or with -trace an execution trace) of the
// service through its metrics listener (-pprof) while one round runs,
// into -pprof-dir; the returned function waits for it and answers its
// path ("" when it failed).
func profile(c config, name string) (wait func() string) {
	done := make(chan struct{})
	kind, ext := "profile", ".pprof"
	if c.trace {
		kind, ext = "trace", ".trace"
	}
	path := filepath.Join(c.pprofDir, strings.NewReplacer(" ", "-", ",", "").Replace(name)+ext)
	go func() {
		defer close(done)
		secs := max(int(c.duration.Seconds())-1, 1)
		resp, err := http.Get(fmt.Sprintf("http://%s/debug/pprof/%s?seconds=%d", c.pprof, kind, secs))
		if err != nil {
			fmt.Fprintln(os.Stderr, "floor: profile:", err)
			path = ""
			return
		}
		defer func() { _ = resp.Body.Close() }()
		f, err := os.Create(path)
		if err == nil {
			_, err = io.Copy(f, resp.Body)
			err = errors.Join(err, f.Close())
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "floor: profile:", err)
			path = ""
		}
	}()
	return func() string { <-done; return path }
}
