package tm

import (
	"strings"
	"testing"
)

// TestSimilarity: the reference's scores (rapidfuzz QRatio, truncated:
// 2·LCS/(|a|+|b|), worked by hand in the comments) for the kinds of pairs a
// memory meets.
func TestSimilarity(t *testing.T) {
	cases := []struct {
		name string
		a, b string
		want int
	}{
		{"identical", "Delete the file", "Delete the file", 100},
		{"case change", "Delete the file", "delete the file", 93},        // 14 of 15 kept: 2·14/30
		{"one word changed", "Delete the file", "Delete the folder", 87}, // lcs 14 ("Delete the f", "le"): 28/32 = 87.5
		{"reordered", "Delete the file now", "Now delete the file", 73},  // lcs 14 ("elete the file"): 28/38 = 73.7
		{"unrelated", "Delete the file", "Quit", 10},                     // lcs 1: 2/19 = 10.5
		{"empty", "", "Quit", 0},
		{"accents count once", "Supprimé", "Supprime", 87}, // lcs 7: 14/16
		{"long", string(make([]rune, 0)) + longA, longB, 99},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Similarity(c.a, c.b); got != c.want {
				t.Errorf("Similarity(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
			}
			if got := Similarity(c.b, c.a); got != c.want {
				t.Errorf("Similarity is not symmetric: %d", got)
			}
		})
	}
}

// longA and longB cross the 64-character word boundary of LCS: the same
// 130 characters but one.
var (
	longA = "The quick brown fox jumps over the lazy dog while the cat watches from the windowsill, unimpressed by the whole spectacle today."
	longB = "The quick brown fox jumps over the lazy dog while the cat watches from the windowsill, unimpressed by the whole spectacle today!"
)

// TestLCSAgainstDynamicProgramming: the bit-parallel LCS agrees with the
// textbook table on strings of every length around the word boundaries.
func TestLCSAgainstDynamicProgramming(t *testing.T) {
	alphabet := []rune("abcab ")
	for n := 0; n < 140; n += 7 {
		a := make([]rune, n)
		b := make([]rune, n/2+3)
		for i := range a {
			a[i] = alphabet[(i*7+3)%len(alphabet)]
		}
		for i := range b {
			b[i] = alphabet[(i*5+1)%len(alphabet)]
		}
		if got, want := LCS(a, b), lcsTable(a, b); got != want {
			t.Fatalf("n=%d: LCS = %d, table says %d", n, got, want)
		}
	}
}

func lcsTable(a, b []rune) int {
	prev := make([]int, len(b)+1)
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		for j := 1; j <= len(b); j++ {
			switch {
			case a[i-1] == b[j-1]:
				cur[j] = prev[j-1] + 1
			case prev[j] > cur[j-1]:
				cur[j] = prev[j]
			default:
				cur[j] = cur[j-1]
			}
		}
		prev = cur
	}
	return prev[len(b)]
}

func TestKeyWords(t *testing.T) {
	tests := []struct {
		text string
		n    int
		want string
	}{
		{"Open the file, open the FOLDER (2)", 3, "folder file open"},
		{"!?", 3, ""},
		// Short words go when two longer ones remain...
		{"Save it to a file on disk", 4, "disk file save"},
		// ...and stay when they do not.
		{"Go to a tab", 4, "tab go to a"},
		{"Überprüfen Sie die Datei", 2, "überprüfen datei"},
	}
	for _, tt := range tests {
		if got := strings.Join(KeyWords(tt.text, tt.n), " "); got != tt.want {
			t.Errorf("KeyWords(%q, %d) = %q, want %q", tt.text, tt.n, got, tt.want)
		}
	}
}
