package po

import (
	"sort"
	"strings"
	"unicode"
)

// wrapWidth is translate-toolkit's default PoWrapper width. It counts the
// escaped text between the quotes, not the keyword or the quotes themselves.
const wrapWidth = 77

// quoteLines renders an unescaped string as the quoted lines translate-toolkit's
// quoteforpo produces: the escaped text is cut after every "\n" escape, each
// piece is wrapped at wrapWidth, and a leading `""` line is added when the
// string spans several lines or is too long for one. An empty string yields no
// lines (the caller writes `""`).
func quoteLines(s string) []string {
	escaped := escapeString(s)
	// Cutting on the two bytes `\n` of the escaped text (not on the newline of
	// s) mirrors translate-toolkit, including its cut inside `\\n`.
	pieces := strings.Split(escaped, `\n`)
	for i := range len(pieces) - 1 {
		pieces[i] += `\n`
	}
	var out []string
	if len(pieces) > 2 || (len(pieces) == 2 && pieces[1] != "") ||
		len([]rune(pieces[0])) > wrapWidth-6 {
		out = append(out, `""`)
	}
	for _, p := range pieces {
		for _, line := range wrapLine(p, wrapWidth) {
			out = append(out, `"`+line+`"`)
		}
	}
	return out
}

// wrapLine is PoWrapper.wrap: split into chunks, then fill lines greedily by
// display width, cutting a chunk only when it cannot fit on a line of its own.
func wrapLine(text string, width int) []string {
	chunks := splitChunks([]rune(text))
	var lines []string
	for len(chunks) > 0 {
		var line []rune
		used := 0
		for len(chunks) > 0 && used+displayWidth(chunks[0]) <= width {
			line = append(line, chunks[0]...)
			used += displayWidth(chunks[0])
			chunks = chunks[1:]
		}
		if len(chunks) > 0 && displayWidth(chunks[0]) > width {
			head, tail := cutWidth(chunks[0], width-used)
			line = append(line, head...)
			chunks[0] = tail
		}
		if len(line) > 0 {
			lines = append(lines, string(line))
		}
	}
	return lines
}

// cutWidth is cjkslices: the longest prefix whose width does not exceed limit.
func cutWidth(chunk []rune, limit int) (head, tail []rune) {
	w := 0
	for i, r := range chunk {
		w += runeWidth(r)
		if w > limit {
			return chunk[:i], chunk[i:]
		}
	}
	return chunk, nil
}

func displayWidth(rs []rune) int {
	n := 0
	for _, r := range rs {
		n += runeWidth(r)
	}
	return n
}

func runeWidth(r rune) int {
	if r < 0x1100 {
		return 1
	}
	i := sort.Search(len(wideRanges), func(i int) bool { return wideRanges[i][1] >= r })
	if i < len(wideRanges) && wideRanges[i][0] <= r {
		return 2
	}
	return 1
}

// splitChunks reproduces re.split(PoWrapper.wordsep_re, text) with empty
// pieces dropped: the separators found by matchSeparator and the text between
// them, in order.
func splitChunks(s []rune) [][]rune {
	var chunks [][]rune
	last := 0
	for p := 0; p < len(s); {
		end := matchSeparator(s, p)
		if end < 0 {
			p++
			continue
		}
		if p > last {
			chunks = append(chunks, s[last:p])
		}
		chunks = append(chunks, s[p:end])
		last, p = end, end
	}
	if last < len(s) {
		chunks = append(chunks, s[last:])
	}
	return chunks
}

// matchSeparator tries PoWrapper's separator alternatives at s[p], in the
// regexp's order (the first alternative that matches wins), and returns the
// end of the match or -1. Each alternative is written out by hand because Go's
// regexp has no look-around; the comments give the Python alternative.
func matchSeparator(s []rune, p int) int {
	for _, alt := range separatorAlternatives {
		if end := alt(s, p); end > p {
			return end
		}
	}
	return -1
}

var separatorAlternatives = []func(s []rune, p int) int{
	matchSpaces, matchURLPart, matchEscape, matchInnerStop,
	matchWordSpace, matchHyphenated, matchEmDash,
}

// matchSpaces: \s+
func matchSpaces(s []rune, p int) int {
	end := runWhile(s, p, isSpace)
	if end == p {
		return -1
	}
	return end
}

// matchURLPart: [a-z0-9A-Z_-]+/
func matchURLPart(s []rune, p int) int {
	end := runWhile(s, p, isURLChar)
	if end == p || end >= len(s) || s[end] != '/' {
		return -1
	}
	return end + 1
}

// matchEscape: \w*\\.\w* (an escape is never split)
func matchEscape(s []rune, p int) int {
	bs := runWhile(s, p, isWord)
	if bs+1 >= len(s) || s[bs] != '\\' || s[bs+1] == '\n' {
		return -1
	}
	return runWhile(s, bs+2, isWord)
}

// matchInnerStop: \.(?=\w) (full stop inside a word)
func matchInnerStop(s []rune, p int) int {
	if s[p] != '.' || p+1 >= len(s) || !isWord(s[p+1]) {
		return -1
	}
	return p + 1
}

// matchWordSpace: [\w\!\'\&\.\,\?=<>%]+\s+ (a space goes with its word)
func matchWordSpace(s []rune, p int) int {
	end := runWhile(s, p, isWordPunct)
	if end == p {
		return -1
	}
	spaces := runWhile(s, end, isSpace)
	if spaces == end {
		return -1
	}
	return spaces
}

// matchHyphenated: [^\s\w]*\w+[a-zA-Z]-(?=\w+[a-zA-Z])
func matchHyphenated(s []rune, p int) int {
	word := runWhile(s, p, func(r rune) bool { return !isSpace(r) && !isWord(r) })
	end := runWhile(s, word, isWord)
	// \w+[a-zA-Z] must end the word run because '-' is not a word character.
	if end-word < 2 || !isASCIILetter(s[end-1]) || end >= len(s) || s[end] != '-' {
		return -1
	}
	next := end + 1
	nextEnd := runWhile(s, next, isWord)
	for i := next + 1; i < nextEnd; i++ {
		if isASCIILetter(s[i]) {
			return end + 1
		}
	}
	return -1
}

// matchEmDash: (?<=[\w\!\"\'\&\.\,\?])-{2,}(?=\w)
func matchEmDash(s []rune, p int) int {
	if p == 0 || !(isWord(s[p-1]) || strings.ContainsRune(`!"'&.,?`, s[p-1])) {
		return -1
	}
	end := runWhile(s, p, func(r rune) bool { return r == '-' })
	if end-p < 2 || end >= len(s) || !isWord(s[end]) {
		return -1
	}
	return end
}

func runWhile(s []rune, p int, ok func(rune) bool) int {
	for p < len(s) && ok(s[p]) {
		p++
	}
	return p
}

// isWord is Python's \w for str patterns: letters, numbers and underscore.
func isWord(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// isSpace is Python's \s for str patterns (str.isspace), which unlike Go also
// counts the ASCII information separators U+001C..U+001F.
func isSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}

func isURLChar(r rune) bool {
	return r == '_' || r == '-' || r < 0x80 && (isASCIILetter(r) || r >= '0' && r <= '9')
}

func isWordPunct(r rune) bool {
	return isWord(r) || strings.ContainsRune(`!'&.,?=<>%`, r)
}

func isASCIILetter(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z'
}
