package search

import (
	"strconv"
	"strings"
	"time"
)

// dateNode compares a time of the unit (Weblate's added: and
// last_changed:) with an instant or a span: a span (a year, a day, a
// range) matches within it with ":" and ":=", from its start with ":>"
// and ":>=", up to its end with ":<" and ":<="; an instant compares as
// the operator says.
type dateNode struct {
	field    string // added, last_changed, source_changed
	op       string // =, <, <=, >, >=
	from, to time.Time
	span     bool
}

func (n *dateNode) describe(sb *strings.Builder) {
	sb.WriteString(n.field + n.op + n.from.UTC().Format(time.RFC3339Nano))
	if n.span {
		sb.WriteString(".." + n.to.UTC().Format(time.RFC3339Nano))
	}
}

func (n *dateNode) render(b *builder) {
	n.renderOn(b, map[string]string{"added": b.cols.Added, "last_changed": b.cols.LastChanged, "source_changed": b.cols.SourceChanged}[n.field])
}

// renderOn compares the time in col ("": no such time, nothing matches).
func (n *dateNode) renderOn(b *builder, col string) {
	switch {
	case col == "":
		b.sb.WriteString(matchNothing)
	case n.span && (n.op == ">" || n.op == ">="):
		b.sb.WriteString(col + " >= ")
		b.arg(n.from)
	case n.span && (n.op == "<" || n.op == "<="):
		b.sb.WriteString(col + " <= ")
		b.arg(n.to)
	case n.span:
		b.sb.WriteString("(" + col + " >= ")
		b.arg(n.from)
		b.sb.WriteString(" AND " + col + " <= ")
		b.arg(n.to)
		b.sb.WriteString(")")
	default:
		b.sb.WriteString(col + " " + n.op + " ")
		b.arg(n.from)
	}
}

// now is the clock relative dates are read against (tests replace it).
var now = time.Now

// dateTerm is added: or last_changed: with a date, a year, "today",
// "yesterday", an ISO 8601 time or a range "[from to to]" of those.
func dateTerm(t *rawTerm, name string) (node, *ParseError) {
	if t.regex {
		return nil, &ParseError{Pos: t.valuePos, Msg: "regular expressions cannot be used with " + quote(name)}
	}
	op := strings.TrimPrefix(t.op, ":")
	if op == "" {
		op = "="
	}
	n := &dateNode{field: name, op: op}
	bad := func(v string) *ParseError {
		return &ParseError{Pos: t.valuePos, Msg: "could not parse timestamp: " + quote(v)}
	}
	if t.isRange {
		from, _, okFrom := parseDate(t.from)
		_, to, okTo := parseDate(t.to)
		if !okFrom {
			return nil, bad(t.from)
		}
		if !okTo {
			return nil, bad(t.to)
		}
		n.from, n.to, n.span = from, to, true
		return n, nil
	}
	from, to, ok := parseDate(strings.TrimSpace(t.value))
	if !ok {
		return nil, bad(t.value)
	}
	n.from, n.to, n.span = from, to, !to.Equal(from)
	return n, nil
}

// parseDate reads a date as the span it names: a year, a day (also today
// and yesterday, in UTC), or an instant (start equals end).
func parseDate(v string) (from, to time.Time, ok bool) {
	day := func(d time.Time) (time.Time, time.Time, bool) {
		start := time.Date(d.Year(), d.Month(), d.Day(), 0, 0, 0, 0, time.UTC)
		return start, start.AddDate(0, 0, 1).Add(-time.Microsecond), true
	}
	switch lower := strings.ToLower(v); {
	case lower == "today":
		return day(now().UTC())
	case lower == "yesterday":
		return day(now().UTC().AddDate(0, 0, -1))
	case len(v) == 4 && isDigits(v):
		year, _ := strconv.Atoi(v)
		start := time.Date(year, 1, 1, 0, 0, 0, 0, time.UTC)
		return start, start.AddDate(1, 0, 0).Add(-time.Microsecond), true
	}
	if d, err := time.Parse(time.DateOnly, v); err == nil {
		return day(d)
	}
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02T15:04"} {
		if at, err := time.Parse(layout, v); err == nil {
			return at.UTC(), at.UTC(), true
		}
	}
	return time.Time{}, time.Time{}, false
}
