package stack

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// roleLocks hold one role each (a backend or the gateway) for this
// process: an exclusive flock on <data>/run/<role>.lock, so two processes
// can share a data directory only when they run different roles (a split
// deployment), and a second all-in-one process fails before it opens any
// database. The pid file of a role is written once its lock is held.
type roleLocks struct {
	dir   string
	files map[string]*os.File
}

// errNoDataDir is a data directory that cannot be created.
var errNoDataDir = errors.New("data directory unusable")

// lockRoles takes the locks of roles under dataDir/run, all or none.
func lockRoles(dataDir string, roles []string) (*roleLocks, error) {
	l := &roleLocks{dir: filepath.Join(dataDir, "run"), files: map[string]*os.File{}}
	if err := os.MkdirAll(l.dir, 0o755); err != nil {
		return nil, fmt.Errorf("%w: %w", errNoDataDir, err)
	}
	for _, role := range roles {
		if err := l.take(role); err != nil {
			return nil, errors.Join(err, l.release())
		}
	}
	for role := range l.files {
		pid := []byte(strconv.Itoa(os.Getpid()) + "\n")
		if err := os.WriteFile(l.pidFile(role), pid, 0o644); err != nil {
			return nil, errors.Join(err, l.release())
		}
	}
	return l, nil
}

// dyingWait bounds the wait for the lock of a predecessor that is dying
// (killed, its files not closed yet): a restart right after a kill -9
// takes over instead of failing.
const dyingWait = 10 * time.Second

func (l *roleLocks) take(role string) error {
	path := filepath.Join(l.dir, role+".lock")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return err
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	for end := time.Now().Add(dyingWait); errors.Is(err, syscall.EWOULDBLOCK) && l.holderDying(role) && time.Now().Before(end); {
		time.Sleep(50 * time.Millisecond) //nolint:forbidigo // polling a lock the kernel frees when the dying process's files close
		err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	}
	if err != nil {
		_ = f.Close() // the lock's error is the one to report
		if errors.Is(err, syscall.EWOULDBLOCK) {
			return fmt.Errorf("data directory %s is in use: another process (%s) runs %s (lock %s); stop it or choose another --data-dir",
				filepath.Dir(l.dir), l.holder(role), role, path)
		}
		return fmt.Errorf("lock %s: %w", path, err)
	}
	l.files[role] = f
	return nil
}

// holderDying tells whether the process of a role's pid file is on its way
// out: gone, a zombie, or with a SIGKILL pending (Linux /proc).
func (l *roleLocks) holderDying(role string) bool {
	b, err := os.ReadFile(l.pidFile(role))
	if err != nil {
		return false
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil || pid == os.Getpid() {
		return false
	}
	return dying(pid)
}

// sigkill is SIGKILL's bit in /proc/<pid>/status signal masks.
const sigkill = 1 << (int(syscall.SIGKILL) - 1)

// dying reads /proc/<pid>/status: no such process, state Z or X, or a
// SIGKILL pending for it.
func dying(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "status")) //nolint:gosec // G304: a /proc path of a pid
	if err != nil {
		return errors.Is(err, os.ErrNotExist)
	}
	for _, line := range strings.Split(string(b), "\n") {
		key, val, _ := strings.Cut(line, ":")
		val = strings.TrimSpace(val)
		switch key {
		case "State":
			if strings.HasPrefix(val, "Z") || strings.HasPrefix(val, "X") {
				return true
			}
		case "SigPnd", "ShdPnd":
			if mask, err := strconv.ParseUint(val, 16, 64); err == nil && mask&sigkill != 0 {
				return true
			}
		}
	}
	return false
}

// holder names the process of a role's pid file, as well as it is known.
func (l *roleLocks) holder(role string) string {
	b, err := os.ReadFile(l.pidFile(role))
	if err != nil {
		return "pid unknown"
	}
	return "pid " + strings.TrimSpace(string(b))
}

func (l *roleLocks) pidFile(role string) string { return filepath.Join(l.dir, role+".pid") }

// release removes the pid files and drops the locks.
func (l *roleLocks) release() error {
	var errs []error
	for role, f := range l.files {
		if err := os.Remove(l.pidFile(role)); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
		errs = append(errs, f.Close()) // closing drops the flock
	}
	l.files = nil
	return errors.Join(errs...)
}
