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
	// NetworkTimeout bounds every operation that talks to a remote (clone,
	// fetch, push), so that a remote that never answers cannot hold a
	// component's lock; zero means DefaultNetworkTimeout.
	NetworkTimeout time.Duration
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

// DefaultNetworkTimeout is the bound of remote operations unless set.
const DefaultNetworkTimeout = 2 * time.Minute

// ErrTimeout marks a remote operation that ran out of time.
var ErrTimeout = errors.New("the remote repository did not answer in time")

func (m *Manager) timeout() time.Duration {
	if m.NetworkTimeout > 0 {
		return m.NetworkTimeout
	}
	return DefaultNetworkTimeout
}

// withTimeout runs op under the network timeout, naming a timeout as such.
func withTimeout(ctx context.Context, timeout time.Duration, op func(context.Context) error) error {
	if timeout <= 0 {
		timeout = DefaultNetworkTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	err := op(ctx)
	if err != nil && errors.Is(ctx.Err(), context.DeadlineExceeded) {
		// The cause stays text: it is this operation's own deadline, which
		// must not read as the caller's (errs.FromStatus would make it a 504).
		return fmt.Errorf("%w (%v): %v", ErrTimeout, timeout, err) //nolint:errorlint // see above
	}
	return err
}

// Repo is an open working copy.
type Repo struct {
	Dir     string
	Branch  string
	repo    *git.Repository
	timeout time.Duration // of operations on remotes
}

// Sync brings the working copy of a component up to date with url/branch:
// a fresh clone when there is none (or it belongs to another remote and
// holds nothing of its own), else a fetch followed by a fast-forward when
// the local branch has nothing of its own. A copy with commits its remote
// lacks keeps them when the remote's address changes: origin is pointed at
// url and fetched, and a branch that diverged is left for the caller to
// merge. An empty branch means the remote HEAD; the branch used is
// returned in Repo.Branch.
func (m *Manager) Sync(ctx context.Context, componentID int64, url, branch string) (*Repo, error) {
	dir := m.Dir(componentID)
	if r, err := git.PlainOpen(dir); err == nil {
		if rem, err := r.Remote("origin"); err == nil && len(rem.Config().URLs) > 0 && rem.Config().URLs[0] == url {
			if repo, moved, err := m.rebranch(dir, r, branch); moved || err != nil {
				if err != nil {
					return nil, err
				}
				return update(ctx, dir, repo.repo, branch, m.timeout())
			}
			if head, err := r.Head(); err != nil || branch == "" || head.Name().Short() == branch {
				return update(ctx, dir, r, branch, m.timeout())
			}
			// Another branch, nothing of its own to keep: clone afresh.
		}
		if repo, ok, err := m.repoint(dir, r, url, branch); ok || err != nil {
			if err != nil {
				return nil, err
			}
			return update(ctx, dir, repo.repo, branch, m.timeout())
		}
	}
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o750); err != nil {
		return nil, err
	}
	return clone(ctx, dir, url, branch, m.timeout())
}

// rebranch moves a copy holding unpushed commits to another branch of the
// same remote: the local branch branch starts at the current HEAD, so the
// commits stay, and the caller merges the remote branch into it. moved is
// false when there is no other branch to go to or nothing to keep.
func (m *Manager) rebranch(dir string, r *git.Repository, branch string) (_ *Repo, moved bool, err error) {
	head, err := r.Head()
	if err != nil || branch == "" || head.Name().Short() == branch {
		return nil, false, nil //nolint:nilerr // nothing to move
	}
	repo := &Repo{Dir: dir, Branch: head.Name().Short(), repo: r, timeout: m.timeout()}
	if h, rh, err := repo.Position(); err != nil || h == rh {
		return nil, false, nil //nolint:nilerr // nothing unpushed
	}
	ref := plumbing.NewBranchReferenceName(branch)
	if err := r.Storer.SetReference(plumbing.NewHashReference(ref, head.Hash())); err != nil {
		return nil, false, err
	}
	if err := r.Storer.SetReference(plumbing.NewSymbolicReference(plumbing.HEAD, ref)); err != nil {
		return nil, false, err
	}
	repo.Branch = branch
	return repo, true, nil
}

// repoint points origin of a copy holding unpushed commits on branch at
// url; ok is false when the copy has nothing of its own (a fresh clone
// then serves as well).
func (m *Manager) repoint(dir string, r *git.Repository, url, branch string) (_ *Repo, ok bool, err error) {
	head, err := r.Head()
	if err != nil {
		return nil, false, nil //nolint:nilerr // no usable branch: clone afresh
	}
	repo := &Repo{Dir: dir, Branch: head.Name().Short(), repo: r, timeout: m.timeout()}
	h, rh, err := repo.Position()
	if err != nil || h == rh {
		return nil, false, nil //nolint:nilerr // nothing unpushed
	}
	if err := r.DeleteRemote("origin"); err != nil {
		return nil, false, err
	}
	if _, err := r.CreateRemote(&config.RemoteConfig{Name: "origin", URLs: []string{url},
		Fetch: []config.RefSpec{config.RefSpec("+refs/heads/*:refs/remotes/origin/*")}}); err != nil {
		return nil, false, err
	}
	// The old remote's tracking branch names commits of another remote.
	_ = r.Storer.RemoveReference(plumbing.NewRemoteReferenceName("origin", repo.Branch))
	if moved, _, err := m.rebranch(dir, r, branch); err != nil || moved != nil {
		return moved, true, err
	}
	return repo, true, nil
}

func clone(ctx context.Context, dir, url, branch string, timeout time.Duration) (*Repo, error) {
	opts := &git.CloneOptions{URL: url, Tags: git.NoTags}
	if branch != "" {
		opts.ReferenceName = plumbing.NewBranchReferenceName(branch)
		opts.SingleBranch = true
	}
	var r *git.Repository
	err := withTimeout(ctx, timeout, func(ctx context.Context) (err error) {
		r, err = git.PlainCloneContext(ctx, dir, false, opts)
		return err
	})
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
	return &Repo{Dir: dir, Branch: head.Name().Short(), repo: r, timeout: timeout}, nil
}

// update fetches origin and fast-forwards the checked-out branch when the
// local branch is an ancestor of the remote one. A diverged branch is left
// alone: merging is the pull operation's job.
func update(ctx context.Context, dir string, r *git.Repository, branch string, timeout time.Duration) (*Repo, error) {
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
	repo := &Repo{Dir: dir, Branch: branch, repo: r, timeout: timeout}
	if err = repo.Fetch(ctx); err != nil {
		return nil, err
	}
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
	ff, err := local.IsAncestor(upstream)
	if err != nil || !ff {
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
	return &Repo{Dir: dir, Branch: head.Name().Short(), repo: r, timeout: m.timeout()}, nil
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
