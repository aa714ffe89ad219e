package yaml

import (
	"strings"
	"unicode/utf8"
)

// text is a file's content with its line starts, to turn the parser's
// line and column (in characters) into byte offsets and back.
type text struct {
	s     string
	lines []int // byte offset of each line's start
	nl    string
}

func newText(s string) *text {
	t := &text{s: s, lines: []int{0}, nl: "\n"}
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' {
			t.lines = append(t.lines, i+1)
		}
	}
	if i := strings.IndexByte(s, '\n'); i > 0 && s[i-1] == '\r' {
		t.nl = "\r\n"
	}
	return t
}

// offset is the byte offset of 1-based line and column; the column
// counts characters, a byte order mark at the start not included.
func (t *text) offset(line, col int) int {
	if line < 1 || line > len(t.lines) {
		return len(t.s)
	}
	i := t.lines[line-1]
	if line == 1 && strings.HasPrefix(t.s, "\ufeff") {
		i += 3
	}
	for c := 1; c < col && i < len(t.s) && t.s[i] != '\n'; c++ {
		_, n := utf8.DecodeRuneInString(t.s[i:])
		i += n
	}
	return i
}

// lineOf is the 0-based line of byte offset i.
func (t *text) lineOf(i int) int {
	lo, hi := 0, len(t.lines)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if t.lines[mid] <= i {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo
}

// lineStart and lineEnd bound the line of byte offset i (lineEnd before
// the line break).
func (t *text) lineStart(i int) int { return t.lines[t.lineOf(i)] }

func (t *text) lineEnd(i int) int {
	e := strings.IndexByte(t.s[i:], '\n')
	if e < 0 {
		return len(t.s)
	}
	e += i
	if e > 0 && t.s[e-1] == '\r' {
		e--
	}
	return e
}

// column is the 0-based character column of byte offset i.
func (t *text) column(i int) int {
	st := t.lineStart(i)
	if st == 0 && strings.HasPrefix(t.s, "\ufeff") {
		st = 3
	}
	return utf8.RuneCountInString(t.s[st:i])
}

// indentOf is the number of spaces the line of offset i begins with.
func (t *text) indentOf(i int) int {
	st := t.lineStart(i)
	n := 0
	for st+n < len(t.s) && t.s[st+n] == ' ' {
		n++
	}
	return n
}

// comment is the text of a comment line ("# text" gives "text"), and
// whether the line is one.
func comment(line string) (string, bool) {
	l := strings.TrimSpace(line)
	if !strings.HasPrefix(l, "#") {
		return "", false
	}
	return strings.TrimSpace(l[1:]), true
}

// eolComment is the comment after offset i on its line, if any.
func (t *text) eolComment(i int) (string, bool) {
	rest := t.s[i:t.lineEnd(i)]
	j := strings.Index(rest, "#")
	if j < 0 || strings.TrimSpace(rest[:j]) != "" {
		return "", false
	}
	return comment(rest[j:])
}
