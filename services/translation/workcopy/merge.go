package workcopy

import (
	"errors"
	"fmt"
	"sort"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// ConflictError reports files changed on both sides of a merge.
type ConflictError struct{ Paths []string }

func (e *ConflictError) Error() string {
	return fmt.Sprintf("merge conflict in %v", e.Paths)
}

// MergeResult tells what Merge did.
type MergeResult struct {
	// UpToDate: the remote had nothing new.
	UpToDate bool
	// FastForward: the local branch moved to the remote commit.
	FastForward bool
	// Commit is the new HEAD (merge commit, rebased tip or remote commit).
	Commit string
	// Changed lists the paths whose content changed in the work tree.
	Changed []string
}

// Style selects how diverged branches are combined.
type Style int

const (
	// StyleMerge creates a merge commit with the remote as second parent.
	StyleMerge Style = iota
	// StyleRebase replays the local commits on top of the remote branch.
	StyleRebase
)

// Merge integrates refs/remotes/origin/<branch> into the checked-out
// branch: a fast-forward when possible, else a merge commit or a rebase.
// The decision is made per file: a file changed on both sides to
// different contents is a conflict, reported as *ConflictError before
// anything is touched, so the working copy stays as it was.
func (r *Repo) Merge(style Style, msg string, committer Signature) (MergeResult, error) {
	head, err := r.repo.Head()
	if err != nil {
		return MergeResult{}, err
	}
	remoteHash, err := r.RemoteHead()
	if err != nil {
		return MergeResult{}, err
	}
	local, err := r.repo.CommitObject(head.Hash())
	if err != nil {
		return MergeResult{}, err
	}
	remote, err := r.repo.CommitObject(remoteHash)
	if err != nil {
		return MergeResult{}, err
	}
	up, err := remote.IsAncestor(local)
	if err != nil || up {
		return MergeResult{UpToDate: true, Commit: local.Hash.String()}, err
	}
	base, err := mergeBase(local, remote)
	if err != nil {
		return MergeResult{}, err
	}
	plan, err := planMerge(base, local, remote)
	if err != nil {
		return MergeResult{}, err
	}
	if base != nil && base.Hash == local.Hash {
		return r.fastForward(remote, plan.theirs)
	}
	if len(plan.conflicts) > 0 {
		return MergeResult{}, &ConflictError{Paths: plan.conflicts}
	}
	if style == StyleRebase {
		return r.rebase(base, local, remote, plan)
	}
	return r.mergeCommit(remote, plan, msg, committer)
}

func mergeBase(a, b *object.Commit) (*object.Commit, error) {
	bases, err := a.MergeBase(b)
	if err != nil || len(bases) == 0 {
		return nil, err
	}
	return bases[0], nil
}

// fileMap is path → blob of a commit's tree.
type fileMap map[string]plumbing.Hash

func files(c *object.Commit) (fileMap, error) {
	out := fileMap{}
	if c == nil {
		return out, nil
	}
	tree, err := c.Tree()
	if err != nil {
		return nil, err
	}
	err = tree.Files().ForEach(func(f *object.File) error {
		out[f.Name] = f.Hash
		return nil
	})
	return out, err
}

// plan is the per-file outcome of a three-way merge.
type plan struct {
	theirs    []string // changed only upstream (or identically on both sides)
	ours      []string // changed only locally
	conflicts []string
}

func planMerge(base, local, remote *object.Commit) (plan, error) {
	var p plan
	fb, err := files(base)
	if err != nil {
		return p, err
	}
	fl, err := files(local)
	if err != nil {
		return p, err
	}
	fr, err := files(remote)
	if err != nil {
		return p, err
	}
	for _, path := range union(fb, fl, fr) {
		b, l, r := fb[path], fl[path], fr[path]
		switch {
		case l == r:
		case b == l:
			p.theirs = append(p.theirs, path)
		case b == r:
			p.ours = append(p.ours, path)
		default:
			p.conflicts = append(p.conflicts, path)
		}
	}
	return p, nil
}

func union(maps ...fileMap) []string {
	seen := map[string]bool{}
	var out []string
	for _, m := range maps {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

func (r *Repo) fastForward(remote *object.Commit, changed []string) (MergeResult, error) {
	wt, err := r.repo.Worktree()
	if err != nil {
		return MergeResult{}, err
	}
	if err := wt.Reset(&git.ResetOptions{Commit: remote.Hash, Mode: git.HardReset}); err != nil {
		return MergeResult{}, fmt.Errorf("fast-forward: %w", err)
	}
	return MergeResult{FastForward: true, Commit: remote.Hash.String(), Changed: changed}, nil
}

// mergeCommit copies the upstream-only changes into the work tree and
// commits with both heads as parents.
func (r *Repo) mergeCommit(remote *object.Commit, p plan, msg string, committer Signature) (MergeResult, error) {
	if err := r.checkoutPaths(remote, p.theirs); err != nil {
		return MergeResult{}, err
	}
	h, err := r.Commit(msg, committer, committer, remote.Hash)
	if err != nil {
		return MergeResult{}, err
	}
	return MergeResult{Commit: h, Changed: p.theirs}, nil
}

// checkoutPaths writes the given paths as they are in c (deleting those
// absent there) and stages them.
func (r *Repo) checkoutPaths(c *object.Commit, paths []string) error {
	wt, err := r.repo.Worktree()
	if err != nil {
		return err
	}
	tree, err := c.Tree()
	if err != nil {
		return err
	}
	for _, path := range paths {
		f, err := tree.File(path)
		if errors.Is(err, object.ErrFileNotFound) {
			if _, err = wt.Remove(path); err != nil {
				return fmt.Errorf("remove %s: %w", path, err)
			}
			continue
		}
		if err != nil {
			return err
		}
		if f.Mode != filemode.Regular && f.Mode != filemode.Executable {
			return fmt.Errorf("%s: unsupported file mode %v", path, f.Mode)
		}
		text, err := f.Contents()
		if err != nil {
			return err
		}
		if err := r.WriteFile(path, []byte(text)); err != nil {
			return err
		}
	}
	return nil
}
