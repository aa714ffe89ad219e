package stacktest

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Build compiles the tms binary into a temporary directory and returns
// its path (the build cache makes every build after the first a link).
func Build(tb testing.TB) string {
	tb.Helper()
	bin := filepath.Join(tb.TempDir(), "tms")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/tmsproject/tms/gateway/cmd/tms")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		tb.Fatalf("build tms: %v\n%s", err, out)
	}
	return bin
}

// StartProcess runs `tms serve args...` in the working directory dir (""
// is the test's) with env added to the test's environment. The process
// dies with the test binary; at the end of the test it is asked to stop
// (SIGTERM, then killed after ten seconds) and, if the test failed, its
// output is logged.
func StartProcess(tb testing.TB, dir, bin string, env []string, args ...string) *exec.Cmd {
	tb.Helper()
	cmd := exec.Command(bin, append([]string{"serve"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		terminate(cmd)
		if tb.Failed() {
			tb.Logf("%v output:\n%s", args, out.String())
		}
	})
	return cmd
}

// terminate asks cmd to stop and waits for it, killing it after ten
// seconds. A process already waited for is left alone.
func terminate(cmd *exec.Cmd) {
	if cmd.ProcessState != nil {
		return
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		<-done
	}
}

// Buffer is a bytes.Buffer safe for concurrent use: a process's output,
// or a stack's log, written by its goroutines while the test reads it.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (s *Buffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.Write(p)
}

func (s *Buffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.buf.String()
}

// Pause stops p with SIGSTOP and waits until the kernel reports it
// stopped: a loaded machine delivers the signal late, and a request sent
// meanwhile would still be answered.
func Pause(tb testing.TB, p *exec.Cmd) {
	tb.Helper()
	if err := p.Process.Signal(syscall.SIGSTOP); err != nil {
		tb.Fatal(err)
	}
	stat := fmt.Sprintf("/proc/%d/stat", p.Process.Pid)
	Eventually(tb, 10*time.Second, func() bool {
		b, err := os.ReadFile(stat)
		if err != nil {
			return false
		}
		// The state follows the command's closing parenthesis: T is stopped.
		i := bytes.LastIndexByte(b, ')')
		return i >= 0 && len(b) > i+2 && b[i+2] == 'T'
	})
}

// given are the ports FreePorts handed out.
var (
	givenMu sync.Mutex
	given   = map[int]bool{}
)

// FreeAddr is a loopback address free now, for a process the test starts
// to listen on (see FreePorts).
func FreeAddr(tb testing.TB) string {
	tb.Helper()
	return net.JoinHostPort("127.0.0.1", strconv.Itoa(FreePorts(tb, 1)))
}

// FreePorts is the first of n consecutive loopback ports free now. They
// are drawn at random below Linux's ephemeral range (32768-60999): a port
// the kernel handed out for ":0" and got back could be given to the next
// outgoing connection of a busy machine (the parallel tests' own calls)
// before the started process binds it. No port is handed out twice in one
// test binary.
func FreePorts(tb testing.TB, n int) int {
	tb.Helper()
	givenMu.Lock()
	defer givenMu.Unlock()
	for range 100 {
		first := 20000 + rand.IntN(12000-n) //nolint:gosec // G404: a test's port, not a secret
		if free(first, n) {
			for p := first; p < first+n; p++ {
				given[p] = true
			}
			return first
		}
	}
	tb.Fatalf("no %d consecutive free ports in 20000-31999", n)
	return 0
}

// free tells whether the n ports from first are neither given nor bound.
func free(first, n int) bool {
	for p := first; p < first+n; p++ {
		if given[p] {
			return false
		}
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			return false
		}
		_ = l.Close()
	}
	return true
}

// WaitTCP waits until something listens at addr.
func WaitTCP(tb testing.TB, addr string) {
	tb.Helper()
	Eventually(tb, 30*time.Second, func() bool {
		c, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			_ = c.Close()
		}
		return err == nil
	})
}

// WaitHTTP waits until url answers 200.
func WaitHTTP(tb testing.TB, url string) {
	tb.Helper()
	Eventually(tb, 30*time.Second, func() bool {
		r, err := http.Get(url) //nolint:gosec,noctx // G107: the test's own server
		if err == nil {
			_ = r.Body.Close()
		}
		return err == nil && r.StatusCode == 200
	})
}

// Eventually polls cond every 200 ms and fails the test unless it holds
// within limit.
func Eventually(tb testing.TB, limit time.Duration, cond func() bool) {
	tb.Helper()
	end := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(end) {
			tb.Fatalf("condition not met within %v", limit)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
