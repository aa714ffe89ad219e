package e2e

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/bench/origin"
	"github.com/tmsproject/tms/gateway/stacktest"
)

// The bound of the upload memory test: what one upload may add to the
// server's resident memory, whatever the file's size.
const (
	hugeUpload     = 512 << 20
	uploadRSSBound = 300 << 20
	memoryStrings  = 2000
	suggestLimit   = 1000
)

// TestUploadMemoryBound uploads a 512 MiB PO file and a 512 MiB JSON file
// with method=suggest as a plain user on a public project. Almost all of
// each file is strings the translation lacks; its end would make more
// suggestions than TMS_UPLOAD_MAX_SUGGESTIONS allows. The server reads the
// whole file, answers 400 naming the limit, applies nothing, and its peak
// resident memory stays within uploadRSSBound of what it held before.
func TestUploadMemoryBound(t *testing.T) {
	if testing.Short() {
		t.Skip("moves two 512 MiB files")
	}
	po, js := memoryFixture()
	repo, err := origin.Create(t.TempDir(), map[string][]byte{"po/de.po": po, "json/en.json": js, "json/de.json": js})
	if err != nil {
		t.Fatal(err)
	}
	st := stacktest.Start(t, stacktest.Options{Mode: stacktest.Binary,
		Env: []string{"TMS_UPLOAD_MAX_SUGGESTIONS=" + strconv.Itoa(suggestLimit)}})
	base, proc := st.API, st.Process(stacktest.All)
	call(t, "POST", base+"projects/", map[string]any{"name": "Demo", "slug": "demo", "web": "https://demo.example/"}, 201)
	call(t, "POST", base+"projects/demo/components/", map[string]any{"name": "Po", "slug": "po", "repo": repo,
		"filemask": "po/*.po", "file_format": "po", "enable_suggestions": true}, 201)
	call(t, "POST", base+"projects/demo/components/", map[string]any{"name": "Json", "slug": "json", "repo": repo,
		"filemask": "json/*.json", "template": "json/en.json", "file_format": "json", "enable_suggestions": true}, 201)
	for _, comp := range []string{"po", "json"} {
		stacktest.Eventually(t, 120*time.Second, func() bool {
			tr, status := fetch(t, "GET", base+"translations/demo/"+comp+"/de/", nil)
			return status == 200 && tr["total"] == float64(memoryStrings)
		})
	}
	call(t, "POST", base+"users/", map[string]any{"username": "pat", "full_name": "Pat Plain", "email": "pat@x.example"}, 201)
	token := call(t, "POST", base+"users/pat/token/", map[string]any{}, 200)["token"].(string)

	for _, tc := range []struct{ comp, name string }{{"po", "de.po"}, {"json", "de.json"}} {
		t.Run(tc.comp, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), tc.name)
			writeHugeUpload(t, path, tc.comp)
			// the peak so far is forgotten (clear_refs 5): VmHWM is this upload's
			if err := os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", proc.Process.Pid), []byte("5"), 0); err != nil {
				t.Fatal(err)
			}
			idle := procMemory(t, proc.Process.Pid, "VmRSS")
			body, status := postFileAs(t, base+"translations/demo/"+tc.comp+"/de/file/", token, path, "suggest")
			peak := procMemory(t, proc.Process.Pid, "VmHWM")
			_ = os.Remove(path)
			t.Logf("%s: idle %d MiB, peak %d MiB: %v", tc.name, idle>>20, peak>>20, body)
			if status != 400 || !strings.Contains(fmt.Sprint(body), "at most "+strconv.Itoa(suggestLimit)) {
				t.Errorf("a file past the suggestion limit: %d %v", status, body)
			}
			if peak-idle > uploadRSSBound {
				t.Errorf("peak resident memory %d MiB, %d MiB above idle; the bound is %d MiB", peak>>20, (peak-idle)>>20, uploadRSSBound>>20)
			}
			if n := call(t, "GET", base+"translations/demo/"+tc.comp+"/de/units/?q=has:suggestion", nil, 200)["count"]; n != 0.0 {
				t.Errorf("the refused upload left %v units with suggestions", n)
			}
		})
	}
}

// memoryFixture is the repository's German PO file and JSON files of
// memoryStrings translated strings.
func memoryFixture() (po, js []byte) {
	var p, j strings.Builder
	p.WriteString(potHeader)
	j.WriteString("{\n")
	for i := range memoryStrings {
		fmt.Fprintf(&p, "\nmsgid \"String %d\"\nmsgstr \"Zeichenkette %d\"\n", i, i)
		fmt.Fprintf(&j, "  \"key%d\": \"Value %d\"%s\n", i, i, map[bool]string{true: ",", false: ""}[i < memoryStrings-1])
	}
	j.WriteString("}\n")
	return []byte(p.String()), []byte(j.String())
}

// writeHugeUpload writes a hugeUpload-byte file for comp: strings the
// translation lacks, then a new text for each of its strings.
func writeHugeUpload(t *testing.T, path, comp string) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	fill := strings.Repeat("lorem ipsum ", 20)
	var size int
	entry := func(key, text string) {
		var n int
		if comp == "po" {
			n, _ = fmt.Fprintf(w, "\nmsgid \"%s\"\nmsgstr \"%s\"\n", key, text)
		} else {
			k, _ := json.Marshal(key)
			v, _ := json.Marshal(text)
			n, _ = fmt.Fprintf(w, "%s: %s,\n", k, v)
		}
		size += n
	}
	if comp == "po" {
		_, _ = w.WriteString(potHeader)
	} else {
		_, _ = w.WriteString("{\n")
	}
	for i := 0; size < hugeUpload-1<<20; i++ {
		entry(fmt.Sprintf("Unknown %d", i), fill)
	}
	for i := range memoryStrings {
		key := fmt.Sprintf("String %d", i)
		if comp != "po" {
			key = fmt.Sprintf("key%d", i)
		}
		entry(key, fmt.Sprintf("Neu %d", i))
	}
	if comp != "po" {
		_, _ = w.WriteString("\"end\": \"\"\n}\n")
	}
	if err = w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err = f.Close(); err != nil {
		t.Fatal(err)
	}
}

// postFileAs posts the file at path as a multipart upload with method,
// streamed from disk, as the holder of token.
func postFileAs(t *testing.T, url, token, path, method string) (map[string]any, int) {
	t.Helper()
	pr, pw := io.Pipe()
	mw := multipart.NewWriter(pw)
	go func() {
		err := mw.WriteField("method", method)
		var part io.Writer
		if err == nil {
			part, err = mw.CreateFormFile("file", filepath.Base(path))
		}
		var f *os.File
		if err == nil {
			f, err = os.Open(path)
		}
		if err == nil {
			_, err = io.Copy(part, f)
			_ = f.Close()
		}
		if err == nil {
			err = mw.Close()
		}
		pw.CloseWithError(err)
	}()
	req, err := http.NewRequestWithContext(t.Context(), "POST", url, pr)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Token "+token)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	var out map[string]any
	_ = json.NewDecoder(resp.Body).Decode(&out)
	return out, resp.StatusCode
}

// procMemory is a memory figure of /proc/pid/status (VmRSS, VmHWM) in bytes.
func procMemory(t *testing.T, pid int, field string) int64 {
	t.Helper()
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatal(err)
			}
			return kb << 10
		}
	}
	t.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}
