package tm

import (
	"cmp"
	"math/bits"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
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

// KeyWords are the n longest distinct words of s (runs of letters and
// digits, lower-cased), longest first, ties in alphabetical order: the
// words the index is searched by. Long words are the rare ones, so a
// string's near matches share them, and few other strings do. Words of
// fewer than three letters ("of", "to", "la") are left out when two
// longer ones remain: every index lists them under most of its strings.
func KeyWords(s string, n int) []string {
	seen := map[string]bool{}
	var words []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !seen[w] {
			seen[w] = true
			words = append(words, w)
		}
	}
	slices.SortFunc(words, func(a, b string) int {
		return cmp.Or(cmp.Compare(utf8.RuneCountInString(b), utf8.RuneCountInString(a)), cmp.Compare(a, b))
	})
	long := 0
	for long < len(words) && utf8.RuneCountInString(words[long]) >= 3 {
		long++
	}
	if long >= 2 {
		words = words[:long]
	}
	return words[:min(n, len(words))]
}
