package workcopy

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
)

var installFile sync.Once

// installFileTransport serves file:// and plain paths in process, so that a
// local repository never execs the git binary.
func installFileTransport() {
	installFile.Do(InstallFileTransport)
}

// Manager locates working copies below <DataDir>/repos.
type Manager struct {
	root string
	// locks serialise git operations per component.
	mu    sync.Mutex
	locks map[int64]*sync.Mutex
}

// NewManager returns a manager for <dataDir>/repos.
func NewManager(dataDir string) *Manager {
	installFileTransport()
	return &Manager{root: filepath.Join(dataDir, "repos"), locks: map[int64]*sync.Mutex{}}
}

// Dir is the working copy directory of a component.
func (m *Manager) Dir(componentID int64) string {
	return filepath.Join(m.root, strconv.FormatInt(componentID, 10))
}

// Lock serialises work on one component's clone; call the returned func to
// release it.
func (m *Manager) Lock(componentID int64) func() {
	m.mu.Lock()
	l, ok := m.locks[componentID]
	if !ok {
		l = &sync.Mutex{}
		m.locks[componentID] = l
	}
	m.mu.Unlock()
	l.Lock()
	return l.Unlock
}

// Remove deletes a component's working copy.
func (m *Manager) Remove(componentID int64) error {
	return os.RemoveAll(m.Dir(componentID))
}

// Repo is an open working copy.
type Repo struct {
	Dir    string
	Branch string
	repo   *git.Repository
}

// Sync brings the working copy of a component up to date with url/branch:
// a fresh clone when there is none (or it belongs to another remote), else a
// fetch followed by a fast-forward when the local branch has nothing of its
// own. An empty branch means the remote HEAD; the branch used is returned in
// Repo.Branch.
func (m *Manager) Sync(ctx context.Context, componentID int64, url, branch string) (*Repo, error) {
	dir := m.Dir(componentID)
	if r, err := git.PlainOpen(dir); err == nil {
		if rem, err := r.Remote("origin"); err == nil && len(rem.Config().URLs) > 0 && rem.Config().URLs[0] == url {
			return update(ctx, dir, r, branch)
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o750); err != nil {
		return nil, err
	}
	return clone(ctx, dir, url, branch)
}

func clone(ctx context.Context, dir, url, branch string) (*Repo, error) {
	opts := &git.CloneOptions{URL: url, Tags: git.NoTags}
	if branch != "" {
		opts.ReferenceName = plumbing.NewBranchReferenceName(branch)
		opts.SingleBranch = true
	}
	r, err := git.PlainCloneContext(ctx, dir, false, opts)
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, fmt.Errorf("clone %s: %w", url, err)
	}
	head, err := r.Head()
	if err != nil {
		return nil, fmt.Errorf("clone %s: read HEAD: %w", url, err)
	}
	if !head.Name().IsBranch() {
		return nil, fmt.Errorf("clone %s: HEAD is not a branch", url)
	}
	return &Repo{Dir: dir, Branch: head.Name().Short(), repo: r}, nil
}

// update fetches origin and fast-forwards the checked-out branch when the
// local branch is an ancestor of the remote one. A diverged branch is left
// alone: merging is the pull operation's job.
func update(ctx context.Context, dir string, r *git.Repository, branch string) (*Repo, error) {
	head, err := r.Head()
	if err != nil {
		return nil, fmt.Errorf("read HEAD: %w", err)
	}
	if branch == "" {
		branch = head.Name().Short()
	}
	if head.Name().Short() != branch {
		return nil, fmt.Errorf("working copy is on %s, not %s", head.Name().Short(), branch)
	}
	spec := config.RefSpec("+refs/heads/" + branch + ":refs/remotes/origin/" + branch)
	err = r.FetchContext(ctx, &git.FetchOptions{RemoteName: "origin", RefSpecs: []config.RefSpec{spec}, Tags: git.NoTags})
	if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
		return nil, fmt.Errorf("fetch: %w", err)
	}
	repo := &Repo{Dir: dir, Branch: branch, repo: r}
	remote, err := r.Reference(plumbing.NewRemoteReferenceName("origin", branch), true)
	if err != nil {
		return nil, fmt.Errorf("remote branch %s: %w", branch, err)
	}
	if remote.Hash() == head.Hash() {
		return repo, nil
	}
	local, err := r.CommitObject(head.Hash())
	if err != nil {
		return nil, err
	}
	upstream, err := r.CommitObject(remote.Hash())
	if err != nil {
		return nil, err
	}
	if ff, err := local.IsAncestor(upstream); err != nil || !ff {
		return repo, err
	}
	wt, err := r.Worktree()
	if err != nil {
		return nil, err
	}
	if st, err := wt.Status(); err != nil || !st.IsClean() {
		return repo, err
	}
	if err := wt.Reset(&git.ResetOptions{Commit: remote.Hash(), Mode: git.HardReset}); err != nil {
		return nil, fmt.Errorf("fast-forward: %w", err)
	}
	return repo, nil
}

// Open opens an existing working copy.
func (m *Manager) Open(componentID int64) (*Repo, error) {
	dir := m.Dir(componentID)
	r, err := git.PlainOpen(dir)
	if err != nil {
		return nil, err
	}
	head, err := r.Head()
	if err != nil {
		return nil, err
	}
	return &Repo{Dir: dir, Branch: head.Name().Short(), repo: r}, nil
}

// Head returns the hash of the checked-out commit.
func (r *Repo) Head() (string, error) {
	h, err := r.repo.Head()
	if err != nil {
		return "", err
	}
	return h.Hash().String(), nil
}

// HeadTime is when the HEAD commit was made (its committer time).
func (r *Repo) HeadTime() (time.Time, error) {
	h, err := r.repo.Head()
	if err != nil {
		return time.Time{}, err
	}
	c, err := r.repo.CommitObject(h.Hash())
	if err != nil {
		return time.Time{}, err
	}
	return c.Committer.When, nil
}

// BlobHash is the git object id of content, as `git hash-object` computes
// it; translations store it as their revision to tell changed files.
func BlobHash(content []byte) string {
	return plumbing.ComputeHash(plumbing.BlobObject, content).String()
}
