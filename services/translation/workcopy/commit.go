package workcopy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Signature names an author or committer.
type Signature struct {
	Name  string
	Email string
	When  time.Time
}

func (s Signature) git() *object.Signature {
	when := s.When
	if when.IsZero() {
		when = time.Now()
	}
	return &object.Signature{Name: s.Name, Email: s.Email, When: when}
}

// WriteFile replaces a file of the work tree (path relative, slash
// separated) and stages it.
func (r *Repo) WriteFile(path string, data []byte) error {
	full := filepath.Join(r.Dir, filepath.FromSlash(path))
	if err := os.MkdirAll(filepath.Dir(full), 0o750); err != nil {
		return err
	}
	tmp := full + ".tms-tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	if err := os.Rename(tmp, full); err != nil {
		return err
	}
	wt, err := r.repo.Worktree()
	if err != nil {
		return err
	}
	_, err = wt.Add(path)
	return err
}

// ReadFile reads a file of the work tree.
func (r *Repo) ReadFile(path string) ([]byte, error) {
	return os.ReadFile(filepath.Join(r.Dir, filepath.FromSlash(path)))
}

// ErrNothingToCommit is returned by Commit when the index equals HEAD.
var ErrNothingToCommit = errors.New("workcopy: nothing to commit")

// Commit records the staged changes on the checked-out branch. Extra
// parents make a merge commit (HEAD stays the first parent).
func (r *Repo) Commit(msg string, author, committer Signature, extraParents ...plumbing.Hash) (string, error) {
	wt, err := r.repo.Worktree()
	if err != nil {
		return "", err
	}
	if len(extraParents) == 0 {
		st, serr := wt.Status()
		if serr != nil {
			return "", serr
		}
		if !hasStaged(st) {
			return "", ErrNothingToCommit
		}
	}
	opts := &git.CommitOptions{Author: author.git(), Committer: committer.git()}
	if len(extraParents) > 0 {
		head, herr := r.repo.Head()
		if herr != nil {
			return "", herr
		}
		opts.Parents = append([]plumbing.Hash{head.Hash()}, extraParents...)
		opts.AllowEmptyCommits = true
	}
	h, err := wt.Commit(msg, opts)
	if err != nil {
		return "", fmt.Errorf("commit: %w", err)
	}
	return h.String(), nil
}

func hasStaged(st git.Status) bool {
	for _, fs := range st {
		if fs.Staging != git.Unmodified && fs.Staging != git.Untracked {
			return true
		}
	}
	return false
}
