package exporters

import (
	"strconv"
	"strings"
)

// xunit is a unit of the XLIFF stores being built: a trans-unit, or a
// PO-XLIFF plural group.
type xunit interface {
	element() *xnode
	addLocation(loc string)
	setID(id string)
	addNote(text, origin string)
	markFuzzy()
}

// XLIFF state numbers of translate-toolkit's workflow (xliffunit.statemap).
const (
	stUntranslated     = 0
	stNeedsTranslation = 30
	stNeedsReview      = 80
	stTranslated       = 100
	stSignedOff        = 120
)

var xliffStates = map[string]int{"new": 1, "needs-translation": 30, "needs-adaptation": 31, "needs-l10n": 32,
	"needs-review-translation": 80, "needs-review-adaptation": 81, "needs-review-l10n": 82,
	"translated": 100, "signed-off": 120, "final": 121}

// stateNames are the attribute values of the states the exporter sets.
var stateNames = map[int]string{stNeedsTranslation: "needs-translation", stTranslated: "translated"}

// targetNode is the toolkit's target language node: the first <target>
// child, provided there is also a <source> child.
func targetNode(el *xnode) *xnode {
	if el.child("source") == nil {
		return nil
	}
	return el.child("target")
}

func isApproved(el *xnode) bool { v, _ := el.get("approved"); return v == "yes" }

// markApproved sets approved="yes", or "no" on an approved unit.
func markApproved(el *xnode, value bool) {
	switch {
	case value:
		el.set("approved", "yes")
	case isApproved(el):
		el.set("approved", "no")
	}
}

// stateN is xliffunit.get_state_n; hasTarget is the truth of its target.
func stateN(el *xnode, hasTarget bool) int {
	t := targetNode(el)
	if t == nil {
		if isApproved(el) {
			return stTranslated
		}
		return stUntranslated
	}
	v, _ := t.get("state")
	n := xliffStates[v]
	if n < stNeedsTranslation && hasTarget {
		n = stNeedsTranslation
	}
	if isApproved(el) && n < stTranslated {
		n = stTranslated
	}
	if !isApproved(el) && n > stTranslated {
		n = stTranslated
	}
	return n
}

// stateID is the start of the state range holding n.
func stateID(n int) int {
	id := stUntranslated
	for _, s := range []int{stNeedsTranslation, stNeedsReview, stTranslated, stSignedOff} {
		if n >= s {
			id = s
		}
	}
	return id
}

// setStateN is xliffunit.set_state_n for the states the exporter sets.
func setStateN(el *xnode, n int) {
	if t := targetNode(el); n == stUntranslated {
		if t != nil {
			t.del("state")
		}
	} else if t != nil {
		t.set("state", stateNames[n])
	}
	markApproved(el, n > stNeedsReview)
}

// markFuzzyNode is xliffunit.markfuzzy(True).
func markFuzzyNode(el *xnode, hasTarget bool) {
	id := stateID(stateN(el, hasTarget))
	markApproved(el, false)
	if id != stNeedsTranslation {
		setStateN(el, stNeedsTranslation)
	}
}

// transUnit is translate-toolkit's xliffunit.
type transUnit struct {
	el *xnode
	// stripNotes: xliffunit.addnote strips notes and skips blank ones;
	// PoXliffUnit's own addnote writes them as given.
	stripNotes bool
}

// newTransUnit is xliffunit(source): a trans-unit with xml:space
// preserve and its source.
func newTransUnit(source string) *transUnit {
	el := newNode("trans-unit")
	el.appendChild(textNode("source", source))
	el.set("xml:space", "preserve")
	return &transUnit{el: el, stripNotes: true}
}

func (t *transUnit) element() *xnode { return t.el }

func (t *transUnit) hasTarget() bool {
	tn := targetNode(t.el)
	return tn != nil && tn.content() != ""
}

// setTarget is xliffunit.settarget on a unit without target: a target
// after the source holding the first form, marked translated when the
// value is true (a multistring is when any of its forms is not empty).
func (t *transUnit) setTarget(target string, truth bool) {
	t.el.insert(1, textNode("target", target))
	if truth {
		t.el.set("xml:space", "preserve")
		if stateID(stateN(t.el, true)) < stTranslated {
			setStateN(t.el, stTranslated)
		}
	}
}

// addLocation is xliffunit.addlocation: a context group of purpose
// location with the file and, after the last colon, the line.
func (t *transUnit) addLocation(loc string) { addLocation(t.el, loc, false) }

func addLocation(el *xnode, loc string, first bool) {
	g := newNode("context-group")
	g.set("name", "")
	g.set("purpose", "location")
	contexts := [][2]string{{"sourcefile", loc}}
	if i := strings.LastIndexByte(loc, ':'); i >= 0 {
		contexts = [][2]string{{"sourcefile", loc[:i]}, {"linenumber", loc[i+1:]}}
	}
	for _, c := range contexts {
		n := textNode("context", c[1])
		n.set("context-type", c[0])
		g.appendChild(n)
	}
	if first { // a group gets its context groups first
		el.insert(0, g)
	} else {
		el.appendChild(g)
	}
}

func (t *transUnit) setID(id string) { t.el.set("id", id) }

func (t *transUnit) addNote(text, origin string) {
	if t.stripNotes {
		if text = strings.TrimSpace(text); text == "" {
			return
		}
	}
	n := textNode("note", text)
	n.set("from", origin)
	t.el.appendChild(n)
}

func (t *transUnit) markFuzzy() { markFuzzyNode(t.el, t.hasTarget()) }

// newSingleUnit is the exporter's build_unit on an xliffunit (or a
// PoXliffUnit of one form): the first source and target forms, filtered,
// then their markup converted when every form parses.
func newSingleUnit(u Unit, targets []string, poxliff bool) *transUnit {
	t := newTransUnit(xmlFilter(u.source()[0]))
	t.stripNotes = !poxliff
	filtered := filterAll(targets)
	t.setTarget(filtered[0], anyText(filtered))
	src, okS := richForms(u.source())
	tgt, okT := richForms(targets)
	if okS && okT {
		setRich(t.el.child("source"), src[0])
		setRich(targetNode(t.el), tgt[0])
	}
	return t
}

// pluralUnit is translate-toolkit's PoXliffUnit of a plural: a group of
// restype x-gettext-plurals holding one trans-unit per form.
type pluralUnit struct {
	el    *xnode
	units []*transUnit
}

// newPluralUnit is the exporter's build_unit on a PoXliffUnit. The
// toolkit's quirks are the reference's output and are kept: with more
// target than source forms the last source form is repeated and the group
// gets an empty id first; when every form's markup parses, the converted
// first source form is appended to the group as a <source> and the first
// target form inserted as its second child, and the group gets xml:space.
func newPluralUnit(m Meta, u Unit) *pluralUnit {
	p := &pluralUnit{el: newNode("group")}
	p.el.set("restype", "x-gettext-plurals")
	sources := filterAll(u.Source)
	p.setSources(sources)
	p.setTarget(filterAll(u.targets(m.PluralNumber)), sources)
	src, okS := richForms(u.Source)
	tgt, okT := richForms(u.targets(m.PluralNumber))
	if okS && okT {
		s := newNode("source")
		p.el.appendChild(s)
		setRich(s, src[0])
		p.el.set("xml:space", "preserve")
		t := newNode("target")
		p.el.insert(1, t)
		setRich(t, tgt[0])
	}
	return p
}

// setSources replaces the group's trans-units by one per form.
func (p *pluralUnit) setSources(sources []string) {
	kept := p.el.children[:0]
	for _, c := range p.el.children {
		if c.tag != "trans-unit" {
			kept = append(kept, c)
		}
	}
	p.el.children, p.units = kept, nil
	for _, s := range sources {
		t := newTransUnit(s)
		p.units = append(p.units, t)
		p.el.appendChild(t.el)
	}
}

// setTarget is PoXliffUnit.settarget: nothing when the forms equal the
// (empty) current ones; forms missing in the target are empty ones.
func (p *pluralUnit) setTarget(targets, sources []string) {
	// One form is a string, compared with the first current form; more
	// are compared form by form.
	if len(targets) == 1 && targets[0] == "" ||
		len(targets) == len(sources) && strings.Join(targets, "") == "" {
		return
	}
	if len(targets) > len(sources) {
		for len(sources) < len(targets) {
			sources = append(sources, sources[len(sources)-1])
		}
		p.setSources(sources)
		p.setID("") // getid() of a unit not yet in a file
	}
	for i, t := range p.units {
		target := ""
		if i < len(targets) {
			target = targets[i]
		}
		truth := target != ""
		if i == 0 { // the first of multistring.strings is the multistring
			truth = anyText(targets)
		}
		t.setTarget(target, truth)
	}
}

func (p *pluralUnit) element() *xnode { return p.el }

func (p *pluralUnit) addLocation(loc string) { addLocation(p.el, loc, true) }

// setID names the group and its trans-units "<id>[<n>]".
func (p *pluralUnit) setID(id string) {
	p.el.set("id", id)
	for i, t := range p.units {
		t.setID(id + "[" + strconv.Itoa(i) + "]")
	}
}

// addNote writes the note on the group as given, and on every trans-unit
// but the first as xliffunit does.
func (p *pluralUnit) addNote(text, origin string) {
	n := textNode("note", text)
	n.set("from", origin)
	p.el.appendChild(n)
	for _, t := range p.units[1:] {
		t.addNote(text, origin)
	}
}

// markFuzzy marks the group (its target, a multistring of the forms, is
// true when any form is filled) and every trans-unit but the first.
func (p *pluralUnit) markFuzzy() {
	filled := false
	for _, t := range p.units {
		filled = filled || t.hasTarget()
	}
	markFuzzyNode(p.el, filled)
	for _, t := range p.units[1:] {
		t.markFuzzy()
	}
}

// anyText is the truth of a multistring: any form not empty.
func anyText(forms []string) bool {
	for _, f := range forms {
		if f != "" {
			return true
		}
	}
	return false
}
