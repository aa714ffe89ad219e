package workcopy

import (
	git "github.com/go-git/go-git/v5"
)

// StageMatching stages the work tree changes (modified, deleted and
// untracked files) whose path match accepts, such as translation files
// added or removed since the last commit, and returns how many it staged.
func (r *Repo) StageMatching(match func(path string) bool) (int, error) {
	wt, err := r.repo.Worktree()
	if err != nil {
		return 0, err
	}
	status, err := wt.Status()
	if err != nil {
		return 0, err
	}
	n := 0
	for path, fs := range status {
		if fs.Worktree == git.Unmodified || !match(path) {
			continue
		}
		if fs.Worktree == git.Deleted {
			_, err = wt.Remove(path)
		} else {
			_, err = wt.Add(path)
		}
		if err != nil {
			return n, err
		}
		n++
	}
	return n, nil
}
