package main

import (
	"encoding/json"
	"fmt"
	"net/url"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/tmsproject/tms/gateway/bench"
	"github.com/tmsproject/tms/pkg/db"
)

// searchCase is one search the -search run times: a q of a handful of
// terms, over every unit the caller sees or over one translation.
type searchCase struct {
	name, path, q string
}

// searchCases are what a translator types: a word or phrase in the
// source or the target, narrowed by state or language.
var searchCases = []searchCase{
	{"one word, all units", "/api/units/", `cookies`},
	{"phrase in source, all units", "/api/units/", `source:"temporary data"`},
	{"three terms, all units", "/api/units/", `source:backup AND target:restore AND state:>=translated`},
	{"word or word, one translation", "/api/translations/bench/floor/de/units/", `target:proxy OR target:cookies`},
	{"no match, all units", "/api/units/", `source:"xylophone"`},
}

// searchResult is the median answer time of one case and its count.
type searchResult struct {
	searchCase
	count  int
	median time.Duration
}

// timeSearches answers each case rounds times (first page, count
// included) and keeps the median.
func timeSearches(s *server, rounds int) ([]searchResult, error) {
	var out []searchResult
	for _, sc := range searchCases {
		var times []float64
		count := 0
		for range max(rounds, 1) {
			start := time.Now()
			body, err := call(s, "GET", sc.path+"?q="+url.QueryEscape(sc.q), nil, 200)
			if err != nil {
				return nil, fmt.Errorf("search %q: %w", sc.q, err)
			}
			times = append(times, float64(time.Since(start)))
			var page struct {
				Count int `json:"count"`
			}
			if err := json.Unmarshal(body, &page); err != nil {
				return nil, err
			}
			count = page.Count
		}
		sort.Float64s(times)
		out = append(out, searchResult{searchCase: sc, count: count, median: time.Duration(median(times))})
	}
	return out, nil
}

func writeSearchRows(b *strings.Builder, c config, units int, rs []searchResult, settled bench.Settled) {
	engine := "SQLite: the search index (FTS5 trigram)"
	if c.postgres {
		engine = "PostgreSQL: the search index (pg_trgm GIN)"
	}
	fmt.Fprintf(b, "Searches over %d units, first page with its count, median of 3 (admin token; %s was complete %.0f s "+
		"after the import, and the searches ran then):\n\n", units, engine, settled.Indexed.Seconds())
	b.WriteString("| Search | Route | q | Matches | Time |\n|---|---|---|---|---|\n")
	for _, r := range rs {
		fmt.Fprintf(b, "| %s | `%s` | `%s` | %d | %.0f ms |\n", r.name, r.path, r.q, r.count,
			float64(r.median)/float64(time.Millisecond))
	}
	b.WriteString("\n")
}

// waitSettled waits for the search index and the memory of the service's
// database, which the service builds in the background after an import.
func waitSettled(c config, scratch string) (bench.Settled, error) {
	cfg := db.Config{SQLitePath: filepath.Join(scratch, "data", "translation.db")}
	if c.postgres {
		cfg = db.Config{URL: c.databaseURL, Schema: "translation"}
	}
	return bench.WaitSettled(cfg, 30*time.Minute)
}
