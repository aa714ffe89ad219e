package tm

import (
	"math/bits"
	"strings"
	"unicode"
)

// Similarity scores how alike a and b are, 0 to 100, as the reference does
// (rapidfuzz's QRatio, truncated): 100·(1 − d/(|a|+|b|)), where d is the
// Indel distance (insertions and deletions only) and lengths count
// characters. It is case-sensitive and 0 when either string is empty.
func Similarity(a, b string) int {
	if a == "" || b == "" {
		return 0
	}
	if a == b {
		return 100
	}
	ra, rb := []rune(a), []rune(b)
	lcs := LCS(ra, rb)
	// Indel distance = |a|+|b|−2·lcs, so the ratio is 2·lcs/(|a|+|b|).
	return 200 * lcs / (len(ra) + len(rb))
}

// LCS is the length of the longest common subsequence of a and b, by the
// bit-parallel algorithm of Allison and Dix (as refined by Hyyrö): one
// pass over b, len(a)/64 words of work per character.
func LCS(a, b []rune) int {
	if len(a) == 0 || len(b) == 0 {
		return 0
	}
	words := (len(a) + 63) / 64
	peq := map[rune][]uint64{}
	for i, r := range a {
		m, ok := peq[r]
		if !ok {
			m = make([]uint64, words)
			peq[r] = m
		}
		m[i/64] |= 1 << (i % 64)
	}
	v := make([]uint64, words)
	for i := range v {
		v[i] = ^uint64(0)
	}
	for _, r := range b {
		m, ok := peq[r]
		if !ok {
			continue // V & M is zero: V stays as it is
		}
		var carry uint64
		for w := range v {
			u := v[w] & m[w]
			sum, c := bits.Add64(v[w], u, carry)
			carry = c
			v[w] = sum | (v[w] &^ m[w])
		}
	}
	// The zero bits of V within a's length are the LCS.
	lcs := 0
	for w := range v {
		valid := ^uint64(0)
		if rem := len(a) - w*64; rem < 64 {
			valid = 1<<rem - 1
		}
		lcs += bits.OnesCount64(^v[w] & valid)
	}
	return lcs
}

// Trigrams are the distinct character trigrams of s, lower-cased, in the
// order they first occur: what the index is searched by. A string shorter
// than three characters has none.
func Trigrams(s string) []string {
	rs := []rune(strings.ToLowerSpecial(unicode.SpecialCase{}, s))
	if len(rs) < 3 {
		return nil
	}
	seen := map[string]bool{}
	var out []string
	for i := 0; i+3 <= len(rs); i++ {
		g := string(rs[i : i+3])
		if !seen[g] {
			seen[g] = true
			out = append(out, g)
		}
	}
	return out
}
