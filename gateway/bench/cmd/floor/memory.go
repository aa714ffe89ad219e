package main

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"
)

// memoryResult is what a TMX import into the translation memory and
// lookups against it cost.
type memoryResult struct {
	segments        int
	bytes           int64
	elapsed         time.Duration
	idleRSS, peak   int64
	lookups         int
	found           int
	lookupMedian    time.Duration
	lookupP90, best time.Duration
}

// memoryRounds is how many times the 100-string lookup is timed.
const memoryRounds = 9

// vocabulary is a Zipf-distributed lexicon: word i has about log10(i)
// syllables, so long words are rare, as in natural language.
type vocabulary struct {
	words []string
	zipf  *rand.Zipf
	r     *rand.Rand
}

func newVocabulary(seed uint64) *vocabulary {
	syll := strings.Fields("ka ri to mu se la po ne vi da ro ti sa me lu ko fa ge bi on an er in st tr pl")
	r := rand.New(rand.NewPCG(seed, seed))
	v := &vocabulary{words: make([]string, 50000), r: r}
	for i := range v.words {
		var b strings.Builder
		for range 1 + int(math.Log10(float64(i+1))) {
			b.WriteString(syll[r.IntN(len(syll))])
		}
		v.words[i] = b.String()
	}
	v.zipf = rand.NewZipf(r, 1.1, 2, uint64(len(v.words)-1))
	return v
}

// sentence is 4 to 11 words, capitalised, with a full stop.
func (v *vocabulary) sentence() string {
	w := make([]string, 4+v.r.IntN(8))
	for i := range w {
		w[i] = v.words[v.zipf.Uint64()]
	}
	s := strings.Join(w, " ")
	return strings.ToUpper(s[:1]) + s[1:] + "."
}

// writeTMX writes n English–German segments to path and answers every
// thousandth source, the strings lookups start from.
func writeTMX(path string, n int) ([]string, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	_, _ = w.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n<tmx version=\"1.4\">\n" +
		`<header creationtool="floor" creationtoolversion="1" datatype="PlainText" segtype="sentence" ` +
		`adminlang="en" srclang="en" o-tmf="floor"/>` + "\n<body>\n")
	v := newVocabulary(1)
	var sample []string
	for i := range n {
		src := v.sentence()
		if i%1000 == 0 {
			sample = append(sample, src)
		}
		_, _ = w.WriteString(`<tu><tuv xml:lang="en"><seg>`)
		_ = xml.EscapeText(w, []byte(src))
		_, _ = w.WriteString(`</seg></tuv><tuv xml:lang="de"><seg>`)
		_ = xml.EscapeText(w, []byte("DE "+src))
		_, _ = w.WriteString("</seg></tuv></tu>\n")
	}
	_, _ = w.WriteString("</body>\n</tmx>\n")
	if err = w.Flush(); err != nil {
		_ = f.Close()
		return nil, err
	}
	return sample, f.Close()
}

// measureMemory imports a TMX file of c.memory segments into project
// bench through the REST API (timing it to the task's end and reading the
// process's peak RSS), then times lookups of 100 strings: half sources
// of the file with one word changed, half new sentences.
func measureMemory(c config, s *server, scratch string) (memoryResult, error) {
	path := filepath.Join(scratch, "memory.tmx")
	sample, err := writeTMX(path, c.memory)
	if err != nil {
		return memoryResult{}, err
	}
	st, err := os.Stat(path)
	if err != nil {
		return memoryResult{}, err
	}
	res := memoryResult{segments: c.memory, bytes: st.Size()}
	if res.idleRSS, err = currentRSS(s.cmd.Process.Pid); err != nil {
		return res, err
	}
	start := time.Now()
	taskURL, err := uploadTMX(s, path)
	if err == nil {
		err = waitTask(s, taskURL)
	}
	if err != nil {
		return res, err
	}
	res.elapsed = time.Since(start)
	if res.peak, err = peakRSS(s.cmd.Process.Pid); err != nil {
		return res, err
	}
	return res, timeLookups(s, lookupStrings(sample, 100), &res)
}

// lookupStrings are n strings to look up: every other one a sample with
// its middle word changed, the rest new sentences.
func lookupStrings(sample []string, n int) []string {
	v := newVocabulary(2)
	out := make([]string, 0, n)
	for i := 0; len(out) < n; i++ {
		if i%2 == 0 && i/2 < len(sample) {
			ws := strings.Fields(sample[i/2])
			ws[len(ws)/2] = "changed"
			out = append(out, strings.Join(ws, " "))
			continue
		}
		out = append(out, v.sentence())
	}
	return out
}

// uploadTMX posts the file as `curl -F file=@memory.tmx` would, streamed.
func uploadTMX(s *server, path string) (string, error) {
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		part, err := mw.CreateFormFile("file", filepath.Base(path))
		if err == nil {
			err = copyFile(part, path)
		}
		if err == nil {
			err = mw.Close()
		}
		_ = pw.CloseWithError(err)
	}()
	req, err := http.NewRequest("POST", s.base+"/api/projects/bench/memory/", pr)
	if err != nil {
		return "", err
	}
	req.Header.Set("Authorization", "Token "+adminToken)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return "", err
	}
	defer func() { _ = resp.Body.Close() }()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		return "", err
	}
	var out struct {
		TaskURL string `json:"task_url"`
	}
	if resp.StatusCode != http.StatusAccepted || json.Unmarshal(body, &out) != nil || out.TaskURL == "" {
		return "", fmt.Errorf("TMX upload: %d %.300s", resp.StatusCode, body)
	}
	return out.TaskURL, nil
}

func copyFile(w io.Writer, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer func() { _ = f.Close() }() // only read
	_, err = io.Copy(w, f)
	return err
}

// timeLookups posts the strings to /api/memory/lookup/ memoryRounds
// times and keeps the median, the 90th percentile and the best round.
func timeLookups(s *server, texts []string, res *memoryResult) error {
	var times []float64
	for range memoryRounds {
		start := time.Now()
		body, err := call(s, "POST", "/api/memory/lookup/?source_language=en&target_language=de&project=bench",
			map[string]any{"strings": texts}, 200)
		if err != nil {
			return err
		}
		times = append(times, float64(time.Since(start)))
		var out []struct {
			Match *struct {
				Quality int `json:"quality"`
			} `json:"match"`
		}
		if err = json.Unmarshal(body, &out); err != nil {
			return err
		}
		res.found = 0
		for _, o := range out {
			if o.Match != nil {
				res.found++
			}
		}
	}
	sort.Float64s(times)
	res.lookups = len(texts)
	res.lookupMedian = time.Duration(median(times))
	res.lookupP90 = time.Duration(times[len(times)*9/10])
	res.best = time.Duration(times[0])
	return nil
}

// memoryTargets are the goals: a 1M-segment import in under a
// minute, a lookup of 100 strings in under 200 ms.
const (
	memoryImportTarget = time.Minute
	memoryLookupTarget = 200 * time.Millisecond
)

func writeMemory(w io.Writer, c config, r memoryResult) error {
	engine := map[bool]string{false: "SQLite", true: "PostgreSQL"}[c.postgres]
	var b strings.Builder
	yes := map[bool]string{true: "yes", false: "**no**"}
	fmt.Fprintf(&b, "TMX import through `tms serve` (%s; %d CPUs) of %d English–German segments (%d MB; "+
		"a Zipf vocabulary of 50,000 words, 4 to 11 words a sentence), `POST /api/projects/bench/memory/` to "+
		"the end of its task, then `POST /api/memory/lookup/` of %d strings (half a segment with one word "+
		"changed, half new sentences), %d rounds:\n\n", engine, runtime.NumCPU(), r.segments, r.bytes>>20, r.lookups,
		memoryRounds)
	b.WriteString("| Measure | Value | Goal | Met? |\n|---|---|---|---|\n")
	fmt.Fprintf(&b, "| TMX import | %.1f s (%.0f segments/s) | < 1 min for 1M | %s |\n", r.elapsed.Seconds(),
		float64(r.segments)/r.elapsed.Seconds(), yes[r.elapsed < memoryImportTarget])
	fmt.Fprintf(&b, "| RSS before the import, peak after | %d MB, %d MB | constant in the file's size | — |\n",
		r.idleRSS>>20, r.peak>>20)
	fmt.Fprintf(&b, "| lookup of %d, median (p90, best) | %.0f ms (%.0f, %.0f ms), %d matched | < 200 ms | %s |\n\n",
		r.lookups, ms(r.lookupMedian), ms(r.lookupP90), ms(r.best), r.found, yes[r.lookupMedian < memoryLookupTarget])
	_, err := io.WriteString(w, b.String())
	return err
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }

// currentRSS is the VmRSS of a process (Linux), in bytes.
func currentRSS(pid int) (int64, error) { return procStatus(pid, "VmRSS:") }
