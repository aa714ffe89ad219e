package applestrings

import (
	"fmt"
	"strings"
)

// token is a comment or an entry of a .strings file, with its span.
type token struct {
	comment bool
	text    string // a comment as written
	// blankBefore reports an empty line between the previous token and
	// this one.
	blankBefore bool
	start, end  int
	entry       *entry
}

// scanner reads the tokens of a .strings text.
type scanner struct {
	s string
	i int
}

// SyntaxError is malformed .strings text, with its line.
type SyntaxError struct {
	Line int
	Msg  string
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("strings: line %d: %s", e.Line, e.Msg) }

func (sc *scanner) fail(format string, args ...any) error {
	return &SyntaxError{Line: 1 + strings.Count(sc.s[:sc.i], "\n"), Msg: fmt.Sprintf(format, args...)}
}

// space skips white space and reports whether it held an empty line.
func (sc *scanner) space() bool {
	lines := 0
	for sc.i < len(sc.s) {
		switch sc.s[sc.i] {
		case '\n':
			lines++
		case ' ', '\t', '\r', '\f', '\v':
		default:
			return lines > 1
		}
		sc.i++
	}
	return lines > 1
}

// comment reads a comment at the scanner's position, "" when there is none.
func (sc *scanner) comment() (string, error) {
	rest := sc.s[sc.i:]
	switch {
	case strings.HasPrefix(rest, "//"):
		n := strings.IndexByte(rest, '\n')
		if n < 0 {
			n = len(rest)
		}
		sc.i += n
		return strings.TrimSuffix(rest[:n], "\r"), nil
	case strings.HasPrefix(rest, "/*"):
		n := strings.Index(rest[2:], "*/")
		if n < 0 {
			return "", sc.fail("unterminated comment")
		}
		sc.i += n + 4
		return rest[:n+4], nil
	}
	return "", nil
}

// tokens reads the whole text.
func (sc *scanner) tokens() ([]*token, error) {
	var out []*token
	for {
		blank := sc.space()
		if sc.i >= len(sc.s) {
			return out, nil
		}
		start := sc.i
		c, err := sc.comment()
		if err != nil {
			return nil, err
		}
		if c != "" {
			out = append(out, &token{comment: true, text: c, blankBefore: blank, start: start, end: sc.i})
			continue
		}
		e, err := sc.entry()
		if err != nil {
			return nil, err
		}
		out = append(out, &token{entry: e, blankBefore: blank, start: start, end: sc.i})
	}
}

// gap skips white space and comments inside an entry, which are notes
// of the entry as translate-toolkit reads them.
func (sc *scanner) gap(e *entry) error {
	for {
		sc.space()
		c, err := sc.comment()
		if err != nil || c == "" {
			return err
		}
		e.inline = append(e.inline, c)
	}
}

// entry reads key = value; at the scanner's position.
func (sc *scanner) entry() (*entry, error) {
	e := &entry{}
	k0, k1, quoted, err := sc.str("key")
	if err != nil {
		return nil, err
	}
	e.key = sc.s[k0:k1]
	if quoted {
		e.key = unquoteKey(sc.s[k0+1 : k1-1])
	}
	if err = sc.gap(e); err != nil {
		return nil, err
	}
	if sc.i >= len(sc.s) || sc.s[sc.i] != '=' {
		return nil, sc.fail("expected '=' after the key %q", e.key)
	}
	sc.i++
	if err = sc.gap(e); err != nil {
		return nil, err
	}
	if e.vstart, e.vend, quoted, err = sc.str("value"); err != nil {
		return nil, err
	}
	raw := sc.s[e.vstart:e.vend]
	if quoted {
		raw = raw[1 : len(raw)-1]
	}
	e.target = decodeValue(raw)
	if err = sc.gap(e); err != nil {
		return nil, err
	}
	if sc.i >= len(sc.s) || sc.s[sc.i] != ';' {
		return nil, sc.fail("expected ';' after the value of %q", e.key)
	}
	sc.i++
	return e, nil
}

// str reads a quoted string (escapes skipped) or an unquoted word and
// returns its span.
func (sc *scanner) str(what string) (start, end int, quoted bool, err error) {
	start = sc.i
	if sc.i < len(sc.s) && sc.s[sc.i] == '"' {
		for sc.i++; sc.i < len(sc.s); sc.i++ {
			switch sc.s[sc.i] {
			case '\\':
				sc.i++
			case '"':
				sc.i++
				return start, sc.i, true, nil
			}
		}
		sc.i = start
		return 0, 0, false, sc.fail("unterminated %s string", what)
	}
	for sc.i < len(sc.s) && !strings.ContainsRune(" \t\r\n\f\v=;\"", rune(sc.s[sc.i])) &&
		!strings.HasPrefix(sc.s[sc.i:], "/*") && !strings.HasPrefix(sc.s[sc.i:], "//") {
		sc.i++
	}
	if sc.i == start {
		return 0, 0, false, sc.fail("expected a %s", what)
	}
	return start, sc.i, false, nil
}

// hiddenComment is the comment Xcode writes for strings without one,
// which translate-toolkit does not show as a note.
const hiddenComment = "/* No comment provided by engineer. */"

// noteLines are the lines of a comment as translate-toolkit gives them
// in a note: the text of a // comment or of a one-line /* */ comment,
// and of a longer one its first and last lines without the markers and
// trimmed, the lines between as written.
func noteLines(c string) []string {
	if strings.TrimSpace(c) == hiddenComment {
		return nil
	}
	if strings.HasPrefix(c, "//") {
		return []string{strings.TrimSpace(c[2:])}
	}
	lines := strings.Split(strings.ReplaceAll(c, "\r\n", "\n"), "\n")
	if len(lines) == 1 {
		return []string{strings.TrimSpace(c[2 : len(c)-2])}
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		switch i {
		case 0:
			out[i] = strings.TrimSpace(l[2:])
		case len(lines) - 1:
			out[i] = strings.TrimSpace(strings.TrimSuffix(strings.TrimRight(l, " \t"), "*/"))
		default:
			out[i] = strings.TrimRight(l, "\r")
		}
	}
	return out
}
