package wlctest

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
)

// TestWLC runs every wlc command the client has (but delete) against a
// stack holding two components; each step checks the exit status, the
// text output and, for commands that change state, the effect. The
// summary at the end lists every command's outcome.
func TestWLC(t *testing.T) {
	if _, err := exec.LookPath("wlc"); err != nil {
		t.Skip("wlc not on PATH (Debian package wlc); skipping the client test")
	}
	s := start(t)
	s.importFixture()
	var summary []string
	for _, st := range steps() {
		ok := t.Run(st.name, func(t *testing.T) {
			s.t = t
			if err := s.run(st); err != nil {
				t.Error(err)
			}
		})
		result := "ok"
		if !ok {
			result = "FAIL"
		}
		summary = append(summary, fmt.Sprintf("%-5s wlc %s", result, strings.Join(st.args, " ")))
	}
	s.t = t
	t.Logf("wlc results:\n%s", strings.Join(summary, "\n"))
}

// run performs one step: set-up, the command, the output and effect
// checks.
func (s *suite) run(st step) error {
	if st.before != nil {
		if err := st.before(s); err != nil {
			return fmt.Errorf("set-up: %w", err)
		}
	}
	args := make([]string, len(st.args))
	for i, a := range st.args {
		args[i] = strings.ReplaceAll(a, "@OUT@", s.out)
	}
	out, err := s.wlc(st.stdin, args...)
	if err != nil {
		return err
	}
	for _, w := range st.want {
		if !strings.Contains(out, w) {
			return fmt.Errorf("output lacks %q:\n%s", w, out)
		}
	}
	if st.after != nil {
		return st.after(s, out)
	}
	return nil
}
