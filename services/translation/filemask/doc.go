// Package filemask matches a component's file mask (`po/*.po`, where `*`
// stands for the language code) against a working copy.
//
// A mask is a relative, clean, slash-separated path. Each `*` may stand only
// for part of one path segment (it never crosses `/`), and every `*` of a
// mask stands for the same code. Matching never leaves the working copy:
// masks with `..` or absolute paths are refused, and every matched path (and
// every directory walked to reach it) is resolved through its symlinks and
// dropped when it lands outside the root.
package filemask
