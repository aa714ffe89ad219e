package workcopy

import (
	"errors"
	"fmt"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// rebase moves the branch to the remote commit and replays the local
// commits since base on top of it, one by one with their authors and
// messages. The plan already proved that no file changed on both sides,
// so each replay applies cleanly. Local merge commits are flattened into
// their file changes.
func (r *Repo) rebase(base, local, remote *object.Commit, p plan) (MergeResult, error) {
	commits, err := localCommits(base, local)
	if err != nil {
		return MergeResult{}, err
	}
	wt, err := r.repo.Worktree()
	if err != nil {
		return MergeResult{}, err
	}
	if err = wt.Reset(&git.ResetOptions{Commit: remote.Hash, Mode: git.HardReset}); err != nil {
		return MergeResult{}, fmt.Errorf("rebase: %w", err)
	}
	tip := remote.Hash.String()
	for _, c := range commits {
		var parent *object.Commit
		if c.NumParents() > 0 {
			if parent, err = c.Parent(0); err != nil {
				return MergeResult{}, err
			}
		}
		pf, err := files(parent)
		if err != nil {
			return MergeResult{}, err
		}
		cf, err := files(c)
		if err != nil {
			return MergeResult{}, err
		}
		var changed []string
		for _, path := range union(pf, cf) {
			if pf[path] != cf[path] {
				changed = append(changed, path)
			}
		}
		if err = r.checkoutPaths(c, changed); err != nil {
			return MergeResult{}, err
		}
		author := Signature{Name: c.Author.Name, Email: c.Author.Email, When: c.Author.When}
		committer := Signature{Name: c.Committer.Name, Email: c.Committer.Email}
		h, err := r.Commit(c.Message, author, committer)
		if errors.Is(err, ErrNothingToCommit) {
			continue
		}
		if err != nil {
			return MergeResult{}, err
		}
		tip = h
	}
	return MergeResult{Commit: tip, Changed: p.theirs}, nil
}

// localCommits lists the first-parent chain from local back to base,
// oldest first.
func localCommits(base, local *object.Commit) ([]*object.Commit, error) {
	var out []*object.Commit
	c := local
	for c != nil && (base == nil || c.Hash != base.Hash) {
		out = append(out, c)
		if c.NumParents() == 0 {
			break
		}
		p, err := c.Parent(0)
		if err != nil {
			return nil, err
		}
		c = p
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, nil
}
