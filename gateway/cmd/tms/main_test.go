package main

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tmsproject/tms/gateway/stacktest"
)

// TestCommandLine runs the words of the command line in process.
func TestCommandLine(t *testing.T) {
	cases := []struct {
		name       string
		args       []string
		code       int
		stdout     []string // each must appear
		stderr     []string
		stdoutNone bool
	}{
		{"no command", nil, exitUsage, nil, []string{"Usage: tms <command>", "serve", "migrate", "users", "version", "help"}, true},
		{"help", []string{"help"}, exitOK, []string{"Usage: tms <command>", "users"}, nil, false},
		{"--help", []string{"--help"}, exitOK, []string{"Commands:"}, nil, false},
		{"help serve", []string{"help", "serve"}, exitOK, []string{"Usage: tms serve", "--services"}, nil, false},
		{"help users", []string{"help", "users"}, exitOK, []string{"tms users create NAME", "deactivate"}, nil, false},
		{"help migrate", []string{"help", "migrate"}, exitOK, []string{"Usage: tms migrate", "-service"}, nil, false},
		{"help unknown", []string{"help", "nope"}, exitUsage, nil, []string{`unknown command "nope"`}, true},
		{"version", []string{"version"}, exitOK, []string{"tms "}, nil, false},
		{"version extra", []string{"version", "x"}, exitUsage, nil, []string{"unexpected argument"}, true},
		{"unknown word", []string{"frobnicate"}, exitUsage, nil, []string{`unknown command "frobnicate"`, "Usage: tms"}, true},
		{"serve --help", []string{"serve", "--help"}, exitOK,
			[]string{"-http-addr", "-data-dir", "-services", "TMS_HTTP_ADDR (default: 127.0.0.1:8080)",
				"TMS_DATA_DIR (default: ./data)", "TMS_ADMIN_TOKEN", "TMS_ALLOW_LOCAL_REPOS (default: false)",
				"TMS_<SERVICE>_DATABASE_URL", "TMS_<SERVICE>_ADDR", "TMS_SITE_URL", "TMS_TRUST_FORWARDED", "TMS_DATABASE_URL"}, nil, false},
		{"serve bad flag", []string{"serve", "--nope"}, exitUsage, nil, []string{"-nope"}, true},
		{"serve bad services", []string{"serve", "--services=nope"}, exitUsage, nil, []string{`unknown service "nope"`}, true},
		{"serve stray word", []string{"serve", "now"}, exitUsage, nil, []string{`unexpected argument "now"`}, true},
		{"users without action", []string{"users"}, exitUsage, nil, []string{"tms users create"}, true},
		{"users unknown action", []string{"users", "promote", "x"}, exitUsage, nil, []string{`unknown action "promote"`}, true},
		{"users token without name", []string{"users", "token"}, exitUsage, nil, []string{"want 1 argument"}, true},
		{"migrate bad service", []string{"migrate", "--service=nope"}, exitUsage, nil, []string{`unknown service "nope"`}, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(c.args, &out, &errOut)
			if code != c.code {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, c.code, &out, &errOut)
			}
			for _, want := range c.stdout {
				if !strings.Contains(out.String(), want) {
					t.Errorf("stdout lacks %q:\n%s", want, &out)
				}
			}
			for _, want := range c.stderr {
				if !strings.Contains(errOut.String(), want) {
					t.Errorf("stderr lacks %q:\n%s", want, &errOut)
				}
			}
			if c.stdoutNone && out.Len() > 0 {
				t.Errorf("an error printed to stdout: %s", &out)
			}
		})
	}
}

// TestUsersCommands manages accounts on a SQLite data directory.
func TestUsersCommands(t *testing.T) {
	t.Setenv("TMS_DATA_DIR", t.TempDir())
	t.Setenv("TMS_DATABASE_URL", "")
	t.Setenv("TMS_NOTIFICATION_DATABASE_URL", "")
	t.Setenv("TMS_ADMIN_TOKEN", "")
	runOK := func(args ...string) string {
		t.Helper()
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != exitOK {
			t.Fatalf("tms %v: exit %d: %s", args, code, &errOut)
		}
		return out.String()
	}
	runOK("users", "create", "tina", "--full-name=Tina Translator", "--email=tina@example.org")
	runOK("users", "create", "--superuser", "root2")
	list := runOK("users", "list")
	for _, want := range []string{"tina", "Tina Translator", "tina@example.org", "root2", "admin"} {
		if !strings.Contains(list, want) {
			t.Errorf("list lacks %q:\n%s", want, list)
		}
	}
	tok := strings.TrimSpace(runOK("users", "token", "tina"))
	if !regexp.MustCompile(`^wlu_[A-Za-z0-9]{36}$`).MatchString(tok) {
		t.Errorf("token %q is not wlu_ + 36 alphanumerics", tok)
	}
	if again := strings.TrimSpace(runOK("users", "token", "tina")); again == tok {
		t.Error("a second token equals the first")
	}
	runOK("users", "deactivate", "tina")
	if line := lineOf(runOK("users", "list"), "tina"); !strings.HasSuffix(strings.TrimSpace(line), "false") {
		t.Errorf("tina still active: %q", line)
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"users", "create", "tina"}, &out, &errOut); code != exitFailure || !strings.Contains(errOut.String(), "username") {
		t.Errorf("duplicate create: exit %d, %s", code, &errOut)
	}
	errOut.Reset()
	if code := run([]string{"users", "deactivate", "nobody"}, &out, &errOut); code != exitFailure {
		t.Errorf("deactivate of an unknown user: exit %d, %s", code, &errOut)
	}
	runOK("migrate")
	runOK("migrate", "--service=catalog,changelog")
}

func lineOf(text, prefix string) string {
	for _, l := range strings.Split(text, "\n") {
		if strings.HasPrefix(l, prefix+" ") {
			return l
		}
	}
	return ""
}

// TestSecondInstanceOnOneDataDirectory starts the built binary twice on
// one data directory: the second stops at once with a clear message and
// the first keeps serving, its pid files intact.
func TestSecondInstanceOnOneDataDirectory(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "tms")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	data := t.TempDir()
	addr := testAddr(t)
	var firstLog stacktest.Buffer // written by the process's copier goroutine
	first := exec.Command(bin, "serve", "--data-dir="+data, "--http-addr="+addr)
	first.Stdout, first.Stderr = &firstLog, &firstLog
	first.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = first.Process.Signal(syscall.SIGTERM); _ = first.Wait() })
	waitFor(t, func() bool {
		r, err := http.Get("http://" + addr + "/api/")
		if err == nil {
			_ = r.Body.Close()
		}
		return err == nil
	})
	if !strings.Contains(firstLog.String(), "gateway listening") {
		t.Errorf("first process answered before logging that it listens:\n%s", firstLog.String())
	}
	before := snapshot(t, data)

	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	second := exec.CommandContext(ctx, bin, "serve", "--data-dir="+data, "--http-addr="+testAddr(t))
	out, err := second.CombinedOutput()
	if ctx.Err() != nil || err == nil {
		t.Fatalf("second instance did not stop at once: %v\n%s", err, out)
	}
	pid := strconv.Itoa(first.Process.Pid)
	if !strings.Contains(string(out), "is in use") || !strings.Contains(string(out), "pid "+pid) {
		t.Errorf("second instance's message does not say the directory is in use by pid %s:\n%s", pid, out)
	}
	if after := snapshot(t, data); after != before {
		t.Errorf("second instance touched the data directory:\nbefore %s\nafter  %s", before, after)
	}
	r, err := http.Get("http://" + addr + "/api/")
	if err != nil {
		t.Fatalf("first instance stopped serving: %v", err)
	}
	_ = r.Body.Close()
	if r.StatusCode != 200 {
		t.Fatalf("first instance stopped serving: %s", r.Status)
	}
	for _, role := range []string{"catalog", "translation", "changelog", "notification", "gateway"} {
		b, err := os.ReadFile(filepath.Join(data, "run", role+".pid"))
		if err != nil || strings.TrimSpace(string(b)) != pid {
			t.Errorf("%s.pid = %q, %v; want %s", role, b, err, pid)
		}
	}
	_ = first.Process.Signal(syscall.SIGTERM)
	_ = first.Wait()
	if _, err := os.Stat(filepath.Join(data, "run", "gateway.pid")); !os.IsNotExist(err) {
		t.Errorf("pid file left after a clean stop: %v", err)
	}
}

// snapshot lists the data directory's files, with the sizes and times of
// the lock and pid files (the databases' contents are the running first
// process's to change).
func snapshot(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() {
			return err
		}
		b.WriteString(p)
		if filepath.Base(filepath.Dir(p)) == "run" {
			b.WriteString(":" + strconv.FormatInt(info.Size(), 10) + ":" + info.ModTime().String())
		}
		b.WriteString(" ")
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
}

func testAddr(t *testing.T) string {
	t.Helper()
	addr, err := freeAddr()
	if err != nil {
		t.Fatal(err)
	}
	return addr
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(30 * time.Second); !cond(); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("condition not met within 30s")
		}
	}
}

// TestRunSplit starts the split deployment with the built binary: five
// processes, each with its pid file, the API answering; SIGTERM stops them
// all and the throwaway database.
func TestRunSplit(t *testing.T) {
	if os.Getenv("TMS_TEST_SKIP_POSTGRES") == "1" {
		t.Skip("needs the PostgreSQL binaries")
	}
	bin := filepath.Join(t.TempDir(), "tms")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	data, addr := t.TempDir(), testAddr(t)
	var log bytes.Buffer
	cmd := exec.Command(bin, "run-split", "--data-dir="+data)
	cmd.Env = append(os.Environ(), "TMS_HTTP_ADDR="+addr, "TMS_ADMIN_TOKEN=wlu_splittest0123456789abcdefghijklmnopq")
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	waitFor(t, func() bool {
		r, err := http.Get("http://" + addr + "/api/projects/")
		if err == nil {
			_ = r.Body.Close()
		}
		return err == nil && r.StatusCode == 200
	})
	pids := map[string]bool{}
	for _, role := range []string{"catalog", "translation", "changelog", "notification", "gateway"} {
		b, err := os.ReadFile(filepath.Join(data, "run", role+".pid"))
		if err != nil {
			t.Fatalf("%s.pid: %v\n%s", role, err, &log)
		}
		pids[strings.TrimSpace(string(b))] = true
	}
	if len(pids) != 5 {
		t.Errorf("pid files name %d processes, want 5", len(pids))
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("run-split after SIGTERM: %v\n%s", err, &log)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("run-split did not stop\n%s", &log)
	}
	for pid := range pids {
		n, _ := strconv.Atoi(pid)
		if err := syscall.Kill(n, 0); err == nil {
			t.Errorf("process %s still runs after run-split stopped", pid)
		}
	}
}
