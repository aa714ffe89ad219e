package workcopy

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/protocol/packp"
	"github.com/go-git/go-git/v5/plumbing/revlist"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/plumbing/transport"
	"github.com/go-git/go-git/v5/plumbing/transport/client"
	"github.com/go-git/go-git/v5/plumbing/transport/server"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/utils/ioutil"
)

// InstallFileTransport serves file:// and plain paths in process, so a
// local repository never execs the git binary. Three things differ from
// go-git's own file server:
//   - repositories are found as git finds them: a bare directory, or the
//     .git directory (or "gitdir:" file) of a checkout; go-git's loader
//     would read a checkout's working tree as if it were the repository
//     and find no refs in it;
//   - go-git's in-process upload-pack fails ("object not found") when the
//     client announces a commit the server lacks, which every fetch into a
//     working copy with unpushed commits does; the wrapper drops such haves
//     first, as git's own upload-pack ignores them;
//   - packs carry no deltas (packWithoutDeltas).
func InstallFileTransport() {
	client.InstallProtocol("file", fileTransport{server.NewServer(localLoader{})})
}

// localLoader opens the repository of a local path the way git does.
type localLoader struct{}

// localObjectCache bounds the decoded objects a served repository keeps
// for resolving deltas. go-git's default, 96 MiB, filled up with a large
// component's translation files and was the peak of a 294k-unit import's
// memory; a pack is read once, in order, so a delta's base is usually
// the object just before it.
const localObjectCache = 16 * cache.MiByte

// Load answers transport.ErrRepositoryNotFound when the path holds no
// repository.
func (localLoader) Load(ep *transport.Endpoint) (storer.Storer, error) {
	dir, bare, err := gitDir(ep.Path)
	if err != nil {
		return nil, err
	}
	st := filesystem.NewStorage(osfs.New(dir), cache.NewObjectLRU(localObjectCache))
	if bare {
		return st, nil
	}
	return checkoutStorer{st}, nil
}

// gitDir finds the repository directory of path: path itself when it is
// bare (it has a config file and no .git), else its .git directory or the
// directory a .git file points to.
func gitDir(path string) (dir string, bare bool, err error) {
	dotgit := filepath.Join(path, ".git")
	info, err := os.Stat(dotgit)
	switch {
	case err == nil && info.IsDir():
		return dotgit, false, nil
	case err == nil:
		return gitFileTarget(path, dotgit)
	}
	if _, err := os.Stat(filepath.Join(path, "config")); err == nil {
		return path, true, nil
	}
	return "", false, transport.ErrRepositoryNotFound
}

// gitFileTarget reads a ".git" file ("gitdir: <path>"), as worktrees and
// submodules have.
func gitFileTarget(path, dotgit string) (string, bool, error) {
	b, err := os.ReadFile(dotgit) //nolint:gosec // G304: the .git file of a local repository, which workcopy.ValidateURL lets in only with TMS_ALLOW_LOCAL_REPOS
	if err != nil {
		return "", false, transport.ErrRepositoryNotFound
	}
	target, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return "", false, transport.ErrRepositoryNotFound
	}
	target = strings.TrimSpace(target)
	if !filepath.IsAbs(target) {
		target = filepath.Join(path, target)
	}
	return target, false, nil
}

// checkoutStorer marks the storage of a repository with a working tree, so
// that a push does not move the branch its owner has checked out.
type checkoutStorer struct{ *filesystem.Storage }

type fileTransport struct{ transport.Transport }

func (t fileTransport) NewUploadPackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.UploadPackSession, error) {
	s, err := t.Transport.NewUploadPackSession(ep, auth)
	if err != nil {
		return nil, err
	}
	return knownHaves{UploadPackSession: s, ep: ep}, nil
}

func (t fileTransport) NewReceivePackSession(ep *transport.Endpoint, auth transport.AuthMethod) (transport.ReceivePackSession, error) {
	s, err := t.Transport.NewReceivePackSession(ep, auth)
	if err != nil {
		return nil, err
	}
	return checkedOutGuard{ReceivePackSession: s, ep: ep}, nil
}

type knownHaves struct {
	transport.UploadPackSession
	ep *transport.Endpoint
}

func (s knownHaves) UploadPack(ctx context.Context, req *packp.UploadPackRequest) (*packp.UploadPackResponse, error) {
	st, err := localLoader{}.Load(s.ep)
	if err != nil {
		return nil, err
	}
	var haves []plumbing.Hash
	for _, h := range req.Haves {
		if st.HasEncodedObject(h) == nil {
			haves = append(haves, h)
		}
	}
	req.Haves = haves
	if req.IsEmpty() || len(req.Shallows) > 0 {
		return s.UploadPackSession.UploadPack(ctx, req) // its errors
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return packWithoutDeltas(ctx, st, req)
}

// packWithoutDeltas answers an upload-pack request as go-git's server
// does, except that the pack carries whole objects: go-git searches
// deltas in a window of 10 objects, which on a component's large, similar
// translation files took more CPU than the rest of an import together
// (half of a 250k-unit PO import, four fifths of a 40k-key JSON one). The
// pack never leaves the machine, so its size does not matter; a remote
// repository's server packs with its own git. writePack does not
// compress for the same reason.
func packWithoutDeltas(ctx context.Context, st storer.Storer, req *packp.UploadPackRequest) (*packp.UploadPackResponse, error) {
	haves, err := revlist.Objects(st, req.Haves, nil)
	if err != nil {
		return nil, err
	}
	objs, err := revlist.Objects(st, req.Wants, haves)
	if err != nil {
		return nil, err
	}
	pr, pw := io.Pipe()
	go func() {
		pw.CloseWithError(writePack(ctx, pw, st, objs))
	}()
	return packp.NewUploadPackResponseWithPackfile(req, ioutil.NewContextReadCloser(ctx, pr)), nil
}

// errCheckedOut is git's refusal (receive.denyCurrentBranch): moving the
// checked-out branch of a repository with a working tree would leave that
// tree out of step with its branch.
var errCheckedOut = errors.New("refusing to update checked out branch")

type checkedOutGuard struct {
	transport.ReceivePackSession
	ep *transport.Endpoint
}

func (s checkedOutGuard) ReceivePack(ctx context.Context, req *packp.ReferenceUpdateRequest) (*packp.ReportStatus, error) {
	st, err := localLoader{}.Load(s.ep)
	if err != nil {
		return nil, err
	}
	if _, checkout := st.(checkoutStorer); checkout {
		if head, err := st.Reference(plumbing.HEAD); err == nil && head.Type() == plumbing.SymbolicReference {
			for _, c := range req.Commands {
				if c.Name == head.Target() {
					return nil, fmt.Errorf("%w: %s", errCheckedOut, c.Name)
				}
			}
		}
	}
	return s.ReceivePackSession.ReceivePack(ctx, req)
}
