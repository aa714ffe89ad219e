// Command floor measures the service side by side with ../shared/perf/baseline,
// the least work that answers the same requests, in one run on one machine,
// and prints a Markdown section of ratios for BENCHMARKS.md.
//
// It builds the baseline, seeds it with the generated shape (strings x
// translations), generates a component of the same size for the service
// (a bare git repository of PO files), starts `tms serve` on a fresh data
// directory, imports the component through the REST API (timing it and
// reading the process's peak resident set), then drives both servers with
// the same Go load generator: clients concurrent keep-alive connections
// for a fixed time per round, rounds alternating between the two, median
// of the rounds.
//
//	floor -tms bin/tms -baseline ../shared/perf/baseline -out floor.md
//	floor -tms bin/tms -import-only -strings 166667 -languages 6 -out import1m.md
//	floor -tms bin/tms -import-only -upload -strings 233000 -languages 1 -out upload.md
//	floor -tms bin/tms -import-only -search -strings 166667 -languages 5
//	floor -tms bin/tms -import-only -memory 1000000 -strings 100 -languages 1
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/tmsproject/tms/gateway/bench"
	"github.com/tmsproject/tms/pkg/pgserver"
)

// config is the command line.
type config struct {
	tms, baseline, out string
	pprof, pprofDir    string
	// trace makes -pprof write execution traces instead of CPU profiles.
	trace              bool
	strings, languages int
	clients, rounds    int
	wrk                string
	// only keeps the scenarios whose name contains it.
	only                    string
	duration                time.Duration
	importOnly, keepScratch bool
	upload, search, scale   bool
	// checks compares imports with the quality checks on and off.
	checks bool
	// projectFlags are the check_flags of the project bench.
	projectFlags string
	// memory is the TMX segments of the translation memory run (0: none).
	memory int
	// postgres runs the service on a throwaway PostgreSQL database, at
	// databaseURL once started.
	postgres    bool
	databaseURL string
}

func main() {
	var c config
	flag.StringVar(&c.tms, "tms", "bin/tms", "the service binary")
	flag.StringVar(&c.baseline, "baseline", "", "source directory of the baseline (empty: service only)")
	flag.StringVar(&c.out, "out", "", "write the Markdown section here (default stdout)")
	flag.IntVar(&c.strings, "strings", 42000, "source strings of the component")
	flag.IntVar(&c.languages, "languages", 6, "translation languages (the source comes on top)")
	flag.IntVar(&c.clients, "clients", 8, "concurrent clients of the load generator (wrk: connections)")
	flag.StringVar(&c.wrk, "wrk", "", "drive the load with this wrk binary (-t2, -clients connections) instead of the Go load generator")
	flag.StringVar(&c.only, "only", "", "run only the scenarios whose name contains this (\"PATCH\", \"page 1 \")")
	flag.IntVar(&c.rounds, "rounds", 3, "rounds per scenario and server; the median is reported")
	flag.DurationVar(&c.duration, "duration", 5*time.Second, "length of one round")
	flag.BoolVar(&c.importOnly, "import-only", false, "import and report time and peak RSS, no load")
	flag.StringVar(&c.pprof, "pprof", "", "metrics address to start the service with; a CPU profile of each service round goes to -pprof-dir")
	flag.BoolVar(&c.trace, "trace", false, "with -pprof: write an execution trace of each service round (go tool trace) instead of a CPU profile")
	flag.StringVar(&c.pprofDir, "pprof-dir", ".", "where -pprof writes its profiles")
	flag.BoolVar(&c.keepScratch, "keep", false, "keep the scratch directory")
	flag.BoolVar(&c.upload, "upload", false, "with -import-only: then upload a file of every string of one translation and time it")
	flag.BoolVar(&c.search, "search", false, "with -import-only: then time a few searches over every unit")
	flag.BoolVar(&c.checks, "checks", false, "compare imports with the quality checks on and off (project check_flags ignore-all-checks), -rounds each, alternating")
	flag.IntVar(&c.memory, "memory", 0, "with -import-only: then import a TMX file of this many segments into the translation memory and time lookups")
	flag.BoolVar(&c.postgres, "postgres", false, "run the service on a throwaway PostgreSQL (the machine's initdb and postgres) instead of SQLite")
	flag.BoolVar(&c.scale, "scale", false, "run `tms run-scale` instead and compare edits through 1 and 2 gateways")
	flag.Parse()
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
}

func run(c config) (err error) {
	scratch, err := os.MkdirTemp("", "tms-floor-")
	if err != nil {
		return err
	}
	if !c.keepScratch {
		defer func() { _ = os.RemoveAll(scratch) }() // a temporary directory
	}
	var w io.Writer = os.Stdout
	if c.out != "" {
		f, cerr := os.Create(c.out)
		if cerr != nil {
			return cerr
		}
		defer func() { err = errors.Join(err, f.Close()) }() // the report is only written once closed
		w = f
	}
	if c.scale {
		return runScale(c, scratch, w)
	}
	if c.checks {
		return compareChecks(c, scratch, w)
	}
	if c.postgres {
		pg, perr := pgserver.Start()
		if perr != nil {
			return perr
		}
		defer pg.Stop()
		if c.databaseURL, err = pg.CreateDatabase("floor"); err != nil {
			return err
		}
	}
	svc, imp, err := startService(c, scratch)
	if err != nil {
		return err
	}
	defer svc.stop()
	// What follows the import runs once the search index is built (in the
	// background on SQLite) and the memory took the import's strings, not
	// beside them.
	var settled bench.Settled
	if !c.importOnly || c.search || c.upload || c.memory > 0 {
		if settled, err = waitSettled(c, scratch); err != nil {
			return err
		}
	}
	if c.importOnly {
		var up *uploadResult
		if c.upload {
			r, uerr := uploadTranslation(c, svc)
			if uerr != nil {
				return uerr
			}
			up = &r
		}
		var found []searchResult
		if c.search {
			if found, err = timeSearches(svc, 3); err != nil {
				return err
			}
		}
		if c.memory > 0 {
			mem, merr := measureMemory(c, svc, scratch)
			if merr != nil {
				return merr
			}
			return writeMemory(w, c, mem)
		}
		return writeImport(w, c, imp, up, found, settled)
	}
	base, err := startBaseline(c, scratch)
	if err != nil {
		return err
	}
	defer base.stop()
	res, err := measure(c, base, svc)
	if err != nil {
		return err
	}
	return writeReport(w, c, imp, res, settled)
}
