package search

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tmsproject/tms/pkg/textstat"
)

// Columns holds the SQL expression for each searchable attribute, e.g.
// "units.source". Source and Target hold plural forms joined with
// "\x1e\x1e". HasSuggestion, HasComment and IsPlural are boolean
// expressions (on PostgreSQL they must be of type boolean, e.g.
// "EXISTS (SELECT 1 FROM suggestions s WHERE s.unit_id = units.id)").
// IsPlural may be empty: has:plural then tests Source for the plural
// separator, as Weblate does. Any other expression a query needs must be set:
// an empty one renders as a condition that matches nothing.
type Columns struct {
	Source, Target, Context, Note, Location string
	State                                   string
	HasSuggestion, HasComment, IsPlural     string
	// LabelUnit is the id of the unit a unit's labels are set on (its
	// source unit); label:NAME looks it up in unit_labels and labels.
	LabelUnit string
	// CheckUnit is the unit's id, which check:ID looks up in unit_checks;
	// HasFailingCheck is true when the unit has a check not dismissed.
	CheckUnit, HasFailingCheck string
	// ID, Position and Priority are the unit's numbers (id:, position:,
	// priority:); Pending is true for an edit not yet committed
	// (is:pending); Explanation is its source string's explanation
	// (explanation:, has:explanation).
	ID, Position, Priority, Pending, Explanation string
	// Added and LastChanged are when the unit was stored and last changed
	// (added:, last_changed:).
	Added, LastChanged string
	// SourceChanged is when the unit's source string last changed
	// (source_changed:); ExtraFlags the extra flags of its source string
	// (has:flags).
	SourceChanged, ExtraFlags string
	// ChangeUnit is the unit's id, which changed:, changed_by:,
	// change_time: and change_action: look up in unit_changes (unit_id,
	// action: the reference's number, author, at).
	ChangeUnit string
	// Translation is the id of the unit's translation, whose project,
	// component and language (project:, component:, language:) the
	// translations table holds.
	Translation string
	// Folded is, on SQLite, a condition true for the rows whose text holds
	// a character lower() turns into ASCII, e.g. "units.id IN (SELECT id
	// FROM units WHERE "+FoldCondition(...)+")" over a partial index with
	// that WHERE. An ASCII substring search then runs SQLite's own LIKE and
	// pays for lower() only on those rows. Empty: lower() on every row;
	// NoneFolded: no row holds such a character, and lower() is not run.
	Folded string
}

// NoneFolded is Columns.Folded when no row holds a character lower()
// turns into ASCII.
const NoneFolded = matchNothing

// PluralSeparator joins the plural forms of a source or target string.
const PluralSeparator = textstat.PluralSeparator

// Dialects accepted by SQL. Anything that does not start with "postgres"
// is treated as SQLite.
const (
	DialectSQLite   = "sqlite"
	DialectPostgres = "postgres"
)

// SQL renders the query as a WHERE condition with `?` placeholders and the
// matching arguments. dialect is "sqlite" or "postgres" (gorm's
// Dialector.Name()).
func (q *Query) SQL(cols Columns, dialect string) (where string, args []any) {
	b := &builder{cols: cols, postgres: strings.HasPrefix(dialect, DialectPostgres)}
	q.root.render(b)
	return b.sb.String(), b.args
}

type builder struct {
	sb       strings.Builder
	args     []any
	cols     Columns
	postgres bool
}

const matchNothing = "1=0"

func (b *builder) arg(v any) {
	b.sb.WriteString("?")
	b.args = append(b.args, v)
}

func (b *builder) column(f textField) string {
	switch f {
	case fieldSource:
		return b.cols.Source
	case fieldTarget:
		return b.cols.Target
	case fieldContext:
		return b.cols.Context
	case fieldNote:
		return b.cols.Note
	case fieldExplanation:
		return b.cols.Explanation
	default:
		return b.cols.Location
	}
}

func (n *numNode) render(b *builder) {
	col := map[string]string{"id": b.cols.ID, "position": b.cols.Position, "priority": b.cols.Priority}[n.field]
	switch {
	case col == "":
		b.sb.WriteString(matchNothing)
	case len(n.values) > 1:
		b.sb.WriteString(col + " IN (")
		for i, v := range n.values {
			if i > 0 {
				b.sb.WriteString(", ")
			}
			b.arg(v)
		}
		b.sb.WriteString(")")
	default:
		b.sb.WriteString(col + " " + n.op + " ")
		b.arg(n.values[0])
	}
}

func (n *allNode) render(b *builder) { b.sb.WriteString("1=1") }

func (n *notNode) render(b *builder) {
	b.sb.WriteString("NOT (")
	n.x.render(b)
	b.sb.WriteString(")")
}

func (n *andNode) render(b *builder) { renderList(b, " AND ", n.xs) }
func (n *orNode) render(b *builder)  { renderList(b, " OR ", n.xs) }

func renderList(b *builder, sep string, xs []node) {
	b.sb.WriteString("(")
	for i, x := range xs {
		if i > 0 {
			b.sb.WriteString(sep)
		}
		x.render(b)
	}
	b.sb.WriteString(")")
}

func (n *textNode) render(b *builder) {
	if len(n.fields) > 1 {
		b.sb.WriteString("(")
	}
	for i, f := range n.fields {
		if i > 0 {
			b.sb.WriteString(" OR ")
		}
		col := b.column(f)
		if col == "" {
			b.sb.WriteString(matchNothing)
			continue
		}
		n.renderOne(b, "COALESCE("+col+", '')")
	}
	if len(n.fields) > 1 {
		b.sb.WriteString(")")
	}
}

func (n *textNode) renderOne(b *builder, col string) {
	switch {
	case n.mode == modeExact:
		b.sb.WriteString(col + " = ")
		b.arg(n.value)
	case n.mode == modeRegex && b.postgres:
		b.sb.WriteString(col + " ~ ")
		b.arg(n.value)
	case n.mode == modeRegex:
		b.sb.WriteString(col + " REGEXP ")
		b.arg(n.value)
	case b.postgres:
		b.sb.WriteString(col + ` ILIKE `)
		b.arg(likePattern(n.value))
		b.sb.WriteString(` ESCAPE '\'`)
	case isASCII(n.value):
		renderASCIILike(b, col, likePattern(n.value))
	default:
		renderLowerLike(b, col, likePattern(n.value))
	}
}

// renderLowerLike is the SQLite substring test: the same lower() on both
// sides, so a Unicode-aware override of lower() on the connection folds
// column and value alike.
func renderLowerLike(b *builder, col, pattern string) {
	b.sb.WriteString("lower(" + col + ") LIKE lower(")
	b.arg(pattern)
	b.sb.WriteString(`) ESCAPE '\'`)
}

// renderASCIILike is renderLowerLike for an ASCII value, with the same
// matches at a fraction of the cost: SQLite's own LIKE folds ASCII case,
// which is all an ASCII value needs, except in a row holding one of the few
// other characters that lower() turns into ASCII (the Kelvin sign, dotted
// capital I); only such rows (Columns.Folded) pay for lower().
func renderASCIILike(b *builder, col, pattern string) {
	if b.cols.Folded == "" {
		renderLowerLike(b, col, pattern)
		return
	}
	if b.cols.Folded == NoneFolded {
		b.sb.WriteString(col + " LIKE ")
		b.arg(pattern)
		b.sb.WriteString(` ESCAPE '\'`)
		return
	}
	b.sb.WriteString("(" + col + " LIKE ")
	b.arg(pattern)
	b.sb.WriteString(` ESCAPE '\' OR (` + b.cols.Folded + " AND ")
	renderLowerLike(b, col, pattern)
	b.sb.WriteString("))")
}

// FoldCondition is the SQLite condition, over the named text columns of a
// row, that holds when one of them contains a character of lowersToASCII.
// The characters are literals, not parameters, so that a partial index
// with this WHERE serves a query that repeats it.
func FoldCondition(cols ...string) string { return foldCondition(lowersToASCII, cols) }

// IndexFoldCondition is FoldCondition for the characters that lower() or
// FTS5's case-folding trigrams turn into ASCII (indexFoldsToASCII): the
// rows where the index and an ASCII substring test may disagree.
func IndexFoldCondition(cols ...string) string { return foldCondition(indexFoldsToASCII, cols) }

func foldCondition(chars []rune, cols []string) string {
	var terms []string
	for _, c := range cols {
		for _, r := range chars {
			terms = append(terms, "instr("+c+", '"+string(r)+"') > 0")
		}
	}
	return strings.Join(terms, " OR ")
}

// lowersToASCII are the non-ASCII characters that strings.ToLower (the
// lower() of SQLite connections) turns into ASCII ones: dotted capital I
// and the Kelvin sign (TestLowersToASCII derives the list from Unicode).
var lowersToASCII = []rune{'\u0130', '\u212a'}

// indexFoldsToASCII are lowersToASCII and the characters FTS5's trigram
// tokenizer, folding case, turns into ASCII: the long s as well (and the
// Kelvin sign; TestIndexFoldsToASCII derives the list from FTS5 itself).
var indexFoldsToASCII = []rune{'\u0130', '\u017f', '\u212a'}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// likePattern wraps v in % after escaping LIKE's metacharacters with \.
func likePattern(v string) string {
	r := strings.NewReplacer(`\`, `\\`, `%`, `\%`, `_`, `\_`)
	return "%" + r.Replace(v) + "%"
}

func (n *scopeNode) render(b *builder) {
	if b.cols.Translation == "" {
		b.sb.WriteString(matchNothing)
		return
	}
	b.sb.WriteString(b.cols.Translation + " IN (SELECT id FROM translations WHERE ")
	col := n.column
	switch {
	case n.cased:
		b.sb.WriteString(col + " = ")
		b.arg(n.value)
	case n.mode == modeExact:
		b.sb.WriteString("lower(" + col + ") = lower(")
		b.arg(n.value)
		b.sb.WriteString(")")
	default: // slugs and codes are ASCII: SQLite's LIKE folds their case
		folded := b.cols.Folded
		b.cols.Folded = NoneFolded
		(&textNode{mode: n.mode, value: n.value}).renderOne(b, col)
		b.cols.Folded = folded
	}
	b.sb.WriteString(")")
}

func (n *stateNode) render(b *builder) {
	if b.cols.State == "" {
		b.sb.WriteString(matchNothing)
		return
	}
	b.sb.WriteString(b.cols.State + " " + n.op + " ")
	b.arg(n.value)
}

func (n *labelNode) render(b *builder) {
	if b.cols.LabelUnit == "" {
		b.sb.WriteString(matchNothing)
		return
	}
	b.sb.WriteString("EXISTS (SELECT 1 FROM unit_labels ul JOIN labels l ON l.id = ul.label_id WHERE ul.unit_id = " +
		b.cols.LabelUnit + " AND lower(l.name) = lower(")
	b.arg(n.name)
	b.sb.WriteString("))")
}

func (n *checkNode) render(b *builder) {
	if b.cols.CheckUnit == "" {
		b.sb.WriteString(matchNothing)
		return
	}
	b.sb.WriteString("EXISTS (SELECT 1 FROM unit_checks uc WHERE uc.unit_id = " + b.cols.CheckUnit)
	if n.dismissed {
		b.sb.WriteString(" AND uc.dismissed")
	} else { // rows of a unit whose id a removed unit had cannot count
		b.sb.WriteString(" AND NOT uc.dismissed AND " + b.cols.HasFailingCheck)
	}
	if n.exact {
		b.sb.WriteString(" AND uc.name = ")
		b.arg(n.name)
	} else {
		b.sb.WriteString(" AND uc.name LIKE ")
		b.arg("%" + strings.ReplaceAll(n.name, "%", "") + "%") // ids are lower case; _ matches itself too
	}
	b.sb.WriteString(")")
}

func (n *relatedNode) render(b *builder) {
	unit := b.cols.CheckUnit
	if n.onSource {
		unit = b.cols.LabelUnit
	}
	if unit == "" {
		b.sb.WriteString(matchNothing)
		return
	}
	b.sb.WriteString("EXISTS (SELECT 1 FROM " + n.table + " r WHERE r.unit_id = " + unit)
	if n.resolved != "-" {
		b.sb.WriteString(" AND " + strings.TrimSpace(n.resolved+" r.resolved"))
	}
	b.sb.WriteString(" AND ")
	col := "r." + n.column
	switch {
	case n.column == "user_name":
		b.sb.WriteString("lower(" + col + ") = lower(")
		b.arg(n.value)
		b.sb.WriteString(")")
	case n.mode == modeSubstring && !b.postgres:
		// Not the units' columns: the Folded shortcut does not apply.
		renderLowerLike(b, col, likePattern(n.value))
	default:
		(&textNode{mode: n.mode, value: n.value}).renderOne(b, col)
	}
	b.sb.WriteString(")")
}

func (n *hasNode) render(b *builder) {
	var expr string
	switch n.flag {
	case flagCheck:
		expr = b.cols.HasFailingCheck
	case flagDismissedCheck:
		if b.cols.CheckUnit != "" {
			expr = "EXISTS (SELECT 1 FROM unit_checks uc WHERE uc.unit_id = " + b.cols.CheckUnit + " AND uc.dismissed)"
		}
	case flagSuggestion:
		expr = b.cols.HasSuggestion
	case flagComment:
		expr = b.cols.HasComment
	case flagResolvedComment:
		if b.cols.CheckUnit != "" {
			expr = "EXISTS (SELECT 1 FROM comments r WHERE r.unit_id = " + b.cols.CheckUnit + " AND r.resolved)"
		}
	case flagSourceComment, flagResolvedSourceComment:
		if b.cols.LabelUnit != "" {
			resolved := map[flag]string{flagSourceComment: "NOT r.resolved", flagResolvedSourceComment: "r.resolved"}[n.flag]
			expr = "EXISTS (SELECT 1 FROM comments r WHERE r.unit_id = " + b.cols.LabelUnit + " AND " + resolved + ")"
		}
	case flagPlural:
		expr = b.cols.IsPlural
		if expr == "" && b.cols.Source != "" {
			b.renderContains(b.cols.Source, PluralSeparator)
			return
		}
	case flagContext:
		b.renderNonEmpty(b.cols.Context)
		return
	case flagNote:
		b.renderNonEmpty(b.cols.Note)
		return
	case flagExplanation:
		b.renderNonEmpty(b.cols.Explanation)
		return
	case flagLocation:
		b.renderNonEmpty(b.cols.Location)
		return
	case flagFlags:
		b.renderNonEmpty(b.cols.ExtraFlags)
		return
	case flagLabel:
		if b.cols.LabelUnit != "" {
			expr = "EXISTS (SELECT 1 FROM unit_labels ul WHERE ul.unit_id = " + b.cols.LabelUnit + ")"
		}
	case flagPending:
		expr = b.cols.Pending
	}
	if expr == "" {
		b.sb.WriteString(matchNothing)
		return
	}
	b.sb.WriteString("(" + expr + ")")
}

func (b *builder) renderNonEmpty(col string) {
	if col == "" {
		b.sb.WriteString(matchNothing)
		return
	}
	b.sb.WriteString("COALESCE(" + col + ", '') <> ''")
}

// renderContains tests for a literal substring without LIKE, so the
// control characters of the separator need no escaping.
func (b *builder) renderContains(col, needle string) {
	if b.postgres {
		b.sb.WriteString("strpos(" + col + ", ")
	} else {
		b.sb.WriteString("instr(" + col + ", ")
	}
	b.arg(needle)
	b.sb.WriteString(") > 0")
}

// Numbered rewrites the `?` placeholders of where as $1, $2, … for
// PostgreSQL drivers used through database/sql directly. It relies on where
// coming from SQL: its only string literals are ” and '\', so every `?`
// is a placeholder (column expressions must not contain `?` either).
func Numbered(where string) string {
	var sb strings.Builder
	n := 0
	for _, r := range where {
		if r == '?' {
			n++
			sb.WriteString("$")
			sb.WriteString(strconv.Itoa(n))
			continue
		}
		sb.WriteRune(r)
	}
	return sb.String()
}
