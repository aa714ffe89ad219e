package workcopy

import (
	"fmt"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
)

// Restore puts the given paths back as HEAD has them (deleting those HEAD
// lacks) and stages them: it undoes writes not committed yet.
func (r *Repo) Restore(paths []string) error {
	head, err := r.repo.Head()
	if err != nil {
		return err
	}
	c, err := r.repo.CommitObject(head.Hash())
	if err != nil {
		return err
	}
	return r.checkoutPaths(c, paths)
}

// ResetTo moves the branch, index and work tree back to commit (an
// ancestor of HEAD the caller recorded): it undoes local commits.
func (r *Repo) ResetTo(commit string) error {
	wt, err := r.repo.Worktree()
	if err != nil {
		return err
	}
	if err := wt.Reset(&git.ResetOptions{Commit: plumbing.NewHash(commit), Mode: git.HardReset}); err != nil {
		return fmt.Errorf("reset: %w", err)
	}
	return nil
}
