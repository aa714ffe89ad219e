package yaml

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// bestWidth is ruamel.yaml's default line width: past this column a plain,
// single-quoted, double-quoted or folded scalar is broken at a space.
const bestWidth = 80

// style is how a scalar is written.
type style byte

const (
	plain  style = 0
	single style = '\''
	double style = '"'
	lit    style = '|'
	folded style = '>'
)

// analysis is ruamel.yaml's Emitter.analyze_scalar: which styles can
// write a string.
type analysis struct {
	empty, multiline                bool
	flowPlain, blockPlain           bool
	singleQuoted, block, hasSpecial bool
}

func isBreak(r rune) bool { return r == '\n' || r == '\u0085' || r == '\u2028' || r == '\u2029' }

func isBlankOrEnd(s []rune, i int) bool {
	return i >= len(s) || strings.ContainsRune("\x00 \t\r\n\u0085\u2028\u2029", s[i])
}

// printable is what ruamel writes as is with allow_unicode (the default
// of YAML()): ASCII printables and the printable Unicode planes.
func printable(r rune) bool {
	return r >= 0x20 && r <= 0x7e || r == 0x85 || r >= 0xa0 && r <= 0xd7ff ||
		r >= 0xe000 && r <= 0xfffd && r != 0xfeff || r >= 0x10000 && r <= 0x10ffff
}

func analyze(s string) analysis {
	if s == "" {
		return analysis{empty: true, blockPlain: true, singleQuoted: true}
	}
	r := []rune(s)
	var blockInd, flowInd, breaks, special bool
	var leadSpace, leadBreak, trailSpace, trailBreak, breakSpace, spaceBreak bool
	if strings.HasPrefix(s, "---") || strings.HasPrefix(s, "...") {
		blockInd, flowInd = true, true
	}
	preceded, prevSpace, prevBreak := true, false, false
	for i, ch := range r {
		followed := isBlankOrEnd(r, i+1)
		if i == 0 {
			if strings.ContainsRune("#,[]{}&*!|>'\"%@`", ch) {
				flowInd, blockInd = true, true
			}
			if ch == '?' || ch == ':' {
				if len(r) == 1 {
					flowInd = true
				}
				if followed {
					blockInd = true
				}
			}
			if ch == '-' && followed {
				flowInd, blockInd = true, true
			}
		} else {
			if strings.ContainsRune(",[]{}", ch) {
				flowInd = true
			}
			if ch == ':' && followed {
				flowInd, blockInd = true, true
			}
			if ch == '#' && preceded {
				flowInd, blockInd = true, true
			}
		}
		if isBreak(ch) {
			breaks = true
		}
		if ch != '\n' && !printable(ch) {
			special = true
		}
		switch {
		case ch == ' ':
			leadSpace = leadSpace || i == 0
			trailSpace = trailSpace || i == len(r)-1
			breakSpace = breakSpace || prevBreak
			prevSpace, prevBreak = true, false
		case isBreak(ch):
			leadBreak = leadBreak || i == 0
			trailBreak = trailBreak || i == len(r)-1
			spaceBreak = spaceBreak || prevSpace
			prevSpace, prevBreak = false, true
		default:
			prevSpace, prevBreak = false, false
		}
		preceded = strings.ContainsRune("\x00 \t\r\n\u0085\u2028\u2029", ch)
	}
	a := analysis{multiline: breaks, flowPlain: true, blockPlain: true, singleQuoted: true, block: true, hasSpecial: special}
	if leadSpace || leadBreak || trailSpace || trailBreak {
		a.flowPlain, a.blockPlain = false, false
	}
	if trailSpace {
		a.block = false
	}
	if breakSpace {
		a.flowPlain, a.blockPlain, a.singleQuoted = false, false, false
	}
	if special || spaceBreak {
		a.flowPlain, a.blockPlain, a.singleQuoted = false, false, false
		a.block = false
	}
	if breaks {
		a.flowPlain, a.blockPlain = false, false
	}
	if flowInd {
		a.flowPlain = false
	}
	if blockInd {
		a.blockPlain = false
	}
	return a
}

// chooseStyle is ruamel.yaml's Emitter.choose_scalar_style for a string
// value (not a key) that asks for style want (plain: none).
func chooseStyle(s string, want style, flow bool) style {
	a := analyze(s)
	if want == double {
		return double
	}
	if want == plain && resolvesToString(s) && (flow && a.flowPlain || !flow && a.blockPlain) {
		return plain
	}
	// ruamel forces allow_block here; a string it could not read back (a
	// control character) is written double-quoted instead.
	if (want == lit || want == folded) && !flow && !a.hasSpecial {
		return want
	}
	if want == plain && (strings.ContainsRune(s, '\'') || strings.ContainsRune(s, '\n')) {
		return double
	}
	if (want == plain || want == single) && a.singleQuoted {
		return single
	}
	return double
}

// keyStyle is the style ruamel writes a mapping key in (a simple key).
func keyStyle(s string) style {
	a := analyze(s)
	if !a.empty && !a.multiline && a.blockPlain && resolvesToString(s) {
		return plain
	}
	if strings.ContainsRune(s, '\'') || strings.ContainsRune(s, '\n') {
		return double
	}
	if a.singleQuoted && !a.multiline {
		return single
	}
	return double
}

// emitter writes one scalar as ruamel.yaml's Emitter does, from column
// col, continuation lines indented by indent.
type emitter struct {
	b      strings.Builder
	col    int
	indent int
	nl     string
}

func (e *emitter) write(s string) {
	e.b.WriteString(s)
	e.col += utf8.RuneCountInString(s)
}

func (e *emitter) lineBreak() {
	e.b.WriteString(e.nl)
	e.col = 0
}

func (e *emitter) writeIndent() {
	if e.col > 0 {
		e.lineBreak()
	}
	e.write(strings.Repeat(" ", e.indent))
}

// render writes s in style st. A block scalar ends without its last line
// break: the file's own break follows it.
func render(s string, st style, col, indent int, nl string) string {
	e := &emitter{col: col, indent: indent, nl: nl}
	r := []rune(s)
	switch st {
	case plain:
		e.plain(r, true)
	case single:
		e.single(r, true)
	case double:
		e.double(r, true)
	case lit:
		e.literal(r)
	case folded:
		e.folded(r)
	}
	out := e.b.String()
	if st == lit || st == folded {
		out = strings.TrimSuffix(out, nl)
	}
	return out
}

func (e *emitter) plain(t []rune, split bool) {
	spaces, start := false, 0
	for end := 0; end <= len(t); end++ {
		var ch rune = -1
		if end < len(t) {
			ch = t[end]
		}
		if spaces {
			if ch != ' ' {
				if start+1 == end && e.col > bestWidth && split {
					e.writeIndent()
				} else {
					e.write(string(t[start:end]))
				}
				start = end
			}
		} else if ch == -1 || ch == ' ' {
			e.write(string(t[start:end]))
			start = end
		}
		spaces = ch == ' '
	}
}

func (e *emitter) single(t []rune, split bool) {
	e.write("'")
	spaces, breaks, start := false, false, 0
	for end := 0; end <= len(t); end++ {
		var ch rune = -1
		if end < len(t) {
			ch = t[end]
		}
		switch {
		case spaces:
			if ch != ' ' {
				if start+1 == end && e.col > bestWidth && split && start != 0 && end != len(t) {
					e.writeIndent()
				} else {
					e.write(string(t[start:end]))
				}
				start = end
			}
		case breaks:
			if ch == -1 || !isBreak(ch) {
				if t[start] == '\n' {
					e.lineBreak()
				}
				for _, br := range t[start:end] {
					if br == '\n' {
						e.lineBreak()
					} else {
						e.b.WriteRune(br)
						e.col = 0
					}
				}
				e.writeIndent()
				start = end
			}
		default:
			if (ch == -1 || ch == ' ' || isBreak(ch) || ch == '\'') && start < end {
				e.write(string(t[start:end]))
				start = end
			}
		}
		if ch == '\'' {
			e.write("''")
			start = end + 1
		}
		if ch != -1 {
			spaces, breaks = ch == ' ', isBreak(ch)
		}
	}
	e.write("'")
}

var escapes = map[rune]string{
	0: "0", 7: "a", 8: "b", 9: "t", 10: "n", 11: "v", 12: "f", 13: "r", 27: "e",
	'"': "\"", '\\': "\\", 0x85: "N", 0xa0: "_", 0x2028: "L", 0x2029: "P",
}

func (e *emitter) double(t []rune, split bool) {
	e.write("\"")
	start := 0
	for end := 0; end <= len(t); end++ {
		var ch rune = -1
		if end < len(t) {
			ch = t[end]
		}
		if ch == -1 || strings.ContainsRune("\"\\\u0085\u2028\u2029\ufeff", ch) || !printable(ch) {
			if start < end {
				e.write(string(t[start:end]))
				start = end
			}
			if ch != -1 {
				e.write(escape(ch))
				start = end + 1
			}
		}
		if end > 0 && end < len(t)-1 && (ch == ' ' || start >= end) && e.col+(end-start) > bestWidth && split {
			e.write(string(t[start:end]) + "\\")
			start = max(start, end)
			e.writeIndent()
			if t[start] == ' ' {
				e.write("\\")
			}
		}
	}
	e.write("\"")
}

func escape(ch rune) string {
	if s, ok := escapes[ch]; ok {
		return "\\" + s
	}
	switch {
	case ch <= 0xff:
		return fmt.Sprintf("\\x%02X", ch)
	case ch <= 0xffff:
		return fmt.Sprintf("\\u%04X", ch)
	}
	return fmt.Sprintf("\\U%08X", ch)
}

// blockHints is ruamel's determine_block_hints: an indentation indicator
// when the text begins with a space or a break, and the chomping one.
func blockHints(t []rune) string {
	h := ""
	if len(t) == 0 {
		return h
	}
	if t[0] == ' ' || isBreak(t[0]) {
		h = "2"
	}
	switch {
	case !isBreak(t[len(t)-1]):
		h += "-"
	case len(t) == 1 || isBreak(t[len(t)-2]):
		h += "+"
	}
	return h
}

func (e *emitter) literal(t []rune) {
	e.write("|" + blockHints(t))
	e.lineBreak()
	breaks, start := true, 0
	for end := 0; end <= len(t); end++ {
		var ch rune = -1
		if end < len(t) {
			ch = t[end]
		}
		if breaks {
			if ch == -1 || !isBreak(ch) {
				e.breaks(t[start:end])
				if ch != -1 {
					e.write(strings.Repeat(" ", e.indent))
				}
				start = end
			}
		} else if ch == -1 || isBreak(ch) {
			e.write(string(t[start:end]))
			if ch == -1 {
				e.lineBreak()
			}
			start = end
		}
		if ch != -1 {
			breaks = isBreak(ch)
		}
	}
}

func (e *emitter) breaks(t []rune) {
	for _, br := range t {
		if br == '\n' {
			e.lineBreak()
		} else {
			e.b.WriteRune(br)
			e.col = 0
		}
	}
}

func (e *emitter) folded(t []rune) {
	e.write(">" + blockHints(t))
	e.lineBreak()
	leading, spaces, breaks, start := true, false, true, 0
	for end := 0; end <= len(t); end++ {
		var ch rune = -1
		if end < len(t) {
			ch = t[end]
		}
		switch {
		case breaks:
			if ch == -1 || !isBreak(ch) {
				if !leading && ch != -1 && ch != ' ' && t[start] == '\n' {
					e.lineBreak()
				}
				leading = ch == ' '
				e.breaks(t[start:end])
				if ch != -1 {
					e.write(strings.Repeat(" ", e.indent))
				}
				start = end
			}
		case spaces:
			if ch != ' ' {
				if start+1 == end && e.col > bestWidth {
					e.writeIndent()
				} else {
					e.write(string(t[start:end]))
				}
				start = end
			}
		default:
			if ch == -1 || ch == ' ' || isBreak(ch) {
				e.write(string(t[start:end]))
				if ch == -1 {
					e.lineBreak()
				}
				start = end
			}
		}
		if ch != -1 {
			breaks, spaces = isBreak(ch), ch == ' '
		}
	}
}
