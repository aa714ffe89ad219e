package bench

import (
	"bytes"
	"encoding/json"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"net/http/httptest"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/stacktest"
	"github.com/tmsproject/tms/pkg/corpus"
)

const adminToken = stacktest.AdminToken

// env is one running stack (all services, SQLite in a temporary
// directory) and its REST handler, called in process.
type env struct {
	tb testing.TB
	st *stacktest.Stack
	h  http.Handler
	// round counts the edit rounds of a shared stack across benchmark
	// runs, so that every round writes new text.
	round  int
	errLog *stacktest.Buffer // the stack's error log: why a request answered 500
}

// startStack runs every service and the gateway on data in dir, logging
// errors only (the gateway logs why a request failed); keep lets it
// outlive tb (a shared fixture, stopped by close).
func startStack(tb testing.TB, dir string, keep bool) *env {
	tb.Helper()
	errLog := &stacktest.Buffer{}
	log := slog.New(slog.NewTextHandler(errLog, &slog.HandlerOptions{Level: slog.LevelError}))
	st := stacktest.Start(tb, stacktest.Options{DataDir: dir, Log: log, Keep: keep})
	return &env{tb: tb, st: st, h: st.Handler(), errLog: errLog}
}

// missing reports whether an answer says the feature is not built yet: no
// such method on the route, or a 500 the gateway logged as the service's
// Unimplemented.
func (e *env) missing(code int) bool {
	return code == 405 || code == 501 || code == 500 && strings.Contains(e.errLog.String(), "Unimplemented")
}

func newEnv(tb testing.TB) *env {
	tb.Helper()
	return startStack(tb, tb.TempDir(), false)
}

// close stops the stack; benchmarks that build one stack per iteration
// call it at once instead of piling stacks up until the cleanup.
func (e *env) close() {
	if err := e.st.Stop(); err != nil {
		e.tb.Errorf("close stack: %v", err)
	}
}

// call sends one request through the handler and returns the status and
// the body.
func (e *env) call(method, path string, body any) (int, []byte) {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			e.tb.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req := httptest.NewRequest(method, "http://tms.test"+path, rd)
	req.Header.Set("Authorization", "Token "+adminToken)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	return e.send(req)
}

func (e *env) send(req *http.Request) (int, []byte) {
	rec := httptest.NewRecorder()
	e.h.ServeHTTP(rec, req)
	return rec.Code, rec.Body.Bytes()
}

// must calls and fails the benchmark unless the status is want; the JSON
// answer is decoded into out when out is not nil.
func (e *env) must(want int, method, path string, body, out any) {
	e.tb.Helper()
	code, data := e.call(method, path, body)
	if code != want {
		e.tb.Fatalf("%s %s: status %d, want %d: %s", method, path, code, want, clip(data))
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			e.tb.Fatalf("%s %s: %v", method, path, err)
		}
	}
}

func clip(b []byte) string {
	if len(b) > 400 {
		return string(b[:400]) + "…"
	}
	return string(b)
}

// project creates the project "bench" that the benchmarks' components are in.
func (e *env) project() {
	e.tb.Helper()
	e.must(201, "POST", "/api/projects/", map[string]any{"name": "Bench bench", "slug": "bench",
		"web": "https://bench.example/"}, nil)
}

// component creates a component bound to repo and returns its task URL
// path ("" when the import finished within the request); extra adds
// fields to the request.
func (e *env) component(project, slug, repo, newBase string, extra map[string]any) string {
	e.tb.Helper()
	var out struct {
		TaskURL string `json:"task_url"`
	}
	body := map[string]any{"name": slug, "slug": slug, "repo": repo, "branch": "main", "filemask": "po/*.po",
		"new_base": newBase, "file_format": "po"}
	maps.Copy(body, extra)
	e.must(201, "POST", "/api/projects/"+project+"/components/", body, &out)
	if out.TaskURL == "" {
		return ""
	}
	return strings.TrimPrefix(out.TaskURL, "http://tms.test")
}

// wait polls a task until it completes and fails on an import error.
func (e *env) wait(task string, limit time.Duration) {
	e.tb.Helper()
	if task == "" {
		return
	}
	end := time.Now().Add(limit)
	for time.Now().Before(end) {
		var t struct {
			Completed bool `json:"completed"`
			Result    struct {
				Result bool   `json:"result"`
				Detail string `json:"detail"`
			} `json:"result"`
		}
		e.must(200, "GET", task, nil, &t)
		if t.Completed {
			if !t.Result.Result {
				e.tb.Fatalf("task %s failed: %s", task, t.Result.Detail)
			}
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	e.tb.Fatalf("task %s not done within %v", task, limit)
}

// importComponent creates and imports a component, waiting for the task.
func (e *env) importComponent(project, slug, repo, newBase string, limit time.Duration, extra map[string]any) {
	e.tb.Helper()
	e.wait(e.component(project, slug, repo, newBase, extra), limit)
}

// count is the "count" of a list answer (page_size 1).
func (e *env) count(path string) int {
	e.tb.Helper()
	var page struct {
		Count int `json:"count"`
	}
	e.must(200, "GET", path+"?page_size=1", nil, &page)
	return page.Count
}

// latencies collects request durations and reports percentiles.
type latencies []time.Duration

func (l latencies) percentile(p float64) time.Duration {
	if len(l) == 0 {
		return 0
	}
	s := slices.Clone(l)
	slices.Sort(s)
	i := int(p*float64(len(s))+0.5) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func (l latencies) report(b *testing.B) {
	ms := func(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
	b.ReportMetric(ms(l.percentile(0.50)), "p50-ms")
	b.ReportMetric(ms(l.percentile(0.99)), "p99-ms")
}

// reportMemory reports the process's peak resident set (getrusage; it
// includes the setup, so run one benchmark per process for a clean figure)
// and the memory the Go runtime holds from the system.
func reportMemory(b *testing.B) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err == nil {
		b.ReportMetric(float64(ru.Maxrss)/1024, "peak-RSS-MB") // Linux: kilobytes
	}
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.Sys)/(1<<20), "go-sys-MB")
}

// corpusFiles reads the corpus as repository files po/<name>.
func corpusFiles(b *testing.B) map[string][]byte {
	files := map[string][]byte{}
	for name, data := range corpus.Files(b, ".po", ".pot") {
		files["po/"+name] = data
	}
	return files
}
