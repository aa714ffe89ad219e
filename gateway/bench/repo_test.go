package bench

import (
	"bytes"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"
)

const commitStrings = 10_000

// BenchmarkCommit10kEdits times committing 10k pending edits of one
// translation (POST …/repository/ {"operation": "commit"}). The edits are
// made through REST PATCH with the timer stopped; each run edits every
// unit again with new text.
func BenchmarkCommit10kEdits(b *testing.B) {
	e := sharedEnv(b, "commit", func(e *env) {
		e.project()
		// Without push on commit (Weblate's default) the time is the commit's alone.
		generatedComponent(e, "big", commitStrings, []string{"de"}, 50, map[string]any{"push_on_commit": false})
	})
	const repo = "/api/components/bench/big/repository/"
	if code, body := e.call("POST", repo, map[string]any{"operation": "commit"}); e.missing(code) {
		b.Skipf("commit is not implemented yet: POST %s answered %d %s", repo, code, clip(body))
	} else if code != 200 {
		b.Fatalf("commit with nothing pending: %d %s", code, clip(body))
	}
	units := allUnits(e, "/api/translations/bench/big/de/units/")
	if len(units) != commitStrings {
		b.Fatalf("%d units, want %d", len(units), commitStrings)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e.round++
		editAll(e, units, fmt.Sprintf("round %d", e.round))
		e.needsCommit(repo, true)
		b.StartTimer()
		var out struct {
			Result bool   `json:"result"`
			Detail string `json:"detail"`
		}
		e.must(200, "POST", repo, map[string]any{"operation": "commit"}, &out)
		b.StopTimer()
		if !out.Result {
			b.Fatalf("commit result false: %s", out.Detail)
		}
		e.needsCommit(repo, false)
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(commitStrings, "edits")
	reportMemory(b)
}

func (e *env) needsCommit(repo string, want bool) {
	e.tb.Helper()
	var st struct {
		NeedsCommit bool `json:"needs_commit"`
	}
	e.must(200, "GET", repo, nil, &st)
	if st.NeedsCommit != want {
		e.tb.Fatalf("needs_commit = %v, want %v", st.NeedsCommit, want)
	}
}

// allUnits lists every unit of a translation, 1000 a page.
func allUnits(e *env, path string) []sampledUnit {
	var out []sampledUnit
	for page := 1; ; page++ {
		var p struct {
			Next    *string `json:"next"`
			Results []struct {
				ID     int64    `json:"id"`
				Source []string `json:"source"`
				Target []string `json:"target"`
			} `json:"results"`
		}
		e.must(200, "GET", fmt.Sprintf("%s?page_size=1000&page=%d", path, page), nil, &p)
		for _, u := range p.Results {
			out = append(out, sampledUnit{id: u.ID, forms: max(len(u.Target), 1), source: u.Source[0]})
		}
		if p.Next == nil {
			return out
		}
	}
}

// editAll PATCHes every unit with a text tagged by round, four requests
// at a time.
func editAll(e *env, units []sampledUnit, round string) {
	work := make(chan sampledUnit)
	errs := make(chan string, 4)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for u := range work {
				target := make([]string, u.forms)
				for k := range target {
					target[k] = fmt.Sprintf("%s, form %d: %s", round, k, u.source)
				}
				code, body := e.call("PATCH", fmt.Sprintf("/api/units/%d/", u.id), map[string]any{"target": target, "state": 20})
				if code != 200 {
					select {
					case errs <- fmt.Sprintf("PATCH unit %d: %d %s", u.id, code, clip(body)):
					default:
					}
				}
			}
		})
	}
	for _, u := range units {
		work <- u
	}
	close(work)
	wg.Wait()
	close(errs)
	if msg, ok := <-errs; ok {
		e.tb.Fatal(msg)
	}
}

const uploadStrings = 5_000

// BenchmarkUpload5k times uploading a fully translated 5k-string PO file
// (POST …/file/, method translate, replacing translated strings); every
// run uploads new wording, so every string changes.
func BenchmarkUpload5k(b *testing.B) {
	g := Generate(uploadStrings, uploadStrings)
	e := sharedEnv(b, "upload", func(e *env) {
		e.project()
		generatedComponent(e, "up", uploadStrings, []string{"de"}, 0, nil)
	})
	const path = "/api/translations/bench/up/de/file/"
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e.round++
		req := uploadRequest(b, path, g.PO("de", e.round, 100))
		b.StartTimer()
		start := time.Now()
		code, body := e.send(req)
		elapsed := time.Since(start)
		b.StopTimer()
		if e.missing(code) {
			b.Skipf("upload is not implemented yet: POST %s answered %d %s", path, code, clip(body))
		}
		checkUpload(b, code, body)
		b.Logf("upload %d took %v", e.round, elapsed)
		b.StartTimer()
	}
	b.StopTimer()
	reportMemory(b)
}

func uploadRequest(b *testing.B, path string, po []byte) *http.Request {
	return uploadMethodRequest(b, path, po, "translate", "replace-translated")
}

// BenchmarkUploadAdd5k times adding 5k new strings by upload (method add,
// one transaction): each run uploads strings the component does not have.
func BenchmarkUploadAdd5k(b *testing.B) {
	e := sharedEnv(b, "upload-add", func(e *env) {
		e.project()
		generatedComponent(e, "add", 10, []string{"de"}, 0, map[string]any{"manage_units": true})
	})
	const path = "/api/translations/bench/add/de/file/"
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		e.round++
		g := Generate(uploadStrings, uint64(1_000_000+e.round))
		req := uploadMethodRequest(b, path, g.PO("de", 0, 100), "add", "")
		b.StartTimer()
		start := time.Now()
		code, body := e.send(req)
		elapsed := time.Since(start)
		b.StopTimer()
		var out struct {
			Accepted int `json:"accepted"`
		}
		// A generated file repeats a few strings (one-syllable words): the
		// repeats are skipped.
		if code != 200 || json.Unmarshal(body, &out) != nil || out.Accepted < uploadStrings*9/10 {
			b.Fatalf("upload add: %d %s", code, clip(body))
		}
		b.ReportMetric(float64(out.Accepted)/elapsed.Seconds(), "strings/s")
		b.Logf("upload add %d: %d strings in %v", e.round, out.Accepted, elapsed)
		b.StartTimer()
	}
	b.StopTimer()
	reportMemory(b)
}

func uploadMethodRequest(b *testing.B, path string, po []byte, method, conflicts string) *http.Request {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	f, err := w.CreateFormFile("file", "de.po")
	if err != nil {
		b.Fatal(err)
	}
	if _, err = f.Write(po); err != nil {
		b.Fatal(err)
	}
	if err = w.WriteField("method", method); err != nil {
		b.Fatal(err)
	}
	if conflicts != "" {
		if err = w.WriteField("conflicts", conflicts); err != nil {
			b.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	req := httptest.NewRequest("POST", "http://tms.test"+path, &buf)
	req.Header.Set("Authorization", "Token "+adminToken)
	req.Header.Set("Content-Type", w.FormDataContentType())
	return req
}

// checkUpload wants every string of the file counted and nearly all
// accepted (a few one-syllable words can render alike in two variants).
func checkUpload(b *testing.B, code int, body []byte) {
	var out struct {
		Result   bool `json:"result"`
		Total    int  `json:"total"`
		Accepted int  `json:"accepted"`
	}
	if code != 200 || json.Unmarshal(body, &out) != nil {
		b.Fatalf("upload: %d %s", code, clip(body))
	}
	if !out.Result || out.Total != uploadStrings || out.Accepted < uploadStrings*95/100 {
		b.Fatalf("upload answered %s", strings.TrimSpace(string(body)))
	}
}
