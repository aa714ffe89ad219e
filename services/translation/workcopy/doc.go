// Package workcopy manages the git working copy of a component:
// <DataDir>/repos/<component_id>. It clones and updates with go-git (pure
// Go; the file transport runs in process, so no git binary is needed) and
// checks repository addresses before anything touches the network.
//
// A Repo writes and stages files (commit.go), commits with an author and a
// committer, fetches and pushes (remote.go), merges or rebases the remote
// branch with a per-file three-way decision that refuses conflicts before
// touching anything (merge.go, rebase.go), resets and cleans (state.go),
// and reports its position against the remote-tracking branch as a
// `git status`-like summary.
package workcopy
