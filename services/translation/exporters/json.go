package exporters

import (
	"strconv"
	"strings"

	tmsjson "github.com/tmsproject/tms/services/translation/formats/json"
)

func init() {
	register(jsonExporter{name: "json"})
	register(jsonExporter{name: "json-nested", nested: true})
}

// jsonExporter is the reference's JSONExporter (translate-toolkit's
// JsonFile: one flat key per unit) and JSONNestedExporter (JsonNestedFile:
// keys split on "." and "[n]" into objects and arrays). Both are
// monolingual: the key is the unit's context, the value its target (the
// first form of a plural: the store writes a multistring as a string);
// notes, locations and fuzziness are not kept.
type jsonExporter struct {
	name   string
	nested bool
}

func (e jsonExporter) Name() string       { return e.name }
func (jsonExporter) ContentType() string  { return "application/json; charset=utf-8" }
func (jsonExporter) Extension() string    { return "json" }
func (jsonExporter) Supports(m Meta) bool { return m.Monolingual }

func (e jsonExporter) Export(m Meta, units []Unit) []byte {
	ids := make([][]idPart, len(units))
	allIndex := len(units) > 0
	for i, u := range units {
		ids[i] = parseID(u.Context, e.nested)
		allIndex = allIndex && ids[i][0].index >= 0
	}
	// DictStore.get_root_node: a list when every id starts with an index.
	root := &jnode{kind: '{'}
	if allIndex {
		root.kind = '['
	}
	for i, u := range units {
		root.store(ids[i], u.targets(m.PluralNumber)[0])
	}
	var b strings.Builder
	root.write(&b, 0)
	b.WriteByte('\n')
	return []byte(b.String())
}

// idPart is one step of a unit id: an object key, or an array index
// (index >= 0).
type idPart struct {
	key   string
	index int
}

// parseID is translate-toolkit's UnitId.from_string (nested) or
// FlatUnitId.from_string (flat: the whole key), both without a leading ".".
func parseID(id string, nested bool) []idPart {
	id = strings.TrimPrefix(id, ".")
	if !nested {
		return []idPart{{key: id, index: -1}}
	}
	var out []idPart
	for _, item := range strings.Split(id, ".") {
		for {
			open, end := strings.IndexByte(item, '['), strings.IndexByte(item, ']')
			if open < 0 || end < 0 || end < open+1 || !isDigits(item[open+1:end]) {
				break
			}
			if open > 0 {
				out = append(out, idPart{key: item[:open], index: -1})
				item, end = item[open:], end-open
			}
			n, _ := strconv.Atoi(item[1:end])
			out = append(out, idPart{index: n})
			item = item[end+1:]
		}
		if item != "" {
			out = append(out, idPart{key: item, index: -1})
		}
	}
	if len(out) == 0 {
		out = []idPart{{key: "", index: -1}}
	}
	return out
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// jnode is a JSON value being built: an object keeping its key order, an
// array, a string, or null (an array slot no unit filled).
type jnode struct {
	kind  byte // '{', '[', '"' or 'n'
	keys  []string
	vals  map[string]*jnode
	items []*jnode
	str   string
}

func (n *jnode) child(key string) *jnode { return n.vals[key] }

func (n *jnode) set(key string, v *jnode) {
	if n.vals == nil {
		n.vals = map[string]*jnode{}
	}
	if _, ok := n.vals[key]; !ok {
		n.keys = append(n.keys, key)
	}
	n.vals[key] = v
}

// store is DictUnit.storevalue: walk the id creating the containers on
// the way (a string in the way is replaced; an array where an object is
// wanted becomes one keyed by the indexes, an object where an array is
// wanted is emptied), then set the value.
func (n *jnode) store(id []idPart, value string) {
	target := n
	for pos, p := range id[:len(id)-1] {
		wantList := id[pos+1].index >= 0
		next := target.step(p, wantList)
		switch {
		case !wantList && next.kind == '[':
			next.toObject()
		case wantList && next.kind == '{':
			*next = jnode{kind: '['}
		case next.kind == 'n':
			*next = jnode{kind: containerKind(wantList)}
		}
		target = next
	}
	last := id[len(id)-1]
	leaf := &jnode{kind: '"', str: value}
	if last.index < 0 {
		target.set(last.key, leaf)
		return
	}
	for len(target.items) < last.index {
		target.items = append(target.items, &jnode{kind: 'n'})
	}
	if last.index < len(target.items) {
		target.items[last.index] = leaf
	} else {
		target.items = append(target.items, leaf)
	}
}

func containerKind(list bool) byte {
	if list {
		return '['
	}
	return '{'
}

// step returns the container at p inside n, creating it.
func (n *jnode) step(p idPart, wantList bool) *jnode {
	if p.index >= 0 {
		if n.kind == '{' { // an index into an object: a key of its digits
			p = idPart{key: strconv.Itoa(p.index), index: -1}
		} else {
			for len(n.items) <= p.index {
				n.items = append(n.items, &jnode{kind: containerKind(wantList)})
			}
			return n.items[p.index]
		}
	}
	c := n.child(p.key)
	if c == nil || c.kind == '"' {
		c = &jnode{kind: containerKind(wantList)}
		n.set(p.key, c)
	}
	return c
}

// toObject turns an array into an object keyed "0", "1", ...
func (n *jnode) toObject() {
	items := n.items
	*n = jnode{kind: '{'}
	for i, it := range items {
		n.set(strconv.Itoa(i), it)
	}
}

// write is Python's json.dumps(indent=4, separators=(",", ": "),
// ensure_ascii=False), as translate-toolkit saves JSON.
func (n *jnode) write(b *strings.Builder, depth int) {
	pad := "\n" + strings.Repeat("    ", depth+1)
	end := "\n" + strings.Repeat("    ", depth)
	switch n.kind {
	case '"':
		b.WriteString(tmsjson.Quote(n.str))
	case 'n':
		b.WriteString("null")
	case '{':
		if len(n.keys) == 0 {
			b.WriteString("{}")
			return
		}
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(pad + tmsjson.Quote(k) + ": ")
			n.vals[k].write(b, depth+1)
		}
		b.WriteString(end + "}")
	case '[':
		if len(n.items) == 0 {
			b.WriteString("[]")
			return
		}
		b.WriteByte('[')
		for i, it := range n.items {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(pad)
			it.write(b, depth+1)
		}
		b.WriteString(end + "]")
	}
}
