package yaml

import (
	"fmt"
	"slices"
	"strings"

	yamlv3 "gopkg.in/yaml.v3"

	"github.com/tmsproject/tms/pkg/lang"
	"github.com/tmsproject/tms/services/translation/formats/base"
)

// walker builds the units of a parsed file.
type walker struct {
	f     *File
	t     *text
	units []*base.Unit
	seen  map[string]bool
}

func (w *walker) fail(n *yamlv3.Node, format string, args ...any) error {
	return fmt.Errorf("yaml: line %d column %d: %s", n.Line, n.Column, fmt.Sprintf(format, args...))
}

func (w *walker) add(path []part, forms []string, note string, h *unit) {
	ctx := contextOf(path)
	if w.seen[ctx] {
		return
	}
	w.seen[ctx] = true
	h.path = slices.Clone(path)
	w.units = append(w.units, &base.Unit{Context: ctx, Target: forms, Note: note, Ref: h})
}

// walk finds the units below n. parent is the column of the key or dash
// holding n (-1 for the root), owner the line of that key or dash, note
// the comment above n's key.
func (w *walker) walk(n *yamlv3.Node, path []part, parent int, flow bool, depth, owner int) error {
	if depth > maxDepth {
		return w.fail(n, "nested deeper than %d levels", maxDepth)
	}
	switch n.Kind {
	case yamlv3.MappingNode:
		return w.mapping(n, path, parent, flow || n.Style&yamlv3.FlowStyle != 0, depth, owner)
	case yamlv3.SequenceNode:
		isFlow := flow || n.Style&yamlv3.FlowStyle != 0
		dash := parent
		if !isFlow {
			dash = w.t.column(w.t.offset(n.Line, n.Column))
		}
		for i, c := range n.Content {
			if err := w.walk(c, append(path, part{index: i}), dash, isFlow, depth+1, n.Line-1); err != nil {
				return err
			}
		}
	case yamlv3.ScalarNode:
		return w.scalar(n, path, parent, flow, "")
	}
	return nil // an alias is no unit
}

// scalarText is the unit text of a scalar; false for a null.
func (w *walker) scalarText(n *yamlv3.Node) (string, bool, error) {
	k := kString
	switch {
	case n.Style&yamlv3.TaggedStyle != 0:
		switch n.ShortTag() {
		case "!!null":
			k = kNull
		case "!!bool", "!!int":
			k = resolvePlain(n.Value)
		case "!!float", "!!timestamp":
			k = kFloat
		}
	case n.Style&(yamlv3.DoubleQuotedStyle|yamlv3.SingleQuotedStyle|yamlv3.LiteralStyle|yamlv3.FoldedStyle) == 0:
		k = resolvePlain(n.Value)
	}
	switch k {
	case kNull:
		return "", false, nil
	case kBool, kInt:
		return pythonText(n.Value, k), true, nil
	case kFloat, kTime:
		return "", false, w.fail(n, "%q is a number or a date, which the reference cannot read as a string: quote it", n.Value)
	}
	return n.Value, true, nil
}

func styleOf(n *yamlv3.Node) style {
	switch {
	case n.Style&yamlv3.DoubleQuotedStyle != 0:
		return double
	case n.Style&yamlv3.SingleQuotedStyle != 0:
		return single
	case n.Style&yamlv3.LiteralStyle != 0:
		return lit
	case n.Style&yamlv3.FoldedStyle != 0:
		return folded
	}
	return plain
}

// ref locates scalar n in the text.
func (w *walker) ref(n *yamlv3.Node, parent int, flow bool) *scalarRef {
	off := w.t.offset(n.Line, n.Column)
	start, anchor := w.t.skipProps(off)
	st := styleOf(n)
	end := w.t.scalarEnd(start, st, parent, flow)
	plainStr := st == plain && n.Style&yamlv3.TaggedStyle == 0 && resolvePlain(n.Value) == kString
	return &scalarRef{prop: off, start: start, end: end, anchor: anchor, st: st, parent: parent, flow: flow, plainStr: plainStr}
}

func (w *walker) scalar(n *yamlv3.Node, path []part, parent int, flow bool, note string) error {
	v, ok, err := w.scalarText(n)
	if err != nil || !ok {
		return err
	}
	sc := w.ref(n, parent, flow)
	sc.value = v
	// The bytes found for the value must read back as it: what this
	// scanner does not follow is refused here rather than edited wrong.
	old := w.t.s[sc.start:sc.end]
	if !flow && parent >= 0 && w.t.column(sc.prop) <= parent {
		return w.fail(n, "a value indented no deeper than its key is not supported")
	}
	if got, ok := readScalar(old, parent, flow, sc.end == len(w.t.s)); (!ok || got != v) && (old != "" || v != "") {
		return w.fail(n, "this layout of a value is not supported")
	}
	w.add(path, []string{v}, note, &unit{sc: sc})
	return nil
}

// keyText is the unit key of a mapping key: its text, or Python's str()
// of a boolean or an integer.
func (w *walker) keyText(k *yamlv3.Node) (string, error) {
	if k.Kind != yamlv3.ScalarNode {
		return "", w.fail(k, "a mapping or a sequence as a key is not supported")
	}
	v, ok, err := w.scalarText(k)
	if err != nil {
		return "", err
	}
	if !ok {
		return "None", nil
	}
	return v, nil
}

// afterKey is the offset right after the ':' following key k.
func (w *walker) afterKey(k *yamlv3.Node, parent int, flow bool) int {
	sc := w.ref(k, parent, flow)
	i := sc.end
	for i < len(w.t.s) && (w.t.s[i] == ' ' || w.t.s[i] == '\t') {
		i++
	}
	if i < len(w.t.s) && w.t.s[i] == ':' {
		i++
	}
	return i
}

func isMerge(k *yamlv3.Node) bool {
	return k.Kind == yamlv3.ScalarNode && k.Value == "<<" && k.Style&(yamlv3.DoubleQuotedStyle|yamlv3.SingleQuotedStyle) == 0
}

func (w *walker) mapping(n *yamlv3.Node, path []part, parent int, flow bool, depth, owner int) error {
	if w.f.f.ruby {
		if done, err := w.plural(n, path, flow); done || err != nil {
			return err
		}
	}
	keys := map[string]bool{}
	prevEnd := -1
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if isMerge(k) {
			prevEnd = -1
			continue
		}
		key, err := w.keyText(k)
		if err != nil {
			return err
		}
		if keys[key] {
			return w.fail(k, "duplicate key %q", key)
		}
		keys[key] = true
		koff := w.t.offset(k.Line, k.Column)
		col := parent
		if !flow {
			col = w.t.column(koff)
		}
		p := append(path, part{key: key, index: -1})
		if v.Kind == yamlv3.ScalarNode {
			note := ""
			if !flow {
				note = w.note(i == 0, owner, prevEnd, koff)
			}
			if err := w.scalar(v, p, col, flow, note); err != nil {
				return err
			}
			prevEnd = w.valueEnd(k, v, col, flow)
			continue
		}
		prevEnd = -1
		if err := w.walk(v, p, col, flow, depth+1, k.Line-1); err != nil {
			return err
		}
	}
	return nil
}

// valueEnd is where the scalar value v of key k ends (after the ':' for
// an empty one).
func (w *walker) valueEnd(k, v *yamlv3.Node, parent int, flow bool) int {
	if v.ShortTag() == "!!null" && v.Value == "" && v.Style&yamlv3.TaggedStyle == 0 {
		return w.afterKey(k, parent, flow)
	}
	return w.ref(v, parent, flow).end
}

// note is the comment above the key at koff, as translate-toolkit reads
// it: for the first key of a mapping the comment lines after its owner's
// line; for another the end-of-line comment of the scalar before it and
// the comment lines after that scalar (none when the sibling before it is
// a collection, whose last scalar ruamel gives those comments).
func (w *walker) note(first bool, owner, prevEnd, koff int) string {
	keyLine := w.t.lineOf(koff)
	var lines []string
	from := owner + 1
	if !first {
		if prevEnd < 0 {
			return ""
		}
		if c, ok := w.t.eolComment(prevEnd); ok {
			lines = append(lines, c)
		}
		from = w.t.lineOf(prevEnd) + 1
	}
	for l := max(from, 0); l < keyLine; l++ {
		if c, ok := comment(w.t.s[w.t.lines[l]:w.t.lineEnd(w.t.lines[l])]); ok {
			lines = append(lines, c)
		}
	}
	return strings.Join(lines, "\n")
}

// plural takes a mapping whose keys are all CLDR categories as one plural
// unit, its forms the language's categories in order (a missing one
// empty); a mapping of nulls only is no unit.
func (w *walker) plural(n *yamlv3.Node, path []part, flow bool) (bool, error) {
	if len(n.Content) == 0 {
		return false, nil
	}
	vals := map[string]*yamlv3.Node{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind != yamlv3.ScalarNode || styleOf(k) != plain || !slices.Contains(lang.CLDRCategories, k.Value) || v.Kind != yamlv3.ScalarNode {
			return false, nil
		}
		vals[k.Value] = v
	}
	forms := make([]string, len(w.f.tags))
	some := false
	for i, tag := range w.f.tags {
		if v := vals[tag]; v != nil {
			s, ok, err := w.scalarText(v)
			if err != nil {
				return true, err
			}
			forms[i], some = s, some || ok
		}
	}
	if !some {
		return true, nil
	}
	first := n.Content[0]
	start := w.t.offset(first.Line, first.Column)
	col := w.t.column(start)
	lastK, lastV := n.Content[len(n.Content)-2], n.Content[len(n.Content)-1]
	pl := &pluralRef{start: start, end: w.valueEnd(lastK, lastV, col, flow), indent: col, flow: flow}
	w.add(path, forms, "", &unit{pl: pl})
	return true, nil
}
