package origin

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"

	"github.com/tmsproject/tms/services/translation/workcopy"
)

// File reads path as branch holds it in the repository at dir.
func File(dir, branch, path string) (string, error) {
	r, err := git.PlainOpen(dir)
	if err != nil {
		return "", err
	}
	ref, err := r.Reference(plumbing.NewBranchReferenceName(branch), true)
	if err != nil {
		return "", err
	}
	c, err := r.CommitObject(ref.Hash())
	if err != nil {
		return "", err
	}
	f, err := c.File(path)
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return f.Contents()
}

// Branch is the branch the repository is created with.
const Branch = "main"

// Create makes dir/origin.git, a bare repository whose branch main holds
// files (slash-separated path -> content) in one commit, and returns its
// path. A scratch work tree dir/seed is used to build the commit.
func Create(dir string, files map[string][]byte) (string, error) {
	serveFiles()
	bare, seed := filepath.Join(dir, "origin.git"), filepath.Join(dir, "seed")
	init := git.InitOptions{DefaultBranch: plumbing.NewBranchReferenceName(Branch)}
	if _, err := git.PlainInitWithOptions(bare, &git.PlainInitOptions{Bare: true, InitOptions: init}); err != nil {
		return "", fmt.Errorf("init bare: %w", err)
	}
	r, err := git.PlainInitWithOptions(seed, &git.PlainInitOptions{InitOptions: init})
	if err != nil {
		return "", fmt.Errorf("init seed: %w", err)
	}
	if err := noDeltas(r); err != nil {
		return "", err
	}
	if err := commit(r, seed, files); err != nil {
		return "", err
	}
	if _, err := r.CreateRemote(&config.RemoteConfig{Name: "origin", URLs: []string{bare}}); err != nil {
		return "", err
	}
	if err := r.Push(&git.PushOptions{RemoteName: "origin"}); err != nil {
		return "", fmt.Errorf("push: %w", err)
	}
	return bare, os.RemoveAll(seed)
}

// serveFiles serves file:// and plain paths in process, so that the pushes
// here keep the git binary out of the picture. It is the service's own
// file transport: installing go-git's server instead replaced it for the
// rest of the process, and every later in-process import was packed with
// go-git's delta search, twice as slow as the first.
func serveFiles() { workcopy.InstallFileTransport() }

// noDeltas turns off the delta search of r's pushes: its fixtures' files
// are large and alike, and go-git's search over them took longer than the
// imports they are made for.
func noDeltas(r *git.Repository) error {
	cfg, err := r.Config()
	if err != nil {
		return err
	}
	cfg.Pack.Window = 0
	return r.SetConfig(cfg)
}

// Commit adds a commit on main of the bare repository: files are written
// (added or replaced) in a fresh clone under scratch, committed with
// message and pushed.
func Commit(bare, scratch string, files map[string][]byte, message string) error {
	serveFiles()
	dir := filepath.Join(scratch, "clone")
	r, err := git.PlainClone(dir, false, &git.CloneOptions{URL: bare,
		ReferenceName: plumbing.NewBranchReferenceName(Branch), SingleBranch: true})
	if err != nil {
		return fmt.Errorf("clone: %w", err)
	}
	defer func() { _ = os.RemoveAll(dir) }()
	if err := noDeltas(r); err != nil {
		return err
	}
	if err := commitAs(r, dir, files, message); err != nil {
		return err
	}
	if err := r.Push(&git.PushOptions{RemoteName: "origin"}); err != nil {
		return fmt.Errorf("push: %w", err)
	}
	return nil
}

// Read returns a file of the tip of main, and the commit's message.
func Read(bare, name string) (content, message string, err error) {
	r, err := git.PlainOpen(bare)
	if err != nil {
		return "", "", err
	}
	ref, err := r.Reference(plumbing.NewBranchReferenceName(Branch), true)
	if err != nil {
		return "", "", err
	}
	c, err := r.CommitObject(ref.Hash())
	if err != nil {
		return "", "", err
	}
	f, err := c.File(name)
	if err != nil {
		return "", c.Message, fmt.Errorf("%s at %s: %w", name, c.Hash, err)
	}
	content, err = f.Contents()
	return content, c.Message, err
}

func commit(r *git.Repository, dir string, files map[string][]byte) error {
	return commitAs(r, dir, files, "Initial strings")
}

func commitAs(r *git.Repository, dir string, files map[string][]byte, message string) error {
	wt, err := r.Worktree()
	if err != nil {
		return err
	}
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	if err := wt.AddWithOptions(&git.AddOptions{All: true}); err != nil {
		return fmt.Errorf("add: %w", err)
	}
	sig := &object.Signature{Name: "Bench", Email: "bench@tms.example", When: time.Now()}
	if _, err := wt.Commit(message, &git.CommitOptions{Author: sig}); err != nil {
		return fmt.Errorf("commit: %w", err)
	}
	return nil
}
