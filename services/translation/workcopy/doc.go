// Package workcopy manages the git working copy of a component:
// <DataDir>/repos/<component_id>. It clones and updates with go-git (pure
// Go; the file transport runs in process, so no git binary is needed) and
// checks repository addresses before anything touches the network.
//
// The Repo type is the seam for the write-back steps that follow import:
// commit, push and pull operate on the same clone.
package workcopy
