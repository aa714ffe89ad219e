package search

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Limits of a query, so that one request cannot build a statement that
// takes the database minutes (or fails with "Expression tree too large" /
// "LIKE pattern too complex"): a bad query is a 400 with the reason.
const (
	// maxDepth bounds nesting (parentheses and NOT).
	maxDepth = 20
	// maxQueryChars bounds the whole query.
	maxQueryChars = 2000
	// maxTerms bounds the search terms.
	maxTerms = 50
	// maxTermChars bounds one term's value (a LIKE pattern or regexp).
	maxTermChars = 500
)

// ParseError reports a malformed query. Pos is the 0-based position, in
// characters (not bytes), of the offending token.
type ParseError struct {
	Pos int
	Msg string
}

func (e *ParseError) Error() string {
	return fmt.Sprintf("invalid search query at position %d: %s", e.Pos, e.Msg)
}

// Query is a parsed search query.
type Query struct {
	root node
}

// String renders the query as an S-expression, e.g.
// (or (and source:"a" state>=20) (not has:comment)).
func (q *Query) String() string {
	var sb strings.Builder
	q.root.describe(&sb)
	return sb.String()
}

// Parse parses a Weblate search query. An empty or blank query matches
// every unit.
func Parse(q string) (*Query, error) {
	root, perr := parse(q)
	if perr == nil {
		root, perr = lift(root)
	}
	if perr != nil {
		// Positions are byte offsets until here; report characters.
		perr.Pos = utf8.RuneCountInString(q[:min(perr.Pos, len(q))])
		return nil, perr
	}
	return &Query{root: root}, nil
}

func parse(q string) (node, *ParseError) {
	if i := strings.IndexByte(q, 0); i >= 0 {
		return nil, &ParseError{Pos: i, Msg: "the query contains a NUL character"}
	}
	if !utf8.ValidString(q) {
		return nil, &ParseError{Pos: firstInvalid(q), Msg: "the query is not valid UTF-8"}
	}
	if n := utf8.RuneCountInString(q); n > maxQueryChars {
		return nil, &ParseError{Pos: len(string([]rune(q)[:maxQueryChars])), Msg: fmt.Sprintf("the query is longer than %d characters", maxQueryChars)}
	}
	toks, err := lex(q)
	if err != nil {
		return nil, err
	}
	if err = checkTerms(toks); err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	if p.peek().kind == tokEOF {
		return &allNode{}, nil
	}
	n, err := p.parseOr(0)
	if err != nil {
		return nil, err
	}
	if t := p.peek(); t.kind != tokEOF {
		if t.kind == tokRParen {
			return nil, &ParseError{Pos: t.pos, Msg: "unbalanced parentheses: \")\" without matching \"(\""}
		}
		return nil, &ParseError{Pos: t.pos, Msg: "unexpected " + describeToken(q, t)}
	}
	return n, nil
}

func firstInvalid(s string) int {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return i
			}
		}
	}
	return 0
}

type parser struct {
	toks []token
	i    int
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) advance() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

// startsOperand reports whether t can begin a NOT/term/group, which is also
// where an implicit AND applies.
func startsOperand(t token) bool {
	return t.kind == tokTerm || t.kind == tokNot || t.kind == tokLParen
}

func (p *parser) parseOr(depth int) (node, *ParseError) {
	first, err := p.parseAnd(depth)
	if err != nil {
		return nil, err
	}
	xs := []node{first}
	for p.peek().kind == tokOr {
		op := p.advance()
		if !startsOperand(p.peek()) {
			return nil, &ParseError{Pos: op.pos, Msg: "OR must be followed by a search term"}
		}
		x, err := p.parseAnd(depth)
		if err != nil {
			return nil, err
		}
		xs = append(xs, x)
	}
	if len(xs) == 1 {
		return first, nil
	}
	return &orNode{xs: xs}, nil
}

func (p *parser) parseAnd(depth int) (node, *ParseError) {
	first, err := p.parseUnary(depth)
	if err != nil {
		return nil, err
	}
	xs := []node{first}
	for {
		t := p.peek()
		if t.kind == tokAnd {
			p.advance()
			if !startsOperand(p.peek()) {
				return nil, &ParseError{Pos: t.pos, Msg: "AND must be followed by a search term"}
			}
		} else if !startsOperand(t) {
			break
		}
		x, err := p.parseUnary(depth)
		if err != nil {
			return nil, err
		}
		xs = append(xs, x)
	}
	if len(xs) == 1 {
		return first, nil
	}
	return &andNode{xs: xs}, nil
}

func (p *parser) parseUnary(depth int) (node, *ParseError) {
	t := p.peek()
	if depth >= maxDepth {
		return nil, &ParseError{Pos: t.pos, Msg: "the query is nested too deeply"}
	}
	switch t.kind {
	case tokNot:
		p.advance()
		if !startsOperand(p.peek()) {
			return nil, &ParseError{Pos: t.pos, Msg: "NOT must be followed by a search term"}
		}
		x, err := p.parseUnary(depth + 1)
		if err != nil {
			return nil, err
		}
		return &notNode{x: x}, nil
	case tokLParen:
		p.advance()
		if p.peek().kind == tokRParen {
			return nil, &ParseError{Pos: t.pos, Msg: "empty parentheses"}
		}
		x, err := p.parseOr(depth + 1)
		if err != nil {
			return nil, err
		}
		if p.peek().kind != tokRParen {
			return nil, &ParseError{Pos: t.pos, Msg: "unbalanced parentheses: \"(\" is never closed"}
		}
		p.advance()
		return x, nil
	case tokTerm:
		p.advance()
		return buildTerm(t.term)
	case tokRParen:
		return nil, &ParseError{Pos: t.pos, Msg: "unbalanced parentheses: \")\" without matching \"(\""}
	case tokEOF:
		return nil, &ParseError{Pos: t.pos, Msg: "unexpected end of query"}
	default: // AND or OR where a term is due
		return nil, &ParseError{Pos: t.pos, Msg: "expected a search term before " + keywordName(t.kind)}
	}
}

func keywordName(k tokenKind) string {
	switch k {
	case tokAnd:
		return "AND"
	case tokOr:
		return "OR"
	default:
		return "NOT"
	}
}

func describeToken(q string, t token) string {
	switch t.kind {
	case tokAnd, tokOr, tokNot:
		return keywordName(t.kind)
	case tokLParen:
		return `"("`
	case tokEOF:
		return "end of query"
	}
	return "term at " + quote(q[t.pos:])
}

// checkTerms enforces maxTerms and maxTermChars.
func checkTerms(toks []token) *ParseError {
	n := 0
	for _, t := range toks {
		if t.kind != tokTerm {
			continue
		}
		if n++; n > maxTerms {
			return &ParseError{Pos: t.pos, Msg: fmt.Sprintf("the query has more than %d search terms", maxTerms)}
		}
		if utf8.RuneCountInString(t.term.value) > maxTermChars {
			return &ParseError{Pos: t.term.valuePos, Msg: fmt.Sprintf("a search term is longer than %d characters", maxTermChars)}
		}
	}
	return nil
}

// And is the query of the units that match both q and other.
func (q *Query) And(other *Query) *Query {
	return &Query{root: &andNode{xs: []node{q.root, other.root}}}
}

// Check is the query of the units failing check id (check:=id) or, when
// dismissed, where it was dismissed (dismissed_check:=id).
func Check(id string, dismissed bool) *Query {
	return &Query{root: &checkNode{name: id, exact: true, dismissed: dismissed}}
}
