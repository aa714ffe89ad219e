package checks

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// icuMessageFormat is Weblate's ICU MessageFormat check (icu.py): the
// target must parse, and use the source's placeholders with the same
// types, sub-message selectors and XML tags (with icu-flags:xml or
// strict-xml). icu-flags:-extra, -missing, -types, … switch parts off.
var icuMessageFormat = check{id: "icu_message_format", name: "ICU MessageFormat",
	description: "Syntax errors and/or placeholder mismatches in ICU MessageFormat strings.",
	enable:      "icu-message-format", run: func(u *Unit) string {
		opts := icuOptions(u)
		res := icuResult{}
		formatPairs(u, func(s string) bool { return strings.ContainsAny(s, "{<#") },
			func(s, t string, ignoreMissing bool) { icuCompare(s, t, ignoreMissing, opts, res) })
		return res.describe()
	}}

// icuOpts are the parser and comparison options of a unit's flags.
type icuOpts struct {
	tags, strict bool
	prefix       string
	off          map[string]bool // "-extra", "-missing", …
}

func icuOptions(u *Unit) icuOpts {
	o := icuOpts{off: map[string]bool{}}
	f, _ := u.Flags.Get("icu-flags")
	for _, v := range f.Values {
		switch v.Text {
		case "xml":
			o.tags = true
		case "strict-xml":
			o.tags, o.strict = true, true
		default:
			o.off[v.Text] = true
		}
	}
	if p, ok := u.Flags.Get("icu-tag-prefix"); ok && len(p.Values) == 1 && !o.strict {
		o.prefix = p.Values[0].Text
	}
	return o
}

// icuResult gathers what each comparison found, by kind, in Weblate's
// order of messages.
type icuResult map[string][]string

var icuLabels = []struct{ key, label string }{
	{"syntax", "Syntax error:"},
	{"extra", "One or more unknown placeholders in the translation:"},
	{"missing", "One or more placeholders missing in the translation:"},
	{"wrong_type", "One or more placeholder types are incorrect:"},
	{"no_other", "Missing other sub-message for:"},
	{"bad_plural", "Incorrect plural selectors for:"},
	{"bad_submessage", "Incorrect sub-message selectors for:"},
	{"should_be_tag", "One or more placeholders should have a corresponding XML tag in the translation:"},
	{"not_tag", "One or more placeholders should not be an XML tag in the translation:"},
	{"tag_not_empty", "One or more XML tags has unexpected content in the translation:"},
	{"tag_empty", "One or more XML tags missing content in the translation:"},
}

func (r icuResult) describe() string {
	var parts []string
	for _, l := range icuLabels {
		if items := r[l.key]; len(items) > 0 {
			parts = append(parts, l.label+" "+strings.Join(items, ", "))
		}
	}
	return strings.Join(parts, " ")
}

// icuCompare is Weblate's ICUMessageFormatCheck.check_format of one pair.
func icuCompare(source, target string, ignoreMissing bool, o icuOpts, r icuResult) {
	if source == "" || target == "" {
		return
	}
	src, serr := parseICU(source, o)
	tgt, terr := parseICU(target, o)
	if terr != nil {
		r["syntax"] = append(r["syntax"], terr.Error())
		return
	}
	if serr != nil {
		return // a broken source is the source's fault
	}
	sv, tv := icuVars(src), icuVars(tgt)
	for _, name := range tv.order {
		d := tv.byName[name]
		if !o.off["-require_other"] && len(d.choices) > 0 && !slices.Contains(d.choices, "other") {
			r["no_other"] = append(r["no_other"], name)
		}
		s, ok := sv.byName[name]
		if !ok {
			if !o.off["-extra"] {
				r["extra"] = append(r["extra"], name)
			}
			continue
		}
		icuCompareVar(name, s, d, o, r)
	}
	if ignoreMissing || o.off["-missing"] {
		return
	}
	for _, name := range sv.order {
		if _, ok := tv.byName[name]; !ok {
			r["missing"] = append(r["missing"], name)
		}
	}
}

// icuCompareVar compares a placeholder of the target (d) with the
// source's (s).
func icuCompareVar(name string, s, d *icuVar, o icuOpts, r icuResult) {
	if !o.off["-plural_selectors"] && len(d.badPlural) > 0 {
		r["bad_plural"] = append(r["bad_plural"], name+" ("+strings.Join(sorted(d.badPlural), ", ")+")")
	}
	if !o.off["-submessage_selectors"] && slices.Contains(d.types, "select") && slices.Contains(s.types, "select") &&
		len(d.choices) > 0 && len(s.choices) > 0 {
		var bad []string
		for _, c := range d.choices {
			if !slices.Contains(s.choices, c) {
				bad = append(bad, c)
			}
		}
		if len(bad) > 0 {
			r["bad_submessage"] = append(r["bad_submessage"], name+" ("+strings.Join(sorted(bad), ", ")+")")
		}
	}
	if !o.off["-types"] {
		wrong := s.number == triTrue && d.number != triTrue
		if s.number != triTrue {
			wrong = slices.ContainsFunc(d.types, func(t string) bool { return !slices.Contains(s.types, t) })
		}
		if wrong {
			r["wrong_type"] = append(r["wrong_type"], name)
		}
	}
	if o.tags && !o.off["-tags"] && (s.tag == triTrue || s.tag == triFalse || d.tag != triUnset) {
		switch {
		case s.tag == triTrue && d.tag != triTrue:
			r["should_be_tag"] = append(r["should_be_tag"], name)
		case s.tag == triTrue && (s.empty == triTrue || s.empty == triFalse) && pyNe(s.empty, d.empty):
			if s.empty == triTrue {
				r["tag_not_empty"] = append(r["tag_not_empty"], name)
			} else {
				r["tag_empty"] = append(r["tag_empty"], name)
			}
		case s.tag != triTrue && d.tag == triTrue:
			r["not_tag"] = append(r["not_tag"], name)
		}
	}
}

func sorted(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}

// tri is Weblate's tri-state: unset, true, false, or in conflict.
type tri int

const (
	triUnset tri = iota
	triTrue
	triFalse
	triConflict
)

func triOf(b bool) tri {
	if b {
		return triTrue
	}
	return triFalse
}

// update is Weblate's tri-state update (a conflict then false is false,
// a quirk of Python's 0 == False).
func (old tri) update(v tri) tri {
	switch {
	case old == triUnset || old == v:
		return v
	case old == triConflict && v == triFalse:
		return triFalse
	}
	return triConflict
}

// pyNe is Python's != with a conflict read as 0 (which equals False).
func pyNe(a, b tri) bool {
	norm := func(t tri) tri {
		if t == triConflict {
			return triFalse
		}
		return t
	}
	return norm(a) != norm(b)
}

// icuVar is what a message does with one variable.
type icuVar struct {
	types, choices, badPlural []string
	number, tag, empty        tri
}

type icuVarSet struct {
	order  []string
	byName map[string]*icuVar
}

// icuVars is Weblate's extract_placeholders.
func icuVars(nodes []icuNode) icuVarSet {
	vs := icuVarSet{byName: map[string]*icuVar{}}
	var walk func([]icuNode)
	walk = func(nodes []icuNode) {
		for _, n := range nodes {
			if n.text {
				continue
			}
			v := vs.byName[n.name]
			if v == nil {
				v = &icuVar{}
				vs.byName[n.name] = v
				vs.order = append(vs.order, n.name)
			}
			switch {
			case n.isTag:
				v.tag = v.tag.update(triTrue)
				v.empty = v.empty.update(triOf(len(n.contents) == 0))
			case n.typ != "":
				v.tag = v.tag.update(triFalse)
				v.types = appendNew(v.types, n.typ)
				v.number = v.number.update(triOf(n.typ == "number" || n.typ == "plural" || n.typ == "selectordinal"))
			case n.name == "count" || n.name == "number":
				v.types = appendNew(v.types, "number")
				v.number = v.number.update(triTrue)
			}
			for _, o := range n.opts {
				v.choices = appendNew(v.choices, o.sel)
				plural := n.typ == "plural" || n.typ == "selectordinal"
				if plural && !slices.Contains([]string{"zero", "one", "two", "few", "many", "other"}, o.sel) && !strings.HasPrefix(o.sel, "=") {
					v.badPlural = appendNew(v.badPlural, o.sel)
				}
			}
			for _, o := range n.opts {
				walk(o.sub)
			}
			walk(n.contents)
		}
	}
	walk(nodes)
	return vs
}

func appendNew(xs []string, x string) []string {
	if slices.Contains(xs, x) {
		return xs
	}
	return append(xs, x)
}

// icuNode is a node of a parsed message: text, a placeholder (a name,
// a type and options), the # of a plural, or an XML tag.
type icuNode struct {
	text        bool
	name, typ   string
	isTag, hash bool
	opts        []icuOption
	contents    []icuNode
}

type icuOption struct {
	sel string
	sub []icuNode
}

// icuError is a syntax error of a message, worded as Weblate's parser
// (pyicumessageformat) words it.
type icuError struct{ msg string }

func (e icuError) Error() string { return e.msg }

// icuParser parses ICU MessageFormat as pyicumessageformat does with
// Weblate's options; positions are in code points.
type icuParser struct {
	s            []rune
	i, depth     int
	tags, strict bool
	prefix       string
}

func parseICU(text string, o icuOpts) (nodes []icuNode, err error) {
	p := &icuParser{s: []rune(text), tags: o.tags, strict: o.strict, prefix: o.prefix}
	defer func() {
		if r := recover(); r != nil {
			e, ok := r.(icuError)
			if !ok {
				panic(r)
			}
			err = e
		}
	}()
	return p.ast(nil), nil
}

func (p *icuParser) at(i int) rune {
	if i < 0 || i >= len(p.s) {
		return 0
	}
	return p.s[i]
}

func (p *icuParser) found(i int) string {
	if i >= len(p.s) {
		return "<EOF>"
	}
	return string(p.s[i])
}

func (p *icuParser) expected(what string) {
	panic(icuError{fmt.Sprintf("Expected %s at position %d but found \"%s\"", what, p.i, p.found(p.i))})
}

func (p *icuParser) ast(parent *icuNode) []icuNode {
	var out []icuNode
	if p.text(parent, false) != "" {
		out = append(out, icuNode{text: true})
	}
	for p.i < len(p.s) {
		if p.s[p.i] == '}' {
			if parent == nil {
				panic(icuError{fmt.Sprintf("Unexpected \"}\" at position %d", p.i)})
			}
			break
		}
		if parent != nil && p.tags && p.at(p.i) == '<' && p.at(p.i+1) == '/' && p.canReadTag(true) {
			break
		}
		out = append(out, p.placeholder(parent))
		if p.text(parent, false) != "" {
			out = append(out, icuNode{text: true})
		}
	}
	return out
}

func hashSpecial(parent *icuNode) bool {
	return parent != nil && !parent.isTag && (parent.typ == "plural" || parent.typ == "selectordinal")
}

func icuSpace(r rune) bool {
	return (r >= 0x09 && r <= 0x0D) || r == ' ' || r == 0x85 || r == 0xA0 || r == 0x180E || (r >= 0x2000 && r <= 0x200D) ||
		r == 0x2028 || r == 0x2029 || r == 0x202F || r == 0x205F || r == 0x2060 || r == 0x3000 || r == 0xFEFF
}

func asciiAlpha(r rune) bool { return (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') }

func (p *icuParser) canReadTag(requireClosing bool) bool {
	if !p.tags || p.at(p.i) != '<' {
		return false
	}
	if p.strict && !requireClosing {
		return true
	}
	j := p.i + 1
	if p.at(j) == '/' {
		if p.strict {
			return true
		}
		j++
	} else if requireClosing {
		return false
	}
	if p.prefix != "" {
		return strings.HasPrefix(string(p.s[min(j, len(p.s)):]), p.prefix)
	}
	return asciiAlpha(p.at(j))
}

// text reads literal text (with ICU's apostrophe quoting) and returns it.
func (p *icuParser) text(parent *icuNode, argStyle bool) string {
	start, trailing := p.i, 0
	var sb strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '{' || c == '}' || (hashSpecial(parent) && c == '#') || (p.tags && c == '<' && p.canReadTag(false)) {
			break
		}
		if icuSpace(c) {
			trailing++
		} else {
			trailing = 0
		}
		if c != '\'' {
			sb.WriteRune(c)
			p.i++
			continue
		}
		p.i++
		if p.i >= len(p.s) {
			sb.WriteRune('\'')
			continue
		}
		c = p.s[p.i]
		switch {
		case c == '\'':
			sb.WriteRune('\'')
			p.i++
		case c == '{' || c == '}' || (hashSpecial(parent) && c == '#') || (p.tags && c == '<') || argStyle:
			sb.WriteRune(c)
			p.i++
			for ; p.i < len(p.s); p.i++ {
				if p.s[p.i] != '\'' {
					sb.WriteRune(p.s[p.i])
					continue
				}
				if p.at(p.i+1) != '\'' {
					p.i++
					break
				}
				sb.WriteRune('\'')
				p.i++
			}
		default:
			sb.WriteRune('\'')
			sb.WriteRune(c)
			p.i++
		}
	}
	text := sb.String()
	if argStyle && trailing > 0 {
		r := []rune(text)
		if len(r)-trailing <= 0 {
			p.i = start
			return ""
		}
		p.i -= trailing
		return string(r[:len(r)-trailing])
	}
	return text
}

func (p *icuParser) skipSpace() {
	for p.i < len(p.s) && icuSpace(p.s[p.i]) {
		p.i++
	}
}

// name reads a name (a selector, type or tag name: tag also stops at
// < / >).
func (p *icuParser) name(tag bool) string {
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if strings.ContainsRune("{},#'", c) || icuSpace(c) || (tag && strings.ContainsRune("</>", c)) {
			break
		}
		p.i++
	}
	return string(p.s[start:p.i])
}

var submessageTypes = []string{"plural", "selectordinal", "select"}

func (p *icuParser) placeholder(parent *icuNode) icuNode {
	if hashSpecial(parent) && p.at(p.i) == '#' {
		p.i++
		return icuNode{name: parent.name, typ: "number", hash: true}
	}
	if t, ok := p.tag(parent); ok {
		return t
	}
	if p.at(p.i) != '{' {
		p.expected("{")
	}
	p.i++
	p.skipSpace()
	n := icuNode{name: p.name(false)}
	if n.name == "" {
		p.expected("placeholder name")
	}
	if p.closes() {
		return n
	}
	if n.typ = p.name(false); n.typ == "" {
		p.expected("placeholder type")
	}
	if p.at(p.skipped()) == '}' && slices.Contains(submessageTypes, n.typ) {
		p.skipSpace()
		p.expected(n.typ + " sub-messages")
	}
	if p.closes() {
		return n
	}
	p.options(&n)
	p.skipSpace()
	if p.at(p.i) != '}' {
		p.expected("}")
	}
	p.i++
	return n
}

// skipped is where the parser stands past spaces, without moving it.
func (p *icuParser) skipped() int {
	i := p.i
	for i < len(p.s) && icuSpace(p.s[i]) {
		i++
	}
	return i
}

// closes reads past spaces either the '}' that closes a placeholder
// (true) or the ',' before its next part, and the spaces after it.
func (p *icuParser) closes() bool {
	p.skipSpace()
	if p.at(p.i) == '}' {
		p.i++
		return true
	}
	if p.at(p.i) != ',' {
		p.expected(", or }")
	}
	p.i++
	p.skipSpace()
	return false
}

// options reads a placeholder's offset, sub-messages or style.
func (p *icuParser) options(n *icuNode) {
	if n.typ == "plural" || n.typ == "selectordinal" {
		if p.offset() != 0 {
			p.skipSpace()
		}
	}
	if slices.Contains(submessageTypes, n.typ) {
		if n.opts = p.submessages(n); len(n.opts) == 0 {
			p.expected(n.typ + " sub-messages")
		}
		return
	}
	start := p.i
	if p.text(n, true) == "" {
		p.expected("placeholder style")
	}
	p.skipSpace()
	if p.i >= len(p.s) {
		panic(icuError{"unknown error"})
	}
	if p.s[p.i] == '{' { // a custom type with sub-messages
		p.i = start
		if n.opts = p.submessages(n); len(n.opts) == 0 {
			p.expected(n.typ + " sub-messages")
		}
	}
}

func (p *icuParser) offset() int {
	if !strings.HasPrefix(string(p.s[p.i:]), "offset:") {
		return 0
	}
	p.i += 7
	p.skipSpace()
	start := p.i
	for p.i < len(p.s) && ((p.s[p.i] >= '0' && p.s[p.i] <= '9') || (p.i == start && p.s[p.i] == '-')) {
		p.i++
	}
	if start == p.i {
		p.expected("offset number")
	}
	n, err := strconv.Atoi(string(p.s[start:p.i]))
	if err != nil {
		panic(icuError{fmt.Sprintf("Invalid offset at position %d", start)})
	}
	return n
}

func (p *icuParser) submessages(parent *icuNode) []icuOption {
	p.depth++
	var out []icuOption
	for p.i < len(p.s) && p.s[p.i] != '}' {
		sel := p.name(false)
		if sel == "" {
			p.expected("sub-message selector")
		}
		p.skipSpace()
		if p.depth >= 50 {
			panic(icuError{fmt.Sprintf("Too much recursion at position %d", p.i)})
		}
		if p.at(p.i) != '{' {
			p.expected("{")
		}
		p.i++
		sub := p.ast(parent)
		if p.at(p.i) != '}' {
			p.expected("}")
		}
		p.i++
		if k := slices.IndexFunc(out, func(o icuOption) bool { return o.sel == sel }); k >= 0 {
			out[k].sub = sub
		} else {
			out = append(out, icuOption{sel: sel, sub: sub})
		}
		p.skipSpace()
	}
	p.depth--
	return out
}

// tag reads an XML tag at the parser's position, when tags are on.
func (p *icuParser) tag(_ *icuNode) (icuNode, bool) {
	if !p.tags || !p.canReadTag(false) {
		return icuNode{}, false
	}
	start := p.i
	if p.at(p.i+1) == '/' {
		panic(icuError{fmt.Sprintf("Unexpected \"</\" at position %d", p.i)})
	}
	p.i++
	n := icuNode{isTag: true, name: p.name(true)}
	if n.name == "" {
		if !p.strict {
			p.i = start
			return icuNode{}, false
		}
		p.expected("tag name")
	}
	p.skipSpace()
	if p.at(p.i) == '/' && p.at(p.i+1) == '>' {
		p.i += 2
		return n, true
	}
	if p.at(p.i) != '>' {
		p.expected("> or />")
	}
	p.i++
	if p.depth++; p.depth > 200 {
		panic(icuError{fmt.Sprintf("Too much recursion at position %d", p.i)})
	}
	n.contents = p.ast(&n)
	p.depth--
	end := p.i
	if end < len(p.s) && !(p.at(end) == '<' && p.at(end+1) == '/') {
		p.expected("</")
	}
	p.i = min(p.i+2, len(p.s))
	if p.name(true) != n.name {
		panic(icuError{fmt.Sprintf("Expected </%s> at position %d but found \"%s\"", n.name, end, p.found(end))})
	}
	p.skipSpace()
	if p.at(p.i) != '>' {
		p.expected(">")
	}
	p.i++
	return n, true
}
