package server

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestPlanSpills: a plan past planMemory operations moves to a temporary
// file and gives them back in order, in batches, then removes the file.
func TestPlanSpills(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	for _, n := range []int{0, 1, planMemory, planMemory + 1, 3*planMemory + 7} {
		var p plan[plannedEdit]
		for i := range n {
			if err := p.add(plannedEdit{ID: int64(i), Target: string(rune('a' + i%26)), State: i % 3 * 10}); err != nil {
				t.Fatal(err)
			}
		}
		if spilled := p.f != nil; spilled != (n > planMemory) {
			t.Errorf("%d operations: spilled %v", n, spilled)
		}
		next := 0
		err := p.batches(1000, func(batch []plannedEdit) error {
			if len(batch) > 1000 || len(batch) == 0 {
				t.Errorf("a batch of %d", len(batch))
			}
			for _, e := range batch {
				if e.ID != int64(next) || e.Target != string(rune('a'+next%26)) || e.State != next%3*10 {
					t.Fatalf("operation %d came back as %+v", next, e)
				}
				next++
			}
			return nil
		})
		if err != nil || next != n || p.len() != n {
			t.Errorf("%d operations: %d back, len %d, %v", n, next, p.len(), err)
		}
		p.close()
		if left, _ := filepath.Glob(filepath.Join(os.Getenv("TMPDIR"), "*")); len(left) > 0 {
			t.Errorf("left behind: %v", left)
		}
	}
	var p plan[plannedEdit]
	defer p.close()
	for i := range planMemory + 2 {
		_ = p.add(plannedEdit{ID: int64(i)})
	}
	stop := errors.New("stop")
	if err := p.batches(10, func([]plannedEdit) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("an error of fn: %v", err)
	}
}
