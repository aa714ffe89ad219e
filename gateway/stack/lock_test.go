package stack

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestLockWaitsForADyingPredecessor: a role's lock held by a process that
// is on its way out (here a zombie names the pid file) is waited for,
// within dyingWait; one held by a live process is refused at once.
func TestLockWaitsForADyingPredecessor(t *testing.T) {
	dir := t.TempDir()
	run := filepath.Join(dir, "run")
	if err := os.MkdirAll(run, 0o755); err != nil {
		t.Fatal(err)
	}
	hold := func() *os.File {
		f, err := os.OpenFile(filepath.Join(run, "catalog.lock"), os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
			t.Fatal(err)
		}
		return f
	}
	names := func(pid int) {
		if err := os.WriteFile(filepath.Join(run, "catalog.pid"), []byte(strconv.Itoa(pid)+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A live holder: refused at once.
	live := exec.Command("sleep", "30")
	if err := live.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = live.Process.Kill(); _ = live.Wait() })
	f := hold()
	names(live.Process.Pid)
	start := time.Now()
	if _, err := lockRoles(dir, []string{Catalog}); err == nil || !strings.Contains(err.Error(), "is in use") || time.Since(start) > time.Second {
		t.Fatalf("a live holder: %v after %v", err, time.Since(start))
	}
	// A dying one (a zombie: exited, not reaped): waited for until the
	// lock is free.
	zombie := exec.Command("true")
	if err := zombie.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = zombie.Wait() })
	for !dying(zombie.Process.Pid) {
		time.Sleep(10 * time.Millisecond)
	}
	names(zombie.Process.Pid)
	go func() { time.Sleep(300 * time.Millisecond); _ = f.Close() }()
	l, err := lockRoles(dir, []string{Catalog})
	if err != nil {
		t.Fatalf("a dying holder: %v", err)
	}
	_ = l.release()
	if dying(os.Getpid()) || dying(live.Process.Pid) {
		t.Error("a running process reads as dying")
	}
}
