package yaml

import (
	"strings"
)

// skipProps passes the anchor and tag before a node at i and returns
// where the node's own text begins and the anchor text to keep ("&a ").
func (t *text) skipProps(i int) (int, string) {
	anchor := ""
	for i < len(t.s) && (t.s[i] == '&' || t.s[i] == '!') {
		j := i
		stop := " \t\r\n,[]{}" // an anchor name ends at a flow indicator, a tag does not (libyaml)
		if t.s[i] == '!' {
			stop = " \t\r\n"
		}
		for j < len(t.s) && !strings.ContainsRune(stop, rune(t.s[j])) {
			j++
		}
		k := j
		for k < len(t.s) && strings.ContainsRune(" \t\r\n", rune(t.s[k])) {
			k++
		}
		if t.s[i] == '&' {
			anchor = t.s[i:j] + " "
		}
		i = k
	}
	return i, anchor
}

// scalarEnd is where the scalar of style st beginning at i ends; parent
// is the indentation of the collection holding it, flow whether it is
// inside a flow collection.
func (t *text) scalarEnd(i int, st style, parent int, flow bool) int {
	s := t.s
	switch st {
	case double:
		for j := i + 1; j < len(s); j++ {
			switch s[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return len(s)
	case single:
		for j := i + 1; j < len(s); j++ {
			if s[j] == '\'' {
				if j+1 < len(s) && s[j+1] == '\'' {
					j++
					continue
				}
				return j + 1
			}
		}
		return len(s)
	case lit, folded:
		return t.blockEnd(i, parent)
	}
	return t.plainEnd(i, parent, flow)
}

// plainLineEnd is where a plain scalar stops on the line of i.
func (t *text) plainLineEnd(i int, flow bool) int {
	s, end := t.s, t.lineEnd(i)
	j := i
	for ; j < end; j++ {
		c := s[j]
		if c == '#' && j > i && (s[j-1] == ' ' || s[j-1] == '\t') {
			break
		}
		if c == ':' && (j+1 >= end || s[j+1] == ' ' || s[j+1] == '\t' || flow && strings.ContainsRune(",[]{}", rune(s[j+1]))) {
			break
		}
		if flow && strings.ContainsRune(",[]{}", rune(c)) {
			break
		}
	}
	return i + len(strings.TrimRight(s[i:j], " \t"))
}

// plainEnd follows a plain scalar over its continuation lines: lines
// indented deeper than its parent that are no comment.
func (t *text) plainEnd(i, parent int, flow bool) int {
	end := t.plainLineEnd(i, flow)
	for {
		le := t.lineEnd(end)
		if strings.TrimSpace(t.s[end:le]) != "" {
			return end // a comment, a ':' or a flow indicator stops it
		}
		line, ok := t.nextContentLine(le)
		if !ok {
			return end
		}
		ind := t.indentOf(line)
		first := line + ind
		c := t.s[first]
		if !flow && ind <= parent || c == '#' || c == '\t' ||
			strings.HasPrefix(t.s[line:], "---") || strings.HasPrefix(t.s[line:], "...") ||
			flow && strings.ContainsRune(",[]{}", rune(c)) {
			return end
		}
		end = t.plainLineEnd(first, flow)
	}
}

// nextContentLine is the start of the first line after the line break at
// or after pos that is not blank.
func (t *text) nextContentLine(pos int) (int, bool) {
	for {
		nl := strings.IndexByte(t.s[pos:], '\n')
		if nl < 0 {
			return 0, false
		}
		line := pos + nl + 1
		le := t.lineEnd(line)
		if strings.TrimSpace(t.s[line:le]) != "" {
			return line, true
		}
		pos = le
	}
}

// blockEnd is where a literal or folded block scalar whose header is at i
// ends: after its last non-blank line, or after its trailing blank lines
// with keep chomping ("+").
func (t *text) blockEnd(i, parent int) int {
	hdrEnd := t.lineEnd(i)
	header := t.s[i:hdrEnd]
	if h := strings.IndexByte(header, '#'); h >= 0 {
		header = header[:h]
	}
	keep := strings.Contains(header, "+")
	indent := -1
	for _, c := range header {
		if c >= '1' && c <= '9' {
			indent = parent + int(c-'0')
		}
	}
	end, pos := hdrEnd, hdrEnd
	for pos < len(t.s) {
		line := pos + 1
		if t.s[pos] == '\r' {
			line++
		}
		if line >= len(t.s) {
			break
		}
		le := t.lineEnd(line)
		content := strings.TrimLeft(t.s[line:le], " ")
		ind := le - line - len(content)
		if strings.TrimSpace(content) == "" {
			// Blank lines belong to the block with keep chomping; lines of
			// spaces are taken too (they can read as content once the
			// header changes).
			if keep || le > line {
				end = le
			}
			pos = le
			continue
		}
		if indent < 0 {
			if ind <= parent {
				break
			}
			indent = ind
		}
		if ind < indent {
			break
		}
		end, pos = le, le
	}
	return end
}
