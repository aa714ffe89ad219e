package workcopy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// Snapshot is what a working copy holds that its remote does not: the
// commit checked out on Branch (Head), the remote-tracking branch
// (RemoteHead, empty when the remote has no such branch yet) and, as a
// git pack, the objects of the commits between them. A working copy is a
// cache: the remote and a snapshot rebuild it anywhere (Manager.Rebuild).
type Snapshot struct {
	Branch     string
	Head       string
	RemoteHead string
	Pack       []byte
}

// Position is the working copy's HEAD and remote-tracking commit, cheap to
// read: a snapshot is taken again only when they moved.
func (r *Repo) Position() (head, remoteHead string, err error) {
	if head, err = r.Head(); err != nil {
		return "", "", err
	}
	if rh, rerr := r.RemoteHead(); rerr == nil {
		remoteHead = rh.String()
	}
	return head, remoteHead, nil
}

// Snapshot packs the commits of HEAD the remote-tracking branch lacks.
func (r *Repo) Snapshot(ctx context.Context) (Snapshot, error) {
	head, remoteHead, err := r.Position()
	if err != nil {
		return Snapshot{}, err
	}
	snap := Snapshot{Branch: r.Branch, Head: head, RemoteHead: remoteHead}
	if head == remoteHead {
		return snap, nil
	}
	local, err := r.unpushedCommits(plumbing.NewHash(head), plumbing.NewHash(remoteHead))
	if err != nil {
		return Snapshot{}, err
	}
	objs, err := r.introducedObjects(local)
	if err != nil {
		return Snapshot{}, err
	}
	var buf bytes.Buffer
	if err := writePack(ctx, &buf, r.repo.Storer, objs); err != nil {
		return Snapshot{}, err
	}
	snap.Pack = buf.Bytes()
	return snap, nil
}

// unpushedCommits lists the commits reachable from head up to, not
// including, the merge bases of head and remote (all of head's history
// when the remote has nothing).
func (r *Repo) unpushedCommits(head, remote plumbing.Hash) ([]*object.Commit, error) {
	tip, err := r.repo.CommitObject(head)
	if err != nil {
		return nil, err
	}
	stop := map[plumbing.Hash]bool{}
	if !remote.IsZero() {
		if rc, rerr := r.repo.CommitObject(remote); rerr == nil {
			bases, berr := tip.MergeBase(rc)
			if berr != nil {
				return nil, berr
			}
			for _, b := range bases {
				stop[b.Hash] = true
			}
		}
	}
	var out []*object.Commit
	seen := map[plumbing.Hash]bool{}
	pending := []*object.Commit{tip}
	for len(pending) > 0 {
		c := pending[len(pending)-1]
		pending = pending[:len(pending)-1]
		if seen[c.Hash] || stop[c.Hash] {
			continue
		}
		seen[c.Hash] = true
		out = append(out, c)
		err := c.Parents().ForEach(func(p *object.Commit) error {
			pending = append(pending, p)
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	return out, nil
}

// introducedObjects lists each commit with the trees and blobs its tree
// has that its first parent's lacks: with the remote's objects, all a
// rebuilt copy needs.
func (r *Repo) introducedObjects(commits []*object.Commit) ([]plumbing.Hash, error) {
	set := map[plumbing.Hash]bool{}
	var out []plumbing.Hash
	add := func(h plumbing.Hash) bool {
		if set[h] {
			return false
		}
		set[h] = true
		out = append(out, h)
		return true
	}
	for _, c := range commits {
		add(c.Hash)
		var parentTree plumbing.Hash
		if len(c.ParentHashes) > 0 {
			p, err := r.repo.CommitObject(c.ParentHashes[0])
			if err != nil {
				return nil, err
			}
			parentTree = p.TreeHash
		}
		if err := r.newTrees(c.TreeHash, parentTree, add); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// newTrees adds tree and what it holds that old (zero: nothing) lacks,
// descending only into subtrees that differ.
func (r *Repo) newTrees(tree, old plumbing.Hash, add func(plumbing.Hash) bool) error {
	if tree == old || !add(tree) {
		return nil
	}
	t, err := r.repo.TreeObject(tree)
	if err != nil {
		return err
	}
	before := map[string]plumbing.Hash{}
	if !old.IsZero() {
		ot, err := r.repo.TreeObject(old)
		if err != nil {
			return err
		}
		for _, e := range ot.Entries {
			before[e.Name] = e.Hash
		}
	}
	for _, e := range t.Entries {
		prev := before[e.Name]
		switch {
		case e.Hash == prev || e.Mode == filemode.Submodule:
		case e.Mode == filemode.Dir:
			if err := r.newTrees(e.Hash, prev, add); err != nil {
				return err
			}
		default:
			add(e.Hash)
		}
	}
	return nil
}

// descends tells whether commit from has ancestor among its ancestors.
func (r *Repo) descends(from, ancestor string) bool {
	a, err := r.repo.CommitObject(plumbing.NewHash(ancestor))
	if err != nil {
		return false
	}
	c, err := r.repo.CommitObject(plumbing.NewHash(from))
	if err != nil {
		return false
	}
	ok, err := a.IsAncestor(c)
	return err == nil && ok
}

// ErrSnapshotBase marks a snapshot whose commits build on history the
// remote no longer has (it was rewritten): it cannot be rebuilt there.
var ErrSnapshotBase = errors.New("the remote no longer has the history the unpushed commits build on")

// Rebuild makes the component's working copy anew from url and snap: a
// clone of snap's branch, the snapshot's objects added, and the branch
// moved to its HEAD. It is how a replica that has no copy, or an outdated
// one, takes over a component.
func (m *Manager) Rebuild(ctx context.Context, componentID int64, url string, snap Snapshot) (*Repo, error) {
	dir := m.Dir(componentID)
	if err := os.RemoveAll(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o750); err != nil {
		return nil, err
	}
	repo, err := clone(ctx, dir, url, snap.Branch, m.timeout())
	if err != nil {
		return nil, err
	}
	if err := repo.adopt(snap); err != nil {
		_ = os.RemoveAll(dir)
		return nil, err
	}
	return repo, nil
}

// CatchUp brings an outdated working copy of the same branch to snap: it
// fetches the remote, adds the snapshot's objects and checks out its HEAD.
func (r *Repo) CatchUp(ctx context.Context, snap Snapshot) error {
	if r.Branch != snap.Branch {
		return fmt.Errorf("working copy is on %s, not %s", r.Branch, snap.Branch)
	}
	if err := r.Fetch(ctx); err != nil {
		return err
	}
	return r.adopt(snap)
}

// adopt adds snap's objects and checks out its HEAD on its branch.
func (r *Repo) adopt(snap Snapshot) error {
	if len(snap.Pack) > 0 {
		if err := packfile.UpdateObjectStorage(r.repo.Storer, bytes.NewReader(snap.Pack)); err != nil {
			return fmt.Errorf("unpack the unpushed commits: %w", err)
		}
	}
	head := plumbing.NewHash(snap.Head)
	c, err := r.repo.CommitObject(head)
	if err != nil {
		return fmt.Errorf("%w: %v", ErrSnapshotBase, err) //nolint:errorlint // the kind is ours; go-git's words are text
	}
	if _, err = c.Tree(); err != nil {
		return fmt.Errorf("%w: %v", ErrSnapshotBase, err) //nolint:errorlint // as above
	}
	branch := plumbing.NewBranchReferenceName(snap.Branch)
	if err = r.repo.Storer.SetReference(plumbing.NewHashReference(branch, head)); err != nil {
		return err
	}
	wt, err := r.repo.Worktree()
	if err != nil {
		return err
	}
	if err := wt.Reset(&git.ResetOptions{Commit: head, Mode: git.HardReset}); err != nil {
		return fmt.Errorf("%w: %v", ErrSnapshotBase, err) //nolint:errorlint // as above
	}
	return nil
}

// Matches tells whether the working copy holds snap: it is at snap's HEAD
// on its branch, or ahead of it (commits made here that were not recorded
// yet, which a rebuild would lose). When only the remote-tracking branch
// differs (another replica pushed or fetched), it is moved to snap's when
// that commit is here.
func (r *Repo) Matches(snap Snapshot) bool {
	head, remoteHead, err := r.Position()
	if err != nil || r.Branch != snap.Branch || (head != snap.Head && !r.descends(head, snap.Head)) {
		return false
	}
	if remoteHead == snap.RemoteHead || snap.RemoteHead == "" {
		return true
	}
	h := plumbing.NewHash(snap.RemoteHead)
	if _, err := r.repo.CommitObject(h); err != nil {
		return false
	}
	ref := plumbing.NewHashReference(plumbing.NewRemoteReferenceName("origin", r.Branch), h)
	return r.repo.Storer.SetReference(ref) == nil
}
