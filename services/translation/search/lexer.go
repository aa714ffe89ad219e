package search

import (
	"regexp"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

type tokenKind int

const (
	tokEOF tokenKind = iota
	tokTerm
	tokAnd
	tokOr
	tokNot
	tokLParen
	tokRParen
)

// rawTerm is a term as written: field and operator are empty for a bare
// word or phrase. Positions are byte offsets into the query.
type rawTerm struct {
	field    string
	fieldPos int
	op       string // ":", ":=", ":<", ":<=", ":>", ":>="
	value    string
	valuePos int
	quoted   bool
	regex    bool
	// from and to are the bounds of a range value "[from to to]"
	// (Weblate's RangeExpr), isRange set.
	from, to string
	isRange  bool
}

type token struct {
	kind tokenKind
	pos  int
	term *rawTerm
}

// operators in the order they must be tried (longest first).
var operators = []string{":<=", ":>=", ":=", ":<", ":>", ":"}

// lexer splits a query into tokens. Errors carry byte offsets; Parse turns
// them into character positions.
type lexer struct {
	src string
	pos int
}

func lex(src string) ([]token, *ParseError) {
	l := &lexer{src: src}
	var toks []token
	for {
		t, err := l.next()
		if err != nil {
			return nil, err
		}
		toks = append(toks, t)
		if t.kind == tokEOF {
			return toks, nil
		}
	}
}

func (l *lexer) peekRune(at int) rune {
	if at >= len(l.src) {
		return -1
	}
	r, _ := utf8.DecodeRuneInString(l.src[at:])
	return r
}

func (l *lexer) skipSpace() {
	for l.pos < len(l.src) {
		r, size := utf8.DecodeRuneInString(l.src[l.pos:])
		if !unicode.IsSpace(r) {
			return
		}
		l.pos += size
	}
}

func (l *lexer) next() (token, *ParseError) {
	l.skipSpace()
	start := l.pos
	if start >= len(l.src) {
		return token{kind: tokEOF, pos: start}, nil
	}
	switch l.src[start] {
	case '(':
		l.pos++
		return token{kind: tokLParen, pos: start}, nil
	case ')':
		l.pos++
		return token{kind: tokRParen, pos: start}, nil
	}
	if kind, ok := l.keyword(); ok {
		return token{kind: kind, pos: start}, nil
	}
	term := &rawTerm{fieldPos: start}
	if field, op, ok := l.fieldPrefix(); ok {
		term.field, term.op = field, op
		l.pos += len(field) + len(op)
	}
	if err := l.value(term); err != nil {
		return token{}, err
	}
	return token{kind: tokTerm, pos: start, term: term}, nil
}

// keyword recognises AND, OR and NOT in any case when they stand alone:
// followed by the end, a blank, a parenthesis or a quote.
func (l *lexer) keyword() (tokenKind, bool) {
	for _, kw := range []struct {
		word string
		kind tokenKind
	}{{"and", tokAnd}, {"or", tokOr}, {"not", tokNot}} {
		end := l.pos + len(kw.word)
		if end > len(l.src) || !strings.EqualFold(l.src[l.pos:end], kw.word) {
			continue
		}
		if r := l.peekRune(end); r == -1 || unicode.IsSpace(r) || strings.ContainsRune(`()"'`, r) {
			l.pos = end
			return kw.kind, true
		}
	}
	return 0, false
}

// fieldPrefix reports a `name:` prefix at the current position: letters and
// underscores then an operator. Like Weblate, URL schemes are not fields,
// so "http://x" stays a plain word.
func (l *lexer) fieldPrefix() (field, op string, ok bool) {
	i := l.pos
	for i < len(l.src) && (isASCIILetter(l.src[i]) || l.src[i] == '_') {
		i++
	}
	if i == l.pos || i >= len(l.src) || l.src[i] != ':' {
		return "", "", false
	}
	name := l.src[l.pos:i]
	lower := strings.ToLower(name)
	for _, scheme := range []string{"http", "ftp", "mailto"} {
		if strings.HasPrefix(lower, scheme) {
			return "", "", false
		}
	}
	for _, o := range operators {
		if strings.HasPrefix(l.src[i:], o) {
			return name, o, true
		}
	}
	return "", "", false
}

func isASCIILetter(c byte) bool {
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// rangeValue is Weblate's date range, "[" date "to" date "]", its dates
// words of letters, digits and ":._-".
var rangeValue = regexp.MustCompile(`^\[\s*([\p{L}\p{N}:._-]+)\s+(?i:to)\s+([\p{L}\p{N}:._-]+)\s*\]`)

// value reads a regex r"…", a quoted string, a range or a bare word.
func (l *lexer) value(t *rawTerm) *ParseError {
	t.valuePos = l.pos
	rest := l.src[l.pos:]
	switch {
	case strings.HasPrefix(rest, `r"`):
		t.regex, t.quoted = true, true
		l.pos++
		return l.quoted(t)
	case strings.HasPrefix(rest, `"`), strings.HasPrefix(rest, `'`):
		t.quoted = true
		return l.quoted(t)
	}
	if m := rangeValue.FindStringSubmatch(rest); m != nil {
		t.isRange, t.from, t.to, t.value = true, m[1], m[2], m[0]
		l.pos += len(m[0])
		return nil
	}
	r := l.peekRune(l.pos)
	if r == -1 || unicode.IsSpace(r) || r == '(' || r == ')' {
		name := t.field + t.op
		return &ParseError{Pos: l.pos, Msg: "missing value after " + quote(name)}
	}
	// A word ends at a blank or at a ")" that closes an enclosing group;
	// parentheses opened inside the word stay in it, so f(x) is one word.
	start, depth := l.pos, 0
	for l.pos < len(l.src) {
		r, size := utf8.DecodeRuneInString(l.src[l.pos:])
		if unicode.IsSpace(r) || (r == ')' && depth == 0) {
			break
		}
		switch r {
		case '(':
			depth++
		case ')':
			depth--
		}
		l.pos += size
	}
	t.value = l.src[start:l.pos]
	return nil
}

var whitespaceEscapes = map[byte]byte{'n': '\n', 't': '\t', 'r': '\r', 'f': '\f'}

// quoted reads a string delimited by the quote at l.pos. Only the quote,
// the backslash and whitespace escapes are unescaped (Weblate's
// RawQuotedString); any other backslash is kept for regular expressions.
func (l *lexer) quoted(t *rawTerm) *ParseError {
	open := l.pos
	q := l.src[open]
	var b strings.Builder
	for i := open + 1; i < len(l.src); i++ {
		c := l.src[i]
		switch {
		case c == q:
			l.pos = i + 1
			t.value = b.String()
			return nil
		case c == '\\' && i+1 < len(l.src):
			n := l.src[i+1]
			if n == q || n == '\\' {
				b.WriteByte(n)
				i++
			} else if ws, ok := whitespaceEscapes[n]; ok {
				b.WriteByte(ws)
				i++
			} else {
				b.WriteByte(c)
			}
		default:
			b.WriteByte(c)
		}
	}
	return &ParseError{Pos: open, Msg: "unterminated quoted string"}
}

func quote(s string) string { return strconv.Quote(s) }
