package search

import (
	"strconv"
	"strings"
)

// node is one element of a parsed query.
type node interface {
	// render appends the SQL for the node to b.
	render(b *builder)
	// describe appends a canonical S-expression (used in tests and logs).
	describe(sb *strings.Builder)
}

type matchMode int

const (
	modeSubstring matchMode = iota
	modeExact
	modeRegex
)

// textField names a text column of Columns.
type textField int

const (
	fieldSource textField = iota
	fieldTarget
	fieldContext
	fieldNote
	fieldLocation
	fieldExplanation
)

var textFieldNames = [...]string{"source", "target", "context", "note", "location", "explanation"}

// defaultFields are searched by a term without a field, as in Weblate.
var defaultFields = []textField{fieldSource, fieldTarget, fieldContext}

type textNode struct {
	fields []textField
	mode   matchMode
	value  string
}

type stateNode struct {
	op    string // =, <, <=, >, >=
	value int
}

// numNode compares a number of the unit (id, position, priority) with
// values: one, or for id: a comma-separated set (IN).
type numNode struct {
	field  string // id, position, priority
	op     string // =, <, <=, >, >=
	values []int64
}

func (n *numNode) describe(sb *strings.Builder) {
	sb.WriteString(n.field + n.op)
	for i, v := range n.values {
		if i > 0 {
			sb.WriteString(",")
		}
		sb.WriteString(strconv.FormatInt(v, 10))
	}
}

type flag int

const (
	flagSuggestion flag = iota
	flagComment
	flagPlural
	flagContext
	flagNote
	flagCheck
	flagDismissedCheck
	flagExplanation
	flagPending
	flagResolvedComment
	flagSourceComment
	flagResolvedSourceComment
	flagLocation
	flagLabel
	flagFlags
)

var flagNames = [...]string{"suggestion", "comment", "plural", "context", "note", "check", "dismissed-check", "explanation", "pending",
	"resolved-comment", "source-comment", "resolved-source-comment", "location", "label", "flags"}

type hasNode struct{ flag flag }

// labelNode matches strings carrying the label of that name (any case).
type labelNode struct{ name string }

func (n *labelNode) describe(sb *strings.Builder) {
	sb.WriteString("label=" + strconv.Quote(n.name))
}

// checkNode matches strings with a check whose id contains name (equals
// it when exact), failing or, when dismissed, dismissed.
type checkNode struct {
	name             string
	exact, dismissed bool
}

func (n *checkNode) describe(sb *strings.Builder) {
	field := "check"
	if n.dismissed {
		field = "dismissed_check"
	}
	op := "~"
	if n.exact {
		op = "="
	}
	sb.WriteString(field + op + strconv.Quote(n.name))
}

// scopeNode matches strings of a project, component or language
// (Weblate's project:, component: and language:), by a column of their
// translation: the slug or code. mode is modeExact for Weblate's iexact
// (":", and ":=" on component:), modeSubstring for component's icontains,
// modeRegex for a regular expression; cased is ":=" on project: and
// language: (Weblate's exact).
type scopeNode struct {
	column, value string
	mode          matchMode
	cased         bool
}

func (n *scopeNode) describe(sb *strings.Builder) {
	op := map[matchMode]string{modeExact: "=", modeSubstring: "~", modeRegex: ":r"}[n.mode]
	if n.cased {
		op = "=="
	}
	sb.WriteString(n.column + op + strconv.Quote(n.value))
}

// relatedNode matches strings with a suggestion or comment whose column
// matches (Weblate's suggestion:, comment:, resolved_comment:,
// suggestion_author:, comment_author:): text as a text term matches,
// authors by the user name, exactly but for case. resolved limits
// comments to the unresolved ("NOT") or the resolved ("") ones; table
// suggestions has none ("-").
type relatedNode struct {
	table, column, resolved string
	// onSource looks at the comments of the unit's source string
	// (Weblate's source_comment: fields).
	onSource bool
	mode     matchMode
	value    string
}

func (n *relatedNode) describe(sb *strings.Builder) {
	op := map[matchMode]string{modeExact: "=", modeSubstring: "~", modeRegex: ":r"}[n.mode]
	if n.onSource {
		sb.WriteString("source.")
	}
	sb.WriteString(n.table + "." + n.column + op + strconv.Quote(n.value))
	if n.resolved != "-" {
		sb.WriteString(" " + strings.TrimSpace(n.resolved+" resolved"))
	}
}

type notNode struct{ x node }

type andNode struct{ xs []node }

type orNode struct{ xs []node }

// allNode is the empty query: it matches every unit.
type allNode struct{}

func (n *textNode) describe(sb *strings.Builder) {
	names := make([]string, len(n.fields))
	for i, f := range n.fields {
		names[i] = textFieldNames[f]
	}
	sb.WriteString(strings.Join(names, "|"))
	switch n.mode {
	case modeSubstring:
		sb.WriteString(":")
	case modeExact:
		sb.WriteString(":=")
	case modeRegex:
		sb.WriteString(":r")
	}
	sb.WriteString(strconv.Quote(n.value))
}

func (n *stateNode) describe(sb *strings.Builder) {
	sb.WriteString("state" + n.op + strconv.Itoa(n.value))
}

func (n *hasNode) describe(sb *strings.Builder) { sb.WriteString("has:" + flagNames[n.flag]) }

func (n *notNode) describe(sb *strings.Builder) {
	sb.WriteString("(not ")
	n.x.describe(sb)
	sb.WriteString(")")
}

func (n *andNode) describe(sb *strings.Builder) { describeList(sb, "and", n.xs) }
func (n *orNode) describe(sb *strings.Builder)  { describeList(sb, "or", n.xs) }
func (n *allNode) describe(sb *strings.Builder) { sb.WriteString("(all)") }

func describeList(sb *strings.Builder, op string, xs []node) {
	sb.WriteString("(" + op)
	for _, x := range xs {
		sb.WriteString(" ")
		x.describe(sb)
	}
	sb.WriteString(")")
}
