package e2e

import (
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/bench/origin"
	"github.com/tmsproject/tms/gateway/stacktest"
)

// bigOrigin is a bare repository of one German PO file of n strings whose
// translations are pad long, and returns it with the file's bytes.
func bigOrigin(t *testing.T, n, pad int) (string, []byte) {
	t.Helper()
	var b bytes.Buffer
	b.WriteString(potHeader)
	fill := strings.Repeat("x", pad)
	for i := range n {
		fmt.Fprintf(&b, "\nmsgid \"String number %d of the demo\"\nmsgstr \"Zeichenkette %d %s\"\n", i, i, fill)
	}
	bare, err := origin.Create(t.TempDir(), map[string][]byte{"po/de.po": b.Bytes()})
	if err != nil {
		t.Fatal(err)
	}
	return bare, b.Bytes()
}

// startWithComponent runs the binary with env, binds a component "app" of
// project "demo" to repo and waits until its German translation holds n
// strings. It returns the API's base URL.
func startWithComponent(t *testing.T, repo string, n int, env ...string) string {
	t.Helper()
	base := stacktest.Start(t, stacktest.Options{Mode: stacktest.Binary, Env: env}).API
	call(t, "POST", base+"projects/", map[string]any{"name": "Demo", "slug": "demo", "web": "https://demo.example/"}, 201)
	call(t, "POST", base+"projects/demo/components/", map[string]any{"name": "App", "slug": "app",
		"repo": repo, "filemask": "po/*.po", "file_format": "po"}, 201)
	stacktest.Eventually(t, 120*time.Second, func() bool {
		tr, status := fetch(t, "GET", base+"translations/demo/app/de/", nil)
		return status == 200 && tr["total"] == float64(n)
	})
	return base
}

// TestSlowQueryEndsAlone holds a search that outlasts TMS_QUERY_TIMEOUT:
// it ends with 504 in the documented error shape, and unit reads beside it
// keep answering while it runs instead of queueing behind it.
func TestSlowQueryEndsAlone(t *testing.T) {
	const n = 40_000
	repo, _ := bigOrigin(t, n, 40)
	base := startWithComponent(t, repo, n, "TMS_QUERY_TIMEOUT=400ms")
	page := call(t, "GET", base+"translations/demo/app/de/units/", nil, 200)
	unit := page["results"].([]any)[0].(map[string]any)["url"].(string)

	// 50 terms (the limit), none found: every one is tested on every unit,
	// through lower() (a non-ASCII value): seconds on this machine.
	terms := make([]string, 50)
	for i := range terms {
		terms[i] = fmt.Sprintf("target:\"nirgendwö %d\"", i)
	}
	slow := base + "units/?q=" + url.QueryEscape(strings.Join(terms, " OR "))
	type answer struct {
		status int
		body   map[string]any
		took   time.Duration
	}
	done := make(chan answer, 1)
	start := time.Now()
	go func() {
		body, status := fetchQuiet(slow)
		done <- answer{status, body, time.Since(start)}
	}()
	var beside []time.Duration // unit reads answered while the search ran
	var got answer
	for waiting := true; waiting; {
		select {
		case got = <-done:
			waiting = false
		default:
			t0 := time.Now()
			if _, status := fetch(t, "GET", unit, nil); status != 200 {
				t.Fatalf("unit read beside the search: %d", status)
			}
			select {
			case got = <-done:
				waiting = false
			default:
				beside = append(beside, time.Since(t0))
			}
		}
	}
	if got.status != http.StatusGatewayTimeout {
		t.Fatalf("search past the query timeout: status %d after %v, want 504: %v", got.status, got.took, got.body)
	}
	if errors, _ := got.body["errors"].([]any); got.body["type"] != "server_error" || len(errors) != 1 {
		t.Errorf("504 without the documented error body: %v", got.body)
	}
	if len(beside) == 0 {
		t.Errorf("no unit read answered during the %v search", got.took)
	}
	t.Logf("search ended after %v; %d unit reads answered beside it", got.took, len(beside))
	// The interrupted query freed its connection: the service still answers
	// reads of the units table (not a search of all 40k strings, which a
	// loaded machine may not finish within the test's 400 ms bound either).
	call(t, "GET", base+"translations/demo/app/de/units/?page=2", nil, 200)
	call(t, "GET", unit, nil, 200)
}

// fetchQuiet is fetch for another goroutine: failures are a status of 0.
func fetchQuiet(u string) (map[string]any, int) {
	req, _ := http.NewRequest("GET", u, nil)
	out, status, err := send(req)
	if err != nil {
		return map[string]any{"error": err.Error()}, 0
	}
	return out, status
}

// TestLargeFileDownload serves a translation whose file is larger than a
// gRPC message may be (64 MiB): the download streams, byte for byte the
// committed file, and its units page answers.
func TestLargeFileDownload(t *testing.T) {
	const n = 2_100
	repo, file := bigOrigin(t, n, 32<<10)
	if len(file) <= 64<<20 {
		t.Fatalf("fixture of %d bytes is not over 64 MiB", len(file))
	}
	base := startWithComponent(t, repo, n)
	req, _ := http.NewRequest("GET", base+"translations/demo/app/de/file/", nil)
	req.Header.Set("Authorization", "Token "+adminToken)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	got, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("download: status %d: %.300s", resp.StatusCode, got)
	}
	if !bytes.Equal(got, file) {
		t.Errorf("download of %d bytes differs from the committed file of %d bytes", len(got), len(file))
	}
	call(t, "GET", base+"translations/demo/app/de/units/?page=2", nil, 200)
}

// TestLargeUpload uploads a translation file over 64 MiB (a gRPC
// message's bound) with method translate: it streams to the service and
// every string is taken.
func TestLargeUpload(t *testing.T) {
	const n = 2_100
	repo, file := bigOrigin(t, n, 32<<10)
	base := startWithComponent(t, repo, n)
	edited := bytes.ReplaceAll(file, []byte(`msgstr "Zeichenkette `), []byte(`msgstr "Kette `))
	var body bytes.Buffer
	w := multipart.NewWriter(&body)
	for k, v := range map[string]string{"method": "translate", "conflicts": "replace-translated"} {
		if err := w.WriteField(k, v); err != nil {
			t.Fatal(err)
		}
	}
	part, err := w.CreateFormFile("file", "de.po")
	if err != nil {
		t.Fatal(err)
	}
	if _, err = part.Write(edited); err != nil {
		t.Fatal(err)
	}
	if err = w.Close(); err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("POST", base+"translations/demo/app/de/file/", &body)
	req.Header.Set("Content-Type", w.FormDataContentType())
	out, status, err := send(req)
	if err != nil {
		t.Fatal(err)
	}
	if status != 200 || out["accepted"] != float64(n) {
		t.Fatalf("upload of %d MiB: %d %v", len(edited)>>20, status, out)
	}
	first := call(t, "GET", base+"translations/demo/app/de/units/", nil, 200)["results"].([]any)[0].(map[string]any)
	if target := first["target"].([]any)[0].(string); !strings.HasPrefix(target, "Kette 0 ") {
		t.Errorf("after the upload, the first string is %.40q", target)
	}
}
