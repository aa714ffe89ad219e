package lang

import (
	"errors"
	"fmt"
	"strconv"
)

// PluralExpr is a compiled gettext plural formula (the C subset gettext and
// Python's gettext.c2py accept: n, decimal integers, parentheses, ! * / % + -
// < > <= >= == != && || and ?:).
type PluralExpr struct {
	root node
}

// ErrDivisionByZero is returned by Eval when the formula divides by zero.
var ErrDivisionByZero = errors.New("plural formula: division by zero")

// maxFormulaLength mirrors the 1000-character limit of gettext.c2py.
const maxFormulaLength = 1000

// CompilePlural parses a plural formula; an error means the formula is not one
// Weblate accepts.
func CompilePlural(formula string) (*PluralExpr, error) {
	if len(formula) > maxFormulaLength {
		return nil, errors.New("plural formula: expression is too long")
	}
	toks, err := tokenize(formula)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	root, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.peek() != "" {
		return nil, fmt.Errorf("plural formula: unexpected token %q", p.peek())
	}
	return &PluralExpr{root: root}, nil
}

// Eval returns the plural form index the formula selects for n. Division and
// remainder round like Python's // and % (c2py semantics), so results agree
// with Weblate also for negative n.
func (e *PluralExpr) Eval(n int64) (int64, error) { return e.root.eval(n) }

type node interface {
	eval(n int64) (int64, error)
}

type numNode int64
type varNode struct{}
type notNode struct{ x node }
type binNode struct {
	op   string
	l, r node
}
type condNode struct{ cond, yes, no node }

func (v numNode) eval(int64) (int64, error) { return int64(v), nil }
func (varNode) eval(n int64) (int64, error) { return n, nil }

func (v notNode) eval(n int64) (int64, error) {
	x, err := v.x.eval(n)
	return b2i(x == 0), err
}

func (v condNode) eval(n int64) (int64, error) {
	c, err := v.cond.eval(n)
	if err != nil {
		return 0, err
	}
	if c != 0 {
		return v.yes.eval(n)
	}
	return v.no.eval(n)
}

func (v binNode) eval(n int64) (int64, error) {
	l, err := v.l.eval(n)
	if err != nil {
		return 0, err
	}
	// Python's "or"/"and" (what c2py emits) short-circuit and yield an operand.
	switch v.op {
	case "||":
		if l != 0 {
			return l, nil
		}
		return v.r.eval(n)
	case "&&":
		if l == 0 {
			return l, nil
		}
		return v.r.eval(n)
	}
	r, err := v.r.eval(n)
	if err != nil {
		return 0, err
	}
	return arith(v.op, l, r)
}

func arith(op string, l, r int64) (int64, error) {
	switch op {
	case "==":
		return b2i(l == r), nil
	case "!=":
		return b2i(l != r), nil
	case "<":
		return b2i(l < r), nil
	case ">":
		return b2i(l > r), nil
	case "<=":
		return b2i(l <= r), nil
	case ">=":
		return b2i(l >= r), nil
	case "+":
		return l + r, nil
	case "-":
		return l - r, nil
	case "*":
		return l * r, nil
	}
	if r == 0 {
		return 0, ErrDivisionByZero
	}
	q, m := l/r, l%r
	if m != 0 && (m < 0) != (r < 0) { // floor like Python
		q, m = q-1, m+r
	}
	if op == "/" {
		return q, nil
	}
	return m, nil
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// tokenize splits a formula; whitespace is spaces and tabs only, as in c2py.
func tokenize(s string) ([]string, error) {
	var toks []string
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			i++
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && s[j] >= '0' && s[j] <= '9' {
				j++
			}
			if j < len(s) && isWordChar(s[j]) {
				return nil, fmt.Errorf("plural formula: invalid token at %q", s[i:])
			}
			toks = append(toks, s[i:j])
			i = j
		case c == 'n' && (i+1 == len(s) || !isWordChar(s[i+1])):
			toks = append(toks, "n")
			i++
		case i+1 < len(s) && isTwoCharOp(s[i:i+2]):
			toks = append(toks, s[i:i+2])
			i += 2
		case isOneCharOp(c):
			toks = append(toks, string(c))
			i++
		default:
			return nil, fmt.Errorf("plural formula: invalid token at %q", s[i:])
		}
	}
	return toks, nil
}

func isWordChar(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

func isTwoCharOp(s string) bool {
	switch s {
	case "<=", ">=", "!=", "==", "&&", "||":
		return true
	}
	return false
}

func isOneCharOp(c byte) bool {
	switch c {
	case '(', ')', '-', '*', '/', '%', '+', '?', ':', '<', '>', '!':
		return true
	}
	return false
}

// binaryPriority is the c2py precedence table (higher binds tighter).
var binaryPriority = map[string]int{
	"||": 1, "&&": 2, "==": 3, "!=": 3, "<": 4, ">": 4, "<=": 4, ">=": 4,
	"+": 5, "-": 5, "*": 6, "/": 6, "%": 6,
}

type parser struct {
	toks []string
	pos  int
}

func (p *parser) peek() string {
	if p.pos < len(p.toks) {
		return p.toks[p.pos]
	}
	return ""
}

func (p *parser) next() string {
	t := p.peek()
	p.pos++
	return t
}

// expr parses a conditional expression (right associative).
func (p *parser) expr() (node, error) {
	cond, err := p.binary(1)
	if err != nil || p.peek() != "?" {
		return cond, err
	}
	p.next()
	yes, err := p.expr()
	if err != nil {
		return nil, err
	}
	if p.next() != ":" {
		return nil, errors.New("plural formula: ':' expected after '?'")
	}
	no, err := p.expr()
	if err != nil {
		return nil, err
	}
	return condNode{cond, yes, no}, nil
}

// binary parses left-associative binary operators of priority >= minPrio.
func (p *parser) binary(minPrio int) (node, error) {
	left, err := p.unary()
	if err != nil {
		return nil, err
	}
	for {
		op := p.peek()
		prio, ok := binaryPriority[op]
		if !ok || prio < minPrio {
			return left, nil
		}
		p.next()
		right, err := p.binary(prio + 1)
		if err != nil {
			return nil, err
		}
		left = binNode{op, left, right}
	}
}

// unary parses "!" operands, primaries and parentheses. c2py turns "!" into
// Python's "not", which binds looser than comparisons: "!n==1" is !(n==1).
func (p *parser) unary() (node, error) {
	switch t := p.next(); {
	case t == "!":
		x, err := p.binaryAfterNot()
		return notNode{x}, err
	case t == "(":
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if p.next() != ")" {
			return nil, errors.New("plural formula: unbalanced parenthesis")
		}
		return x, nil
	case t == "n":
		return varNode{}, nil
	case t != "" && t[0] >= '0' && t[0] <= '9':
		v, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("plural formula: bad number %q", t)
		}
		return numNode(v), nil
	default:
		return nil, fmt.Errorf("plural formula: unexpected token %q", t)
	}
}

func (p *parser) binaryAfterNot() (node, error) { return p.binary(3) }
