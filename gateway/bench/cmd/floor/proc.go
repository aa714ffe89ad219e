package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/tmsproject/tms/gateway/bench"
	"github.com/tmsproject/tms/gateway/bench/origin"
)

const adminToken = "wlu_floorfloorfloorfloorfloorfloorfloor"

// languages are the translation languages of the generated component, in
// the order -languages takes them; the second translation of the baseline
// (its first after the source) stands for "de".
var languages = []string{"de", "fr", "cs", "ja", "pt_BR", "es", "it", "pl"}

// server is one running process and the base URL it answers on.
type server struct {
	cmd  *exec.Cmd
	base string
}

func (s *server) stop() {
	if s.cmd.Process != nil {
		_ = s.cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = s.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = s.cmd.Process.Kill()
		}
	}
}

// importResult is what the service's import of the component cost.
type importResult struct {
	units   int
	elapsed time.Duration
	peakRSS int64 // bytes, the process's VmHWM after the import
}

// startService generates the component, starts `tms serve` on a fresh
// data directory and imports the component through the REST API.
func startService(c config, scratch string) (*server, importResult, error) {
	if c.languages < 1 || c.languages > len(languages) {
		return nil, importResult{}, fmt.Errorf("-languages: 1 to %d", len(languages))
	}
	g := bench.Generate(c.strings, uint64(c.strings))
	repo, err := origin.Create(filepath.Join(scratch, "origin"), g.Files("floor", languages[:c.languages], 70))
	if err != nil {
		return nil, importResult{}, err
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, importResult{}, err
	}
	cmd := exec.Command(c.tms, "serve", "--http-addr="+addr, "--data-dir="+filepath.Join(scratch, "data"))
	cmd.Env = append(os.Environ(), "TMS_ADMIN_TOKEN="+adminToken, "TMS_ALLOW_LOCAL_REPOS=true",
		"TMS_API_RATELIMIT_ANON=1000000/second", "TMS_API_RATELIMIT_USER=1000000/second")
	if c.pprof != "" {
		cmd.Env = append(cmd.Env, "TMS_METRICS_ADDR="+c.pprof, "TMS_PPROF=true")
	}
	if c.databaseURL != "" {
		cmd.Env = append(cmd.Env, "TMS_DATABASE_URL="+c.databaseURL)
	}
	s, err := startProcess(cmd, filepath.Join(scratch, "tms.log"), "http://"+addr, "/healthz")
	if err != nil {
		return nil, importResult{}, err
	}
	imp, err := importComponent(s, repo, c.projectFlags)
	if err != nil {
		s.stop()
		return nil, importResult{}, err
	}
	imp.units = c.strings * (c.languages + 1)
	return s, imp, nil
}

// importComponent creates project bench (with check_flags flags) and
// component floor from repo and waits for the import task.
func importComponent(s *server, repo, flags string) (importResult, error) {
	if _, err := call(s, "POST", "/api/projects/", map[string]any{"name": "Bench", "slug": "bench",
		"web": "https://bench.example/", "check_flags": flags}, 201); err != nil {
		return importResult{}, err
	}
	start := time.Now()
	body, err := call(s, "POST", "/api/projects/bench/components/", map[string]any{"name": "floor",
		"slug": "floor", "repo": repo, "branch": origin.Branch, "filemask": "po/*.po",
		"new_base": "po/floor.pot", "file_format": "po"}, 201)
	if err != nil {
		return importResult{}, err
	}
	var created struct {
		TaskURL string `json:"task_url"`
	}
	if err = json.Unmarshal(body, &created); err != nil {
		return importResult{}, err
	}
	if err = waitTask(s, created.TaskURL); err != nil {
		return importResult{}, err
	}
	imp := importResult{elapsed: time.Since(start)}
	imp.peakRSS, err = peakRSS(s.cmd.Process.Pid)
	return imp, err
}

// waitTask polls a task until it completes; a failed import is an error.
func waitTask(s *server, taskURL string) error {
	if taskURL == "" {
		return nil
	}
	path := strings.TrimPrefix(taskURL, s.base)
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for end := time.Now().Add(30 * time.Minute); time.Now().Before(end); <-tick.C {
		body, err := call(s, "GET", path, nil, 200)
		if err != nil {
			return err
		}
		var t struct {
			Completed bool `json:"completed"`
			Result    struct {
				Result bool   `json:"result"`
				Detail string `json:"detail"`
			} `json:"result"`
		}
		if err := json.Unmarshal(body, &t); err != nil {
			return err
		}
		if t.Completed {
			if !t.Result.Result {
				return fmt.Errorf("import failed: %s", t.Result.Detail)
			}
			return nil
		}
	}
	return fmt.Errorf("import not done within 30 minutes")
}

// startBaseline builds the baseline, seeds its database with the same
// shape and starts it.
func startBaseline(c config, scratch string) (*server, error) {
	bin := filepath.Join(scratch, "baseline")
	build := exec.Command("go", "build", "-o", bin, ".")
	build.Dir, build.Stdout, build.Stderr = c.baseline, os.Stderr, os.Stderr
	build.Env = append(os.Environ(), "CGO_ENABLED=0", "GOWORK=off")
	if err := build.Run(); err != nil {
		return nil, fmt.Errorf("build baseline: %w", err)
	}
	db := filepath.Join(scratch, "units.db")
	seed := exec.Command(bin, "-db", db, "-strings", strconv.Itoa(c.strings),
		"-translations", strconv.Itoa(c.languages+1), "-seed")
	seed.Stdout, seed.Stderr = os.Stderr, os.Stderr
	if err := seed.Run(); err != nil {
		return nil, fmt.Errorf("seed baseline: %w", err)
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-db", db, "-addr", addr)
	return startProcess(cmd, filepath.Join(scratch, "baseline.log"), "http://"+addr, "/units/?translation=2&page=1")
}

// startProcess starts cmd with its output in logPath and waits until
// base+probe answers 200.
func startProcess(cmd *exec.Cmd, logPath, base, probe string) (*server, error) {
	log, err := os.Create(logPath)
	if err != nil {
		return nil, err
	}
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &server{cmd: cmd, base: base}
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for end := time.Now().Add(60 * time.Second); time.Now().Before(end); <-tick.C {
		if resp, err := http.Get(base + probe); err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode == 200 {
				return s, nil
			}
		}
	}
	s.stop()
	return nil, fmt.Errorf("%s did not answer within 60 s (log: %s)", cmd.Path, logPath)
}

// call sends one JSON request as the admin and wants status want.
func call(s *server, method, path string, body any, want int) ([]byte, error) {
	var rd io.Reader
	if body != nil {
		data, err := json.Marshal(body)
		if err != nil {
			return nil, err
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, s.base+path, rd)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Authorization", "Token "+adminToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	out, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != want {
		err = fmt.Errorf("%s %s: %d, want %d: %.300s", method, path, resp.StatusCode, want, out)
	}
	return out, err
}

// freeAddr is a loopback address with a port nobody listens on.
func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer func() { _ = l.Close() }()
	return l.Addr().String(), nil
}

// peakRSS is the VmHWM of a process (Linux), in bytes.
func peakRSS(pid int) (int64, error) { return procStatus(pid, "VmHWM:") }

// procStatus reads a size in kB from a process's status file (Linux), in
// bytes.
func procStatus(pid int, field string) (int64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, field); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("no %s in /proc/%d/status", field, pid)
}
