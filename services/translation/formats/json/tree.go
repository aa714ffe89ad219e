package json

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// maxDepth bounds the nesting of a file: deeper input is refused.
const maxDepth = 256

// node is one JSON value with the bytes it was read from. An unchanged
// node renders its raw bytes; a dirty one is rendered from its parts, each
// keeping the whitespace it was read with.
type node struct {
	kind    byte // '{', '[', '"', or 'x' for another scalar
	raw     string
	str     string    // decoded string
	members []*member // objects
	items   []*item   // arrays
	tail    string    // whitespace before the closing bracket
	dirty   bool
}

// member is one key of an object: pre is the whitespace before the key,
// sep what separates key and value (": "), post the whitespace after the
// value.
type member struct {
	pre, rawKey, key, sep, post string
	value                       *node
}

// item is one value of an array.
type item struct {
	pre, post string
	value     *node
}

// doc is a parsed JSON file: leading bytes (BOM, whitespace), the root
// value, trailing whitespace.
type doc struct {
	lead, trail string
	root        *node
}

type parser struct {
	s   string
	i   int
	dep int
}

// SyntaxError is malformed JSON, with its line and column.
type SyntaxError struct {
	Line, Col int
	Msg       string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("json: line %d column %d: %s", e.Line, e.Col, e.Msg)
}

func (p *parser) fail(format string, args ...any) error {
	line := 1 + strings.Count(p.s[:p.i], "\n")
	col := p.i - strings.LastIndex(p.s[:p.i], "\n")
	return &SyntaxError{Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

// parseDoc reads a JSON text (RFC 8259; a UTF-8 byte order mark is kept).
func parseDoc(data []byte) (*doc, error) {
	if !utf8.Valid(data) {
		return nil, errors.New("json: the file is not valid UTF-8")
	}
	p := &parser{s: string(data)}
	d := &doc{}
	if strings.HasPrefix(p.s, "\ufeff") {
		p.i = 3
	}
	p.ws()
	d.lead = p.s[:p.i]
	root, err := p.value()
	if err != nil {
		return nil, err
	}
	start := p.i
	p.ws()
	if p.i != len(p.s) {
		return nil, p.fail("unexpected data after the top-level value")
	}
	d.root, d.trail = root, p.s[start:]
	return d, nil
}

func (p *parser) ws() string {
	start := p.i
	for p.i < len(p.s) {
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return p.s[start:p.i]
		}
	}
	return p.s[start:p.i]
}

func (p *parser) value() (*node, error) {
	if p.i >= len(p.s) {
		return nil, p.fail("unexpected end of input")
	}
	start := p.i
	var n *node
	var err error
	switch c := p.s[p.i]; c {
	case '{':
		n, err = p.object()
	case '[':
		n, err = p.array()
	case '"':
		var s string
		s, err = p.string()
		n = &node{kind: '"', str: s}
	default:
		err = p.scalar()
		n = &node{kind: 'x'}
	}
	if err != nil {
		return nil, err
	}
	n.raw = p.s[start:p.i]
	return n, nil
}

func (p *parser) enter() error {
	p.dep++
	if p.dep > maxDepth {
		return p.fail("nested deeper than %d levels", maxDepth)
	}
	return nil
}

func (p *parser) object() (*node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.dep-- }()
	n := &node{kind: '{'}
	p.i++
	seen := map[string]bool{}
	for {
		pre := p.ws()
		if p.i < len(p.s) && p.s[p.i] == '}' && len(n.members) == 0 {
			n.tail = pre
			p.i++
			return n, nil
		}
		if p.i >= len(p.s) || p.s[p.i] != '"' {
			return nil, p.fail("expected a string key")
		}
		kstart := p.i
		key, err := p.string()
		if err != nil {
			return nil, err
		}
		if seen[key] {
			return nil, p.fail("duplicate key %q", key)
		}
		seen[key] = true
		m := &member{pre: pre, rawKey: p.s[kstart:p.i], key: key}
		sstart := p.i
		p.ws()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.fail("expected ':' after key %q", key)
		}
		p.i++
		p.ws()
		m.sep = p.s[sstart:p.i]
		if m.value, err = p.value(); err != nil {
			return nil, err
		}
		m.post = p.ws()
		n.members = append(n.members, m)
		if p.i >= len(p.s) {
			return nil, p.fail("unexpected end of input in an object")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case '}':
			p.i++
			return n, nil
		default:
			return nil, p.fail("expected ',' or '}'")
		}
	}
}

func (p *parser) array() (*node, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer func() { p.dep-- }()
	n := &node{kind: '['}
	p.i++
	for {
		pre := p.ws()
		if p.i < len(p.s) && p.s[p.i] == ']' && len(n.items) == 0 {
			n.tail = pre
			p.i++
			return n, nil
		}
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		it := &item{pre: pre, value: v, post: p.ws()}
		n.items = append(n.items, it)
		if p.i >= len(p.s) {
			return nil, p.fail("unexpected end of input in an array")
		}
		switch p.s[p.i] {
		case ',':
			p.i++
		case ']':
			p.i++
			return n, nil
		default:
			return nil, p.fail("expected ',' or ']'")
		}
	}
}

// scalar reads a number, true, false or null.
func (p *parser) scalar() error {
	for _, lit := range []string{"true", "false", "null"} {
		if strings.HasPrefix(p.s[p.i:], lit) {
			p.i += len(lit)
			return nil
		}
	}
	start := p.i
	if p.i < len(p.s) && p.s[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		d := p.i
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
		}
		return p.i - d
	}
	switch {
	case p.i < len(p.s) && p.s[p.i] == '0':
		p.i++
	case digits() == 0:
		p.i = start
		return p.fail("unexpected character %q", p.rune())
	}
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return p.fail("expected a digit after '.'")
		}
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return p.fail("expected a digit in the exponent")
		}
	}
	return nil
}

func (p *parser) rune() rune {
	r, _ := utf8.DecodeRuneInString(p.s[p.i:])
	return r
}

// string reads a quoted string and returns its value.
func (p *parser) string() (string, error) {
	p.i++ // opening quote
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			return "", p.fail("unterminated string")
		}
		c := p.s[p.i]
		switch {
		case c == '"':
			p.i++
			return b.String(), nil
		case c < 0x20:
			return "", p.fail("control character %q in a string", c)
		case c != '\\':
			b.WriteByte(c)
			p.i++
			continue
		}
		if p.i+1 >= len(p.s) {
			return "", p.fail("unterminated escape")
		}
		e := p.s[p.i+1]
		p.i += 2
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, err := p.hex4()
			if err != nil {
				return "", err
			}
			if utf16.IsSurrogate(r) {
				r2 := rune(-1)
				if strings.HasPrefix(p.s[p.i:], "\\u") {
					save := p.i
					p.i += 2
					if r2, err = p.hex4(); err != nil {
						return "", err
					}
					if utf16.DecodeRune(r, r2) == utf8.RuneError {
						p.i, r2 = save, -1
					}
				}
				if r2 < 0 {
					return "", p.fail("lone surrogate \\u%04x", r)
				}
				r = utf16.DecodeRune(r, r2)
			}
			b.WriteRune(r)
		default:
			p.i -= 2
			return "", p.fail("invalid escape \\%c", e)
		}
	}
}

func (p *parser) hex4() (rune, error) {
	if p.i+4 > len(p.s) {
		return 0, p.fail("short \\u escape")
	}
	v, err := strconv.ParseUint(p.s[p.i:p.i+4], 16, 32)
	if err != nil {
		return 0, p.fail("invalid \\u escape")
	}
	p.i += 4
	return rune(v), nil //nolint:gosec // G115: four hex digits, at most 0xFFFF
}

// Quote writes s as Python's json.dumps(ensure_ascii=False) does, as
// translate-toolkit saves JSON: quotes, backslashes and the control
// characters escaped (\n, \r, \t, \b, \f, others \u00XX), everything else
// as is.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		default:
			if c < 0x20 {
				fmt.Fprintf(&b, `\u%04x`, c)
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// render writes the node: raw when untouched, else from its parts.
func (n *node) render(b *strings.Builder) {
	if !n.dirty {
		b.WriteString(n.raw)
		return
	}
	switch n.kind {
	case '"':
		b.WriteString(Quote(n.str))
	case '{':
		b.WriteByte('{')
		for i, m := range n.members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(m.pre)
			b.WriteString(m.rawKey)
			b.WriteString(m.sep)
			m.value.render(b)
			b.WriteString(m.post)
		}
		b.WriteString(n.tail)
		b.WriteByte('}')
	case '[':
		b.WriteByte('[')
		for i, it := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(it.pre)
			it.value.render(b)
			b.WriteString(it.post)
		}
		b.WriteString(n.tail)
		b.WriteByte(']')
	default:
		b.WriteString(n.raw)
	}
}

func (d *doc) bytes() []byte {
	var b strings.Builder
	b.WriteString(d.lead)
	d.root.render(&b)
	b.WriteString(d.trail)
	return []byte(b.String())
}

// pretty writes the node as translate-toolkit serializes a whole file:
// json.dumps with indent 4, separators (",", ": "), ensure_ascii off.
func (n *node) pretty(b *strings.Builder, indent string, depth int) {
	pad := "\n" + strings.Repeat(indent, depth+1)
	switch n.kind {
	case '"':
		b.WriteString(Quote(n.str))
	case '{':
		if len(n.members) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, m := range n.members {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(pad + Quote(m.key) + ": ")
			m.value.pretty(b, indent, depth+1)
		}
		b.WriteString("\n" + strings.Repeat(indent, depth) + "}")
	case '[':
		if len(n.items) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, it := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(pad)
			it.value.pretty(b, indent, depth+1)
		}
		b.WriteString("\n" + strings.Repeat(indent, depth) + "]")
	default:
		b.WriteString(n.raw)
	}
}
