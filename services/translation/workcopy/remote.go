package workcopy

import (
	"context"
	"errors"
	"fmt"
	"strings"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
)

// Fetch updates refs/remotes/origin/<branch> from origin.
func (r *Repo) Fetch(ctx context.Context) error {
	spec := config.RefSpec("+refs/heads/" + r.Branch + ":refs/remotes/origin/" + r.Branch)
	err := withTimeout(ctx, r.timeout, func(ctx context.Context) error {
		return r.repo.FetchContext(ctx, &git.FetchOptions{RemoteName: "origin", RefSpecs: []config.RefSpec{spec}, Tags: git.NoTags})
	})
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		return fmt.Errorf("fetch: %w", err)
	}
	return nil
}

// RemoteHead is the commit of refs/remotes/origin/<branch>.
func (r *Repo) RemoteHead() (plumbing.Hash, error) {
	ref, err := r.repo.Reference(plumbing.NewRemoteReferenceName("origin", r.Branch), true)
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("remote branch %s: %w", r.Branch, err)
	}
	return ref.Hash(), nil
}

// ErrPushRejected wraps a push the remote refused (non-fast-forward).
var ErrPushRejected = errors.New("push rejected")

// Push sends the checked-out branch to url (empty: origin) as branch
// (empty: the same name). When the target is origin's tracked branch, the
// remote-tracking ref follows, so needs_push turns false.
func (r *Repo) Push(ctx context.Context, url, branch string) error {
	if branch == "" {
		branch = r.Branch
	}
	remote, err := r.repo.Remote("origin")
	if err != nil {
		return err
	}
	origin := remote.Config().URLs[0]
	if url != "" && url != origin {
		remote = git.NewRemote(r.repo.Storer, &config.RemoteConfig{Name: "push", URLs: []string{url}})
	}
	spec := config.RefSpec("refs/heads/" + r.Branch + ":refs/heads/" + branch)
	err = withTimeout(ctx, r.timeout, func(ctx context.Context) error {
		return remote.PushContext(ctx, &git.PushOptions{RemoteName: remote.Config().Name, RefSpecs: []config.RefSpec{spec}})
	})
	switch {
	case errors.Is(err, git.NoErrAlreadyUpToDate):
	case err != nil && (strings.Contains(err.Error(), "non-fast-forward") || strings.Contains(err.Error(), "rejected")):
		return fmt.Errorf("%w: %v", ErrPushRejected, err) //nolint:errorlint // the refusal is the kind callers test; the remote's words are text
	case err != nil:
		return fmt.Errorf("push: %w", err)
	}
	if (url == "" || url == origin) && branch == r.Branch {
		head, err := r.repo.Head()
		if err != nil {
			return err
		}
		ref := plumbing.NewHashReference(plumbing.NewRemoteReferenceName("origin", r.Branch), head.Hash())
		return r.repo.Storer.SetReference(ref)
	}
	return nil
}
