package po

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// toolkitWidth is translate-toolkit's PoWrapper width.
const toolkitWidth = 77

// toolkitQuoteLines renders an unescaped string as translate-toolkit's
// quoteforpo does since it wraps with gettext_wrap (unicode-segmentation-rs):
// the escaped text is cut into word-boundary chunks, chunks are packed
// greedily into lines of toolkitWidth columns, a line always ends after a
// "\n" escape, and a leading `""` line is added when there are several lines
// or the only one is longer than toolkitWidth-6 characters.
func toolkitQuoteLines(s string) []string {
	if s == "" {
		return nil
	}
	escaped := escapeString(s)
	lines := packChunks(toolkitChunks(escaped), toolkitWidth)
	var out []string
	if len(lines) >= 2 || utf8.RuneCountInString(lines[0]) > toolkitWidth-6 {
		out = append(out, `""`)
	}
	for _, l := range lines {
		out = append(out, `"`+l+`"`)
	}
	return out
}

// packChunks fills lines greedily; a chunk wider than a line gets a line of
// its own.
func packChunks(chunks []string, width int) []string {
	var lines []string
	var line strings.Builder
	used := 0
	for _, c := range chunks {
		w := stringWidth(c)
		if used+w > width && line.Len() > 0 {
			lines = append(lines, line.String())
			line.Reset()
			used = 0
		}
		line.WriteString(c)
		used += w
		if strings.HasSuffix(c, `\n`) {
			lines = append(lines, line.String())
			line.Reset()
			used = 0
		}
	}
	if line.Len() > 0 {
		lines = append(lines, line.String())
	}
	return lines
}

// stringWidth is the display width as the unicode-width crate (0.2) counts
// it: like runeWidth, except that control characters take one column.
func stringWidth(s string) int {
	n := 0
	for _, r := range s {
		if r < 0x20 || r >= 0x7f && r < 0xa0 {
			n++
		} else {
			n += runeWidth(r)
		}
	}
	return n
}

// toolkitChunks is split_po_chunks: UAX #29 word-boundary segments, with an
// escape sequence kept whole and punctuation glued to its neighbours, so
// that lines break after spaces, "/", "}", ")", ">" and "-" but not inside
// "%(name)s" or "{name}".
func toolkitChunks(text string) []string {
	var chunks []string
	var current strings.Builder
	// The crate tracks two characters of the previous segment under swapped
	// names: for a segment of two or more characters, last is its
	// second-to-last character and secondLast its last one.
	var last, secondLast, fallback rune
	haveLast, haveSecond, haveFallback := false, false, false
	for rest := text; rest != ""; {
		var seg string
		seg, rest, _ = uniseg.FirstWordInString(rest, -1)
		if haveLast && last == '\\' && len(seg) > 1 {
			r, size := utf8.DecodeRuneInString(seg)
			current.WriteRune(r)
			chunks = append(chunks, current.String())
			current.Reset()
			seg = seg[size:]
			if seg == "" {
				continue
			}
		}
		first, _ := utf8.DecodeRuneInString(seg)
		merge := haveLast &&
			(!haveSecond || (last != '\\' && last != 'n') || secondLast != '\\') &&
			(isMergeableSegment(seg) ||
				(first != '{' && first != '(' && !strings.ContainsRune("/})>-", last) &&
					(isASCIIPunct(last) || isASCIIPunct(first) && !unicode.IsSpace(last))))
		if !merge {
			if current.Len() > 0 {
				chunks = append(chunks, current.String())
			}
			current.Reset()
			haveFallback = false
		} else {
			fallback, haveFallback = last, true
		}
		current.WriteString(seg)
		runes := []rune(seg)
		if len(runes) >= 2 {
			last, secondLast = runes[len(runes)-2], runes[len(runes)-1]
			haveLast, haveSecond = true, true
		} else {
			secondLast, haveSecond = fallback, haveFallback
			last, haveLast = runes[0], true
		}
	}
	if current.Len() > 0 {
		chunks = append(chunks, current.String())
	}
	return chunks
}

func isMergeableSegment(s string) bool {
	return len(s) == 1 && strings.ContainsRune("/})>- \t", rune(s[0]))
}

func isASCIIPunct(r rune) bool {
	return r < 0x80 && strings.ContainsRune("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", r)
}
