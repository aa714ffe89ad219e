package po

// similarity is gettext's fstrcmp_bounded: how alike two strings are, from
// 0 (nothing in common) to 1 (equal), as 2·LCS/(len a + len b) over their
// bytes (the minimal edit script of insertions and deletions). When the
// answer cannot exceed lowerBound, some value not above it is returned
// early: msgmerge only keeps candidates better than the best so far.
func similarity(a, b string, lowerBound float64) float64 {
	total := len(a) + len(b)
	if total == 0 {
		return 1
	}
	// The common part is at most the shorter string and, byte value by
	// byte value, the smaller count: both bound the result cheaply.
	if 2*float64(min(len(a), len(b)))/float64(total) <= lowerBound {
		return 0
	}
	var ca, cb [256]int
	for i := 0; i < len(a); i++ {
		ca[a[i]]++
	}
	for i := 0; i < len(b); i++ {
		cb[b[i]]++
	}
	common := 0
	for i := range ca {
		common += min(ca[i], cb[i])
	}
	if 2*float64(common)/float64(total) <= lowerBound {
		return 0
	}
	return 2 * float64(lcs(a, b)) / float64(total)
}

// lcs is the length of the longest common subsequence of a and b, in two
// rows of len(b)+1.
func lcs(a, b string) int {
	if len(a) < len(b) {
		a, b = b, a
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := 0; i < len(a); i++ {
		for j := 0; j < len(b); j++ {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
