package workcopy

import (
	"fmt"
	"sort"
	"strings"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/object"
)

// CommitInfo describes one commit.
type CommitInfo struct {
	Hash           string
	AuthorName     string
	AuthorEmail    string
	AuthorTime     time.Time
	CommitterName  string
	CommitterEmail string
	CommitTime     time.Time
	Message        string
}

func commitInfo(c *object.Commit) CommitInfo {
	return CommitInfo{Hash: c.Hash.String(), AuthorName: c.Author.Name, AuthorEmail: c.Author.Email,
		AuthorTime: c.Author.When, CommitterName: c.Committer.Name, CommitterEmail: c.Committer.Email,
		CommitTime: c.Committer.When, Message: c.Message}
}

// State is the position of the local branch against its remote-tracking
// branch, and the work tree status.
type State struct {
	Local, Remote *CommitInfo
	Ahead, Behind int
	Modified      []string
	Untracked     []string
}

// State compares HEAD with refs/remotes/origin/<branch> (as last fetched)
// and lists modified and untracked files.
func (r *Repo) State() (State, error) {
	var st State
	head, err := r.repo.Head()
	if err != nil {
		return st, err
	}
	local, err := r.repo.CommitObject(head.Hash())
	if err != nil {
		return st, err
	}
	li := commitInfo(local)
	st.Local = &li
	if h, herr := r.RemoteHead(); herr == nil {
		remote, cerr := r.repo.CommitObject(h)
		if cerr != nil {
			return st, cerr
		}
		ri := commitInfo(remote)
		st.Remote = &ri
		if st.Ahead, st.Behind, err = aheadBehind(local, remote); err != nil {
			return st, err
		}
	}
	wt, err := r.repo.Worktree()
	if err != nil {
		return st, err
	}
	status, err := wt.Status()
	if err != nil {
		return st, err
	}
	for path, fs := range status {
		if fs.Worktree == git.Untracked {
			st.Untracked = append(st.Untracked, path)
		} else if fs.Worktree != git.Unmodified || fs.Staging != git.Unmodified {
			st.Modified = append(st.Modified, path)
		}
	}
	sort.Strings(st.Modified)
	sort.Strings(st.Untracked)
	return st, nil
}

// aheadBehind counts the commits of each side not reachable from the other.
func aheadBehind(local, remote *object.Commit) (int, int, error) {
	if local.Hash == remote.Hash {
		return 0, 0, nil
	}
	bases, err := local.MergeBase(remote)
	if err != nil {
		return 0, 0, err
	}
	stop := map[plumbing.Hash]bool{}
	for _, b := range bases {
		stop[b.Hash] = true
	}
	ahead, err := countUntil(local, stop)
	if err != nil {
		return 0, 0, err
	}
	behind, err := countUntil(remote, stop)
	return ahead, behind, err
}

func countUntil(from *object.Commit, stop map[plumbing.Hash]bool) (int, error) {
	seen := map[plumbing.Hash]bool{}
	queue := []*object.Commit{from}
	n := 0
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if stop[c.Hash] || seen[c.Hash] {
			continue
		}
		seen[c.Hash] = true
		n++
		err := c.Parents().ForEach(func(p *object.Commit) error {
			queue = append(queue, p)
			return nil
		})
		if err != nil {
			return 0, err
		}
	}
	return n, nil
}

// Status renders st like the summary of `git status`.
func (st State) Status(branch string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "On branch %s\n", branch)
	up := "'origin/" + branch + "'"
	switch {
	case st.Remote == nil:
	case st.Ahead > 0 && st.Behind > 0:
		fmt.Fprintf(&b, "Your branch and %s have diverged,\nand have %d and %d different commits each, respectively.\n"+
			"  (use \"git pull\" if you want to integrate the remote branch with yours)\n", up, st.Ahead, st.Behind)
	case st.Ahead > 0:
		fmt.Fprintf(&b, "Your branch is ahead of %s by %s.\n  (use \"git push\" to publish your local commits)\n", up, commits(st.Ahead))
	case st.Behind > 0:
		fmt.Fprintf(&b, "Your branch is behind %s by %s, and can be fast-forwarded.\n  (use \"git pull\" to update your local branch)\n", up, commits(st.Behind))
	default:
		fmt.Fprintf(&b, "Your branch is up to date with %s.\n", up)
	}
	b.WriteString("\n")
	if len(st.Modified) > 0 {
		b.WriteString("Changes not committed:\n")
		for _, p := range st.Modified {
			b.WriteString("\tmodified:   " + p + "\n")
		}
		b.WriteString("\n")
	}
	if len(st.Untracked) > 0 {
		b.WriteString("Untracked files:\n")
		for _, p := range st.Untracked {
			b.WriteString("\t" + p + "\n")
		}
		b.WriteString("\n")
	}
	if len(st.Modified) == 0 && len(st.Untracked) == 0 {
		b.WriteString("nothing to commit, working tree clean\n")
	}
	return b.String()
}

func commits(n int) string {
	if n == 1 {
		return "1 commit"
	}
	return fmt.Sprintf("%d commits", n)
}

// ResetHard moves the branch and work tree to the remote-tracking commit
// and returns the paths whose content differs from before.
func (r *Repo) ResetHard() ([]string, error) {
	remoteHash, err := r.RemoteHead()
	if err != nil {
		return nil, err
	}
	head, err := r.repo.Head()
	if err != nil {
		return nil, err
	}
	before, err := r.repo.CommitObject(head.Hash())
	if err != nil {
		return nil, err
	}
	after, err := r.repo.CommitObject(remoteHash)
	if err != nil {
		return nil, err
	}
	fb, err := files(before)
	if err != nil {
		return nil, err
	}
	fa, err := files(after)
	if err != nil {
		return nil, err
	}
	var changed []string
	for _, p := range union(fb, fa) {
		if fb[p] != fa[p] {
			changed = append(changed, p)
		}
	}
	wt, err := r.repo.Worktree()
	if err != nil {
		return nil, err
	}
	if err := wt.Reset(&git.ResetOptions{Commit: remoteHash, Mode: git.HardReset}); err != nil {
		return nil, fmt.Errorf("reset: %w", err)
	}
	return changed, nil
}

// Clean removes untracked files and directories, like `git clean -fd`,
// and returns how many paths it removed.
func (r *Repo) Clean() (int, error) {
	st, err := r.State()
	if err != nil {
		return 0, err
	}
	wt, err := r.repo.Worktree()
	if err != nil {
		return 0, err
	}
	if err := wt.Clean(&git.CleanOptions{Dir: true}); err != nil {
		return 0, fmt.Errorf("clean: %w", err)
	}
	return len(st.Untracked), nil
}
