package yaml

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	yamlv3 "gopkg.in/yaml.v3"

	"github.com/tmsproject/tms/services/translation/formats/base"
)

// parseKey splits a unit key into its path as translate-toolkit's
// UnitId.from_string does: parts joined by "->", "[N]" an index.
func parseKey(key string) []part {
	var out []part
	for _, item := range strings.Split(key, "->") {
		for {
			b, e := strings.IndexByte(item, '['), strings.IndexByte(item, ']')
			if b < 0 || e < b {
				break
			}
			n, err := strconv.Atoi(item[b+1 : e])
			if err != nil || n < 0 {
				break
			}
			if b > 0 {
				out = append(out, part{key: item[:b], index: -1})
			}
			out = append(out, part{index: n})
			item = item[e+1:]
		}
		if item != "" {
			out = append(out, part{key: item, index: -1})
		}
	}
	if len(out) == 0 {
		out = append(out, part{key: "", index: -1})
	}
	return out
}

// Add appends a unit at the end of the mapping (or sequence) its key
// names, creating the missing levels as block mappings indented by two,
// the way ruamel.yaml writes new nodes.
func (f *File) Add(u *base.Unit) error {
	if u.Context != "" {
		u.Context = contextOf(parseKey(u.Context))
	}
	exists := false
	for _, x := range f.units {
		exists = exists || x.Context == u.Context
	}
	forms, err := base.AddForms("yaml", u, exists)
	if err != nil {
		return err
	}
	if len(forms) > 1 && !f.f.ruby {
		return errors.New("yaml: plural units need the ruby-yaml format")
	}
	if len(forms) > 1 {
		forms = f.pluralForms(forms)
	}
	at, ins, err := f.insertion(parseKey(u.Context), forms)
	if err != nil {
		return err
	}
	old := f.t.s
	f.splice(at, at, ins)
	if err := f.reload(); err != nil {
		f.t = newText(old)
		_ = f.reload()
		return err
	}
	for i, x := range f.units {
		if x.Context == u.Context {
			u.Ref, u.Target, u.Source = x.Ref, x.Target, nil
			f.units[i] = u
			return nil
		}
	}
	f.t = newText(old)
	_ = f.reload()
	return fmt.Errorf("yaml: key %q cannot be added", u.Context)
}

// insertion is where the text of a new unit goes and that text.
func (f *File) insertion(path []part, forms []string) (int, string, error) {
	root, err := decode(f.t.s)
	if err != nil {
		return 0, "", err
	}
	if root == nil || root.Kind == yamlv3.ScalarNode && root.ShortTag() == "!!null" {
		if path[0].index >= 0 {
			return 0, "", errors.New("yaml: the file has no sequence")
		}
		s := f.t.s
		if s != "" && !strings.HasSuffix(s, "\n") {
			s = f.t.nl
		} else {
			s = ""
		}
		return len(f.t.s), s + f.build(path, forms, 0) + f.t.nl, nil
	}
	node, parent := root, -1
	if f.root != "" {
		k, v := root.Content[0], root.Content[1]
		if v.Kind != yamlv3.MappingNode {
			return f.underKey(k, path, forms, 0)
		}
		node, parent = v, f.t.column(f.t.offset(k.Line, k.Column))
	}
	return f.insertInto(node, parent, path, forms)
}

// underKey puts path below key k, whose value is empty.
func (f *File) underKey(k *yamlv3.Node, path []part, forms []string, parent int) (int, string, error) {
	col := f.t.column(f.t.offset(k.Line, k.Column))
	w := &walker{f: f, t: f.t}
	at := w.afterKey(k, parent, false)
	if path[0].index >= 0 {
		return at, f.t.nl + strings.Repeat(" ", col) + "- " + f.build(path[1:], forms, col+2), nil
	}
	return at, f.t.nl + strings.Repeat(" ", col+2) + f.build(path, forms, col+2), nil
}

// insertInto finds the deepest existing level of path below node and
// returns the text adding the rest after its last entry.
func (f *File) insertInto(node *yamlv3.Node, parent int, path []part, forms []string) (int, string, error) {
	p := path[0]
	if node.Style&yamlv3.FlowStyle != 0 {
		return 0, "", errors.New("yaml: keys cannot be added to a flow collection")
	}
	switch {
	case node.Kind == yamlv3.MappingNode && p.index < 0:
		col := f.t.column(f.t.offset(node.Line, node.Column))
		for i := 0; i+1 < len(node.Content); i += 2 {
			k, v := node.Content[i], node.Content[i+1]
			if k.Value != p.key || len(path) == 1 {
				continue
			}
			if v.Kind == yamlv3.ScalarNode && v.ShortTag() == "!!null" && v.Value == "" {
				return f.underKey(k, path[1:], forms, col)
			}
			if v.Kind != yamlv3.MappingNode && v.Kind != yamlv3.SequenceNode {
				return 0, "", fmt.Errorf("yaml: %q holds no mapping", p.key)
			}
			return f.insertInto(v, col, path[1:], forms)
		}
		at := f.t.lineEnd(f.nodeEnd(node, parent))
		return at, f.t.nl + strings.Repeat(" ", col) + f.build(path, forms, col), nil
	case node.Kind == yamlv3.SequenceNode && p.index >= 0:
		col := f.t.column(f.t.offset(node.Line, node.Column))
		if p.index < len(node.Content) && len(path) > 1 {
			return f.insertInto(node.Content[p.index], col, path[1:], forms)
		}
		if p.index != len(node.Content) {
			return 0, "", fmt.Errorf("yaml: index %d is past the end of the sequence", p.index)
		}
		at := f.t.lineEnd(f.nodeEnd(node, parent))
		return at, f.t.nl + strings.Repeat(" ", col) + "- " + f.build(path[1:], forms, col+2), nil
	}
	return 0, "", errors.New("yaml: the key does not match the file's structure")
}

// nodeEnd is where the text of node ends.
func (f *File) nodeEnd(n *yamlv3.Node, parent int) int {
	off := f.t.offset(n.Line, n.Column)
	switch n.Kind {
	case yamlv3.ScalarNode:
		start, _ := f.t.skipProps(off)
		return f.t.scalarEnd(start, styleOf(n), parent, false)
	case yamlv3.AliasNode:
		return off + 1 + len(n.Value)
	case yamlv3.MappingNode:
		col := f.t.column(off)
		k, v := n.Content[len(n.Content)-2], n.Content[len(n.Content)-1]
		if v.Kind == yamlv3.ScalarNode && v.ShortTag() == "!!null" && v.Value == "" {
			return (&walker{f: f, t: f.t}).afterKey(k, col, false)
		}
		return f.nodeEnd(v, col)
	case yamlv3.SequenceNode:
		return f.nodeEnd(n.Content[len(n.Content)-1], f.t.column(off))
	}
	return off
}

// build writes path as new block nodes starting at column col (which the
// caller has indented to), the last holding forms.
func (f *File) build(path []part, forms []string, col int) string {
	if len(path) == 0 {
		return f.newScalar(forms[0], col, col-2)
	}
	p := path[0]
	if p.index >= 0 {
		return "- " + f.build(path[1:], forms, col+2)
	}
	key := p.key
	if st := keyStyle(key); st != plain {
		key = render(key, st, col, col+2, f.t.nl)
	}
	key += ":"
	pad := f.t.nl + strings.Repeat(" ", col+2)
	switch {
	case len(path) == 1 && len(forms) > 1:
		var b strings.Builder
		b.WriteString(key)
		all := strings.Join(forms, "") == ""
		for i, tag := range f.tags {
			b.WriteString(pad + tag + ":")
			if forms[i] != "" || all {
				b.WriteString(" " + f.newScalar(forms[i], col+4+len(tag), col+2))
			}
		}
		return b.String()
	case len(path) == 1:
		return key + " " + f.newScalar(forms[0], col+len([]rune(key))+1, col)
	case path[1].index >= 0:
		return key + f.t.nl + strings.Repeat(" ", col) + f.build(path[1:], forms, col)
	}
	return key + pad + f.build(path[1:], forms, col+2)
}

// newScalar writes a new string value as translate-toolkit stores it: a
// literal block when it has a line break.
func (f *File) newScalar(v string, col, parent int) string {
	want := plain
	if strings.Contains(v, "\n") {
		want = lit
	}
	return render(v, chooseStyle(v, want, false), col, parent+2, f.t.nl)
}

// Remove drops a unit's entry (with the comment lines right above it);
// a mapping or sequence left empty goes with it, as translate-toolkit
// drops it. False when the unit is not in this file or sits where lines
// cannot be cut (a flow collection, "- key: value" with siblings).
func (f *File) Remove(u *base.Unit) bool {
	h, err := handle(u)
	if err != nil {
		return false
	}
	found := false
	for _, x := range f.units {
		found = found || x == u
	}
	if !found {
		return false
	}
	from, to, ok := f.entrySpan(h.path)
	if !ok {
		return false
	}
	old := f.t.s
	f.splice(from, to, "")
	if err := f.reload(); err != nil {
		f.t = newText(old)
		_ = f.reload()
		return false
	}
	return true
}

// entrySpan is the byte range of the lines holding the entry at path.
func (f *File) entrySpan(path []part) (int, int, bool) {
	root, err := decode(f.t.s)
	if err != nil || root == nil {
		return 0, 0, false
	}
	node := root
	if f.root != "" {
		node = root.Content[1]
	}
	var up *yamlv3.Node // the collection holding node's parent
	for i, p := range path {
		if node.Style&yamlv3.FlowStyle != 0 {
			return 0, 0, false
		}
		col := f.t.column(f.t.offset(node.Line, node.Column))
		var start *yamlv3.Node
		var value *yamlv3.Node
		switch {
		case node.Kind == yamlv3.MappingNode && p.index < 0:
			for j := 0; j+1 < len(node.Content); j += 2 {
				if node.Content[j].Value == p.key {
					start, value = node.Content[j], node.Content[j+1]
				}
			}
		case node.Kind == yamlv3.SequenceNode && p.index >= 0 && p.index < len(node.Content):
			start, value = node.Content[p.index], node.Content[p.index]
		}
		if start == nil {
			return 0, 0, false
		}
		if i < len(path)-1 {
			up, node = node, value
			continue
		}
		// The only entry: drop the collection's own entry instead.
		if len(node.Content) <= 2 && node.Kind == yamlv3.MappingNode || len(node.Content) == 1 && node.Kind == yamlv3.SequenceNode {
			if i > 0 && path[i-1].index < 0 && up != nil {
				return f.entrySpan(path[:i])
			}
			return 0, 0, false
		}
		return f.lines(start, value, col, node.Kind == yamlv3.SequenceNode)
	}
	return 0, 0, false
}

// lines is the range of the whole lines from the key (or dash) of an
// entry, with the comment lines right above it, to the end of its value.
func (f *File) lines(start, value *yamlv3.Node, col int, item bool) (int, int, bool) {
	off := f.t.offset(start.Line, start.Column)
	if item {
		off = f.t.lineStart(off) + f.t.indentOf(off)
		if f.t.s[off] != '-' {
			return 0, 0, false
		}
	}
	if f.t.indentOf(off) != f.t.column(off) {
		return 0, 0, false
	}
	from := f.t.lineStart(off)
	for l := f.t.lineOf(from) - 1; l >= 0; l-- {
		ls := f.t.lines[l]
		if _, ok := comment(f.t.s[ls:f.t.lineEnd(ls)]); !ok {
			break
		}
		from = ls
	}
	end := f.nodeEnd(value, col)
	if value.Kind == yamlv3.ScalarNode && value.ShortTag() == "!!null" && value.Value == "" && !item {
		end = (&walker{f: f, t: f.t}).afterKey(start, col, false)
	}
	to := f.t.lineEnd(end)
	if to < len(f.t.s) && f.t.s[to] == '\r' {
		to++
	}
	if to < len(f.t.s) && f.t.s[to] == '\n' {
		to++
	}
	return from, to, true
}
