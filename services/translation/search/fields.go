package search

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/tmsproject/tms/pkg/weblate"
)

var stateNames = map[string]int{
	"empty":         weblate.StateEmpty,
	"untranslated":  weblate.StateEmpty,
	"needs-editing": weblate.StateFuzzy,
	"fuzzy":         weblate.StateFuzzy,
	"translated":    weblate.StateTranslated,
	"approved":      weblate.StateApproved,
	"readonly":      weblate.StateReadOnly,
	"read-only":     weblate.StateReadOnly,
}

var textFields = map[string]textField{
	"source":   fieldSource,
	"target":   fieldTarget,
	"context":  fieldContext,
	"key":      fieldContext,
	"note":     fieldNote,
	"location": fieldLocation,
	// the source string's explanation (Weblate's source_unit__explanation)
	"explanation": fieldExplanation,
}

// isLookups maps is:VALUE to a state condition (Weblate's is_field).
var isLookups = map[string]stateNode{
	"read-only":     {"=", weblate.StateReadOnly},
	"readonly":      {"=", weblate.StateReadOnly},
	"approved":      {"=", weblate.StateApproved},
	"fuzzy":         {"=", weblate.StateFuzzy},
	"needs-editing": {"=", weblate.StateFuzzy},
	"translated":    {">=", weblate.StateTranslated},
	"untranslated":  {"<", weblate.StateTranslated},
}

var hasLookups = map[string]flag{
	"suggestion": flagSuggestion,
	"comment":    flagComment,
	"plural":     flagPlural,
	"context":    flagContext,
	"note":       flagNote,
	// Weblate's has:check and its aliases; dismissed checks do not fail
	"check":           flagCheck,
	"failing-check":   flagCheck,
	"failing_check":   flagCheck,
	"dismissed-check": flagDismissedCheck,
	"dismissed_check": flagDismissedCheck,
	// Weblate's older names of dismissed checks
	"ignored-check": flagDismissedCheck,
	"ignored_check": flagDismissedCheck,
	"location":      flagLocation,
	"label":         flagLabel,
	// extra flags on the string's source string
	"flags":       flagFlags,
	"explanation": flagExplanation,
	// resolved comments (Weblate's comment__resolved=True)
	"resolved-comment": flagResolvedComment,
	"resolved_comment": flagResolvedComment,
	// comments on the source string (Weblate's source_unit__comment)
	"source-comment":          flagSourceComment,
	"source_comment":          flagSourceComment,
	"resolved-source-comment": flagResolvedSourceComment,
	"resolved_source_comment": flagResolvedSourceComment,
}

// relatedFields are the fields matching a unit's suggestions and comments:
// table, column and which comments count.
var relatedFields = map[string]relatedNode{
	"suggestion":        {table: "suggestions", column: "target", resolved: "-"},
	"suggestion_author": {table: "suggestions", column: "user_name", resolved: "-"},
	"comment":           {table: "comments", column: "comment", resolved: "NOT"},
	"resolved_comment":  {table: "comments", column: "comment", resolved: ""},
	"comment_author":    {table: "comments", column: "user_name", resolved: "-"},
	// the comments of the unit's source string
	"source_comment":          {table: "comments", column: "comment", resolved: "NOT", onSource: true},
	"resolved_source_comment": {table: "comments", column: "comment", resolved: "", onSource: true},
	"source_comment_author":   {table: "comments", column: "user_name", resolved: "-", onSource: true},
}

// weblateOnly lists what Weblate's search knows but this service does not
// store, so the error can say "not supported" instead of "unknown".
var weblateOnly = map[string]bool{
	"path": true, "screenshot": true,
	// is:/has: values
	"variant": true, "shaping": true, "glossary": true, "automatically-translated": true, "automatically_translated": true,
}

// buildTerm turns a lexed term into a node, validating field and value.
func buildTerm(t *rawTerm) (node, *ParseError) {
	if t.field == "" {
		return textTerm(t, defaultFields)
	}
	name := strings.ToLower(t.field)
	if f, ok := textFields[name]; ok {
		return textTerm(t, []textField{f})
	}
	if r, ok := relatedFields[name]; ok {
		return relatedTerm(t, r)
	}
	switch name {
	case "state":
		return stateTerm(t)
	case "is", "has":
		return predicateTerm(t, name)
	case "label":
		return labelTerm(t)
	case "check", "dismissed_check":
		return checkTerm(t, name == "dismissed_check")
	case "project", "component", "language":
		return scopeTerm(t, name)
	case "id", "position", "priority":
		return numTerm(t, name)
	case "added", "last_changed", "source_changed":
		return dateTerm(t, name)
	case "changed", "changed_by", "change_time", "change_action":
		return changeTerm(t, name)
	}
	if weblateOnly[name] {
		return nil, &ParseError{Pos: t.fieldPos, Msg: "search field " + quote(name) + " is not supported"}
	}
	return nil, &ParseError{Pos: t.fieldPos, Msg: "unknown search field " + quote(t.field)}
}

func textTerm(t *rawTerm, fields []textField) (node, *ParseError) {
	n := &textNode{fields: fields, mode: modeSubstring, value: t.value}
	switch {
	case t.regex:
		if t.op != "" && t.op != ":" && t.op != ":=" {
			return nil, &ParseError{Pos: t.fieldPos, Msg: "operator " + quote(t.op) + " cannot be used with a regular expression"}
		}
		if _, err := regexp.Compile(t.value); err != nil {
			return nil, &ParseError{Pos: t.valuePos, Msg: "invalid regular expression: " + err.Error()}
		}
		n.mode = modeRegex
	case t.op == ":=":
		n.mode = modeExact
	case len(t.op) > 1:
		// Weblate avoids </> lookups on text: the operator is part of the text.
		n.value = t.op[1:] + t.value
	}
	return n, nil
}

// relatedTerm is a suggestion or comment field: its text matched as a
// text term is, an author by name.
func relatedTerm(t *rawTerm, r relatedNode) (node, *ParseError) {
	if r.column == "user_name" {
		if t.regex || (t.op != ":" && t.op != ":=") {
			return nil, &ParseError{Pos: t.valuePos, Msg: quote(t.field) + " takes a user name"}
		}
		r.mode, r.value = modeExact, t.value
		return &r, nil
	}
	n, err := textTerm(t, nil)
	if err != nil {
		return nil, err
	}
	text := n.(*textNode)
	r.mode, r.value = text.mode, text.value
	return &r, nil
}

// labelTerm is label:NAME, the reference's exact, case-insensitive match
// of a label's name.
func labelTerm(t *rawTerm) (node, *ParseError) {
	if t.regex || (t.op != ":" && t.op != ":=") {
		return nil, &ParseError{Pos: t.valuePos, Msg: quote("label") + " takes a label name"}
	}
	if strings.TrimSpace(t.value) == "" {
		return nil, &ParseError{Pos: t.valuePos, Msg: "missing value after " + quote(t.field+t.op)}
	}
	return &labelNode{name: t.value}, nil
}

// checkTerm is check:ID (Weblate: the id contains ID, any case; := the
// id itself) or dismissed_check:ID.
func checkTerm(t *rawTerm, dismissed bool) (node, *ParseError) {
	if t.regex || (t.op != ":" && t.op != ":=") {
		return nil, &ParseError{Pos: t.valuePos, Msg: quote(t.field) + " takes a check id"}
	}
	if strings.TrimSpace(t.value) == "" {
		return nil, &ParseError{Pos: t.valuePos, Msg: "missing value after " + quote(t.field+t.op)}
	}
	return &checkNode{name: strings.ToLower(t.value), exact: t.op == ":=", dismissed: dismissed}, nil
}

// scopeColumns are the translations' columns of the scope fields.
var scopeColumns = map[string]string{"project": "project_slug", "component": "component_slug", "language": "language_code"}

// scopeTerm is project:SLUG, language:CODE (Weblate: any case; := the
// exact text) or component:SLUG (Weblate: a slug or name containing
// SLUG, any case; := equal to it). The service keeps component slugs,
// not names.
func scopeTerm(t *rawTerm, name string) (node, *ParseError) {
	if t.op != ":" && t.op != ":=" {
		return nil, &ParseError{Pos: t.fieldPos, Msg: "operator " + quote(t.op) + " cannot be used with " + quote(name+":")}
	}
	if strings.TrimSpace(t.value) == "" {
		return nil, &ParseError{Pos: t.valuePos, Msg: "missing value after " + quote(t.field+t.op)}
	}
	n := &scopeNode{column: scopeColumns[name], value: t.value, mode: modeExact}
	switch {
	case t.regex:
		if _, err := regexp.Compile(t.value); err != nil {
			return nil, &ParseError{Pos: t.valuePos, Msg: "invalid regular expression: " + err.Error()}
		}
		n.mode = modeRegex
	case name == "component" && t.op == ":":
		n.mode = modeSubstring
	case name != "component" && t.op == ":=":
		n.cased = true
	}
	return n, nil
}

// numTerm is id:N (also id:N,M,… a set), position:N or priority:N,
// with Weblate's comparisons (:< :<= :> :>=; : and := are equality).
func numTerm(t *rawTerm, name string) (node, *ParseError) {
	if t.regex {
		return nil, &ParseError{Pos: t.valuePos, Msg: "regular expressions cannot be used with " + quote(name)}
	}
	op := strings.TrimPrefix(t.op, ":")
	if op == "" {
		op = "="
	}
	if t.isRange {
		return numRange(t, name, op)
	}
	parts := []string{t.value}
	if name == "id" && op == "=" {
		parts = strings.Split(t.value, ",")
	}
	n := &numNode{field: name, op: op}
	for _, p := range parts {
		v, err := strconv.ParseInt(strings.TrimSpace(p), 10, 64)
		if err != nil {
			return nil, &ParseError{Pos: t.valuePos, Msg: "could not parse numeric value: " + quote(t.value)}
		}
		n.values = append(n.values, v)
	}
	return n, nil
}

// numRange is a number field with a range "[from to to]": within it
// with ":" and ":=", from its start with ":>" and ":>=", up to its end
// with ":<" and ":<=" (Weblate's tuple lookups).
func numRange(t *rawTerm, name, op string) (node, *ParseError) {
	from, err1 := strconv.ParseInt(t.from, 10, 64)
	to, err2 := strconv.ParseInt(t.to, 10, 64)
	if err1 != nil || err2 != nil {
		return nil, &ParseError{Pos: t.valuePos, Msg: "could not parse numeric value: " + quote(t.value)}
	}
	switch op {
	case ">", ">=":
		return &numNode{field: name, op: ">=", values: []int64{from}}, nil
	case "<", "<=":
		return &numNode{field: name, op: "<=", values: []int64{to}}, nil
	}
	return &andNode{xs: []node{&numNode{field: name, op: ">=", values: []int64{from}}, &numNode{field: name, op: "<=", values: []int64{to}}}}, nil
}

func stateTerm(t *rawTerm) (node, *ParseError) {
	if t.regex {
		return nil, &ParseError{Pos: t.valuePos, Msg: "regular expressions cannot be used with " + quote("state")}
	}
	op := strings.TrimPrefix(t.op, ":")
	if op == "" {
		op = "="
	}
	v := strings.ToLower(strings.TrimSpace(t.value))
	if v == "" {
		return nil, &ParseError{Pos: t.valuePos, Msg: "missing value after " + quote(t.field+t.op)}
	}
	if isDigits(v) {
		n, err := strconv.Atoi(v)
		if err != nil || n > 1000 {
			return nil, &ParseError{Pos: t.valuePos, Msg: "state number out of range: " + quote(t.value)}
		}
		return &stateNode{op: op, value: n}, nil
	}
	n, ok := stateNames[v]
	if !ok {
		return nil, &ParseError{Pos: t.valuePos, Msg: "unknown state " + quote(t.value) +
			" (use empty, needs-editing, translated, approved, read-only or a number)"}
	}
	return &stateNode{op: op, value: n}, nil
}

func predicateTerm(t *rawTerm, name string) (node, *ParseError) {
	if t.op != ":" && t.op != ":=" {
		return nil, &ParseError{Pos: t.fieldPos, Msg: "operator " + quote(t.op) + " cannot be used with " + quote(name+":")}
	}
	v := strings.ToLower(strings.TrimSpace(t.value))
	if t.regex || v == "" {
		return nil, &ParseError{Pos: t.valuePos, Msg: "missing value after " + quote(t.field+t.op)}
	}
	if name == "is" {
		if s, ok := isLookups[v]; ok {
			return &s, nil
		}
		if v == "pending" { // an edit not yet committed
			return &hasNode{flag: flagPending}, nil
		}
		if weblateOnly[v] {
			return nil, &ParseError{Pos: t.valuePos, Msg: "is:" + v + " is not supported"}
		}
		return nil, &ParseError{Pos: t.valuePos, Msg: "unknown is: lookup " + quote(t.value) +
			" (use translated, untranslated, fuzzy, needs-editing, approved, read-only or pending)"}
	}
	if v == "translation" { // Weblate: has:translation is state >= translated
		return &stateNode{op: ">=", value: weblate.StateTranslated}, nil
	}
	if f, ok := hasLookups[v]; ok {
		return &hasNode{flag: f}, nil
	}
	if weblateOnly[v] {
		return nil, &ParseError{Pos: t.valuePos, Msg: "has:" + v + " is not supported"}
	}
	return nil, &ParseError{Pos: t.valuePos, Msg: "unknown has: lookup " + quote(t.value) +
		" (use suggestion, comment, plural, context, note, location, label, flags, explanation, translation, check or dismissed-check)"}
}

func isDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
