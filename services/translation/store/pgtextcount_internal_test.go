package store

import (
	"testing"

	"github.com/tmsproject/tms/services/translation/search"
)

// TestCounted: a search of every copy not queued is counted by pair when
// it is one term or an AND of terms of the source and context alone, in
// one part for its pairs and one for each other part of a term of the
// target; any other search, or a narrower scope, is not.
func TestCounted(t *testing.T) {
	every := copyScope{copies: cond{"NOT ut.unit_id = ANY(?)", []any{"{}"}}, queued: cond{"ut.unit_id = ANY(?)", []any{"{}"}}}
	narrower := copyScope{copies: every.copies} // of one translation, or with some hidden
	tests := []struct {
		q     string
		scope copyScope
		parts int // -1: not counted
	}{
		{"cookies", every, 2}, // its pairs; the targets of the others
		{"source:cookies", every, 1},
		{`source:"temporary data"`, every, 1},
		{"context:ctx1", every, 1},
		{"source:cookies AND context:ctx", every, 1},
		{"target:cookies", every, 2}, // copied targets; targets that are their source
		{"cookies OR backup", every, -1},
		{"source:backup AND target:restore", every, -1},
		{"source:cookies", narrower, -1},
	}
	for _, tc := range tests {
		q, err := search.Parse(tc.q)
		if err != nil {
			t.Fatal(err)
		}
		tree, ok := q.TrigramTree()
		if !ok {
			t.Fatalf("%q: no trigram tree", tc.q)
		}
		parts, ok := tc.scope.counted(tree)
		got := len(parts)
		if !ok {
			got = -1
		}
		if got != tc.parts {
			t.Errorf("%q: %d parts, want %d", tc.q, got, tc.parts)
		}
	}
}
