package search

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/tmsproject/tms/pkg/weblate"
)

// changeNode is one condition on a change record of the unit (Weblate's
// changed:, changed_by:, change_time: and change_action:). Conditions
// joined by AND hold for the same record: lift groups them into one
// existsNode, as Weblate's ParsedQuery does.
type changeNode struct {
	field string // changed, changed_by, change_time, change_action
	// when is the date of changed: and change_time:.
	when *dateNode
	// author is the user name of changed_by:, compared by op in any
	// case; empty with "=" matches records without an author. regex
	// matches it as a regular expression.
	author string
	regex  bool
	// op compares author or action, the reference's action number
	// (change_action:).
	op     string
	action int32
}

func (n *changeNode) describe(sb *strings.Builder) {
	sb.WriteString("change." + n.field)
	switch {
	case n.when != nil:
		sb.WriteString("[")
		n.when.describe(sb)
		sb.WriteString("]")
	case n.field == "changed_by" && n.regex:
		sb.WriteString(":r" + strconv.Quote(n.author))
	case n.field == "changed_by":
		sb.WriteString(n.op + strconv.Quote(n.author))
	default:
		sb.WriteString(n.op + strconv.Itoa(int(n.action)))
	}
}

// render is a change condition on its own: one record matching it.
func (n *changeNode) render(b *builder) { (&existsNode{conds: []*changeNode{n}}).render(b) }

// contentActions are the reference's numbers of the actions that change a
// string's content, which changed: and changed_by: look at.
var contentActions = func() string {
	nums := make([]string, len(weblate.ContentActions))
	for i, a := range weblate.ContentActions {
		nums[i] = strconv.Itoa(int(weblate.ChangeActions.RefOf(a)))
	}
	return strings.Join(nums, ", ")
}()

// renderCond appends the condition on the change record aliased c.
func (n *changeNode) renderCond(b *builder) {
	switch n.field {
	case "changed", "change_time":
		n.when.renderOn(b, "c.at")
	case "changed_by":
		switch {
		case n.regex:
			(&textNode{mode: modeRegex, value: n.author}).renderOne(b, "c.author")
		case n.author == "" && n.op == "=":
			b.sb.WriteString("c.author = ''")
		default:
			b.sb.WriteString("lower(c.author) " + n.op + " lower(")
			b.arg(n.author)
			b.sb.WriteString(")")
		}
	default:
		b.sb.WriteString("c.action " + n.op + " ")
		b.arg(n.action)
	}
	if n.field == "changed" || n.field == "changed_by" {
		b.sb.WriteString(" AND c.action IN (" + contentActions + ")")
	}
}

// existsNode matches units with one change record meeting every one of
// conds.
type existsNode struct{ conds []*changeNode }

func (n *existsNode) describe(sb *strings.Builder) {
	sb.WriteString("(change")
	for _, c := range n.conds {
		sb.WriteString(" ")
		c.describe(sb)
	}
	sb.WriteString(")")
}

func (n *existsNode) render(b *builder) {
	if b.cols.ChangeUnit == "" {
		b.sb.WriteString(matchNothing)
		return
	}
	b.sb.WriteString("EXISTS (SELECT 1 FROM unit_changes c WHERE c.unit_id = " + b.cols.ChangeUnit)
	for _, c := range n.conds {
		b.sb.WriteString(" AND ")
		c.renderCond(b)
	}
	b.sb.WriteString(")")
}

// maxChangeClauses bounds the alternatives lift may expand a query into
// (Weblate's MAX_PARSED_QUERY_CLAUSES).
const maxChangeClauses = 64

// errTooComplex is a new error each time: Parse rewrites its position.
func errTooComplex() *ParseError { return &ParseError{Msg: "Search query is too complex."} }

// clause is one alternative of a query: plain conditions and the change
// conditions one record must meet.
type clause struct {
	plain  []node
	change []*changeNode
}

// lift rewrites a query holding change conditions so that conditions
// joined by AND apply to one change record: AND distributes over OR into
// alternatives (at most maxChangeClauses), each an AND of its plain
// conditions and one existsNode. NOT keeps its operand whole.
func lift(n node) (node, *ParseError) {
	if !hasChange(n) {
		return n, nil
	}
	cs, err := clauses(n)
	if err != nil {
		return nil, err
	}
	alts := make([]node, len(cs))
	for i, c := range cs {
		xs := append([]node{}, c.plain...)
		if len(c.change) > 0 {
			xs = append(xs, &existsNode{conds: c.change})
		}
		alts[i] = &andNode{xs: xs}
		if len(xs) == 1 {
			alts[i] = xs[0]
		}
	}
	if len(alts) == 1 {
		return alts[0], nil
	}
	return &orNode{xs: alts}, nil
}

func clauses(n node) ([]clause, *ParseError) {
	if !hasChange(n) {
		return []clause{{plain: []node{n}}}, nil
	}
	switch x := n.(type) {
	case *changeNode:
		return []clause{{change: []*changeNode{x}}}, nil
	case *notNode:
		inner, err := lift(x.x)
		if err != nil {
			return nil, err
		}
		return []clause{{plain: []node{&notNode{x: inner}}}}, nil
	case *orNode:
		var out []clause
		for _, y := range x.xs {
			cs, err := clauses(y)
			if err != nil {
				return nil, err
			}
			out = append(out, cs...)
			if len(out) > maxChangeClauses {
				return nil, errTooComplex()
			}
		}
		return out, nil
	case *andNode:
		out := []clause{{}}
		for _, y := range x.xs {
			cs, err := clauses(y)
			if err != nil {
				return nil, err
			}
			if len(out)*len(cs) > maxChangeClauses {
				return nil, errTooComplex()
			}
			out = product(out, cs)
		}
		return out, nil
	}
	return []clause{{plain: []node{n}}}, nil
}

func product(as, bs []clause) []clause {
	out := make([]clause, 0, len(as)*len(bs))
	for _, a := range as {
		for _, b := range bs {
			out = append(out, clause{
				plain:  append(append([]node{}, a.plain...), b.plain...),
				change: append(append([]*changeNode{}, a.change...), b.change...),
			})
		}
	}
	return out
}

func hasChange(n node) bool {
	switch x := n.(type) {
	case *changeNode:
		return true
	case *notNode:
		return hasChange(x.x)
	case *andNode:
		return anyChange(x.xs)
	case *orNode:
		return anyChange(x.xs)
	}
	return false
}

func anyChange(xs []node) bool {
	for _, x := range xs {
		if hasChange(x) {
			return true
		}
	}
	return false
}

// changeTerm builds changed:, change_time: (dates, as added: reads them),
// changed_by: (a user name, any case, or a regular expression; empty:
// records without an author) and change_action: (an action's name).
func changeTerm(t *rawTerm, name string) (node, *ParseError) {
	switch name {
	case "changed", "change_time":
		d, err := dateTerm(t, name)
		if err != nil {
			return nil, err
		}
		return &changeNode{field: name, when: d.(*dateNode)}, nil
	case "changed_by":
		if t.isRange {
			return nil, &ParseError{Pos: t.valuePos, Msg: "a range cannot be used with " + quote(name)}
		}
		if t.regex {
			if _, err := regexp.Compile(t.value); err != nil {
				return nil, &ParseError{Pos: t.valuePos, Msg: "invalid regular expression: " + err.Error()}
			}
		}
		return &changeNode{field: name, author: t.value, regex: t.regex, op: changeOp(t.op)}, nil
	}
	if t.regex || t.isRange {
		return nil, &ParseError{Pos: t.valuePos, Msg: "Unknown change action: " + t.value}
	}
	num, ok := weblate.ActionNumber(t.value)
	if !ok {
		return nil, &ParseError{Pos: t.valuePos, Msg: "Unknown change action: " + t.value}
	}
	return &changeNode{field: name, op: changeOp(t.op), action: num}, nil
}

// changeOp is the SQL comparison of a term's operator (":" and ":=" are
// equality).
func changeOp(op string) string {
	if op = strings.TrimPrefix(op, ":"); op == "" {
		return "="
	}
	return op
}
