package json

import (
	"errors"
	"fmt"
)

var (
	errNotObject = errors.New("json: the file is not a JSON object")
	errNotArray  = errors.New("json: missing top-level array; maybe this is not a go-i18n JSON file")
)

// extractGoI18n reads go-i18n v1: [{"id", "translation", "description"?}].
func (f *File) extractGoI18n(root *node) error {
	if root.kind != '[' {
		return errNotArray
	}
	for i, it := range root.items {
		e := it.value
		if e.kind != '{' {
			return fmt.Errorf("json: entry %d is not an object", i)
		}
		id, note := "", ""
		if j := memberIndex(e, "id"); j >= 0 && e.members[j].value.kind == '"' {
			id = e.members[j].value.str
		} else {
			return fmt.Errorf("json: entry %d has no string id", i)
		}
		if j := memberIndex(e, "description"); j >= 0 && e.members[j].value.kind == '"' {
			note = e.members[j].value.str
		}
		j := memberIndex(e, "translation")
		if j < 0 {
			return fmt.Errorf("json: entry %q has no translation", id)
		}
		tr := e.members[j].value
		h := &unit{chain: []*node{root, e}}
		switch tr.kind {
		case '"':
			h.slots = []slot{{parent: e, key: "translation", value: tr}}
		case '{':
			h.plural, h.chain = true, append(h.chain, tr)
			for _, t := range f.tags {
				var v *node
				if k := memberIndex(tr, t); k >= 0 && tr.members[k].value.kind == '"' {
					v = tr.members[k].value
				}
				h.slots = append(h.slots, slot{parent: tr, key: t, value: v})
			}
		default:
			return fmt.Errorf("json: the translation of %q is neither a string nor plurals", id)
		}
		f.addUnit(id, h.targets(), note, h)
	}
	return nil
}
