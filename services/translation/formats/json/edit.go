package json

import (
	"strings"

	"github.com/tmsproject/tms/pkg/lang"
)

func memberIndex(parent *node, key string) int {
	for i, m := range parent.members {
		if m.key == key {
			return i
		}
	}
	return -1
}

// lastMember is the index of the last member holding one of the slots,
// or the last member of parent when none does.
func lastMember(parent *node, slots []slot) int {
	last := -1
	for _, s := range slots {
		if s.value != nil {
			last = max(last, memberIndex(parent, s.key))
		}
	}
	if last < 0 {
		return len(parent.members) - 1
	}
	return last
}

// depth is how deep target is below the root (0 for the root).
func depth(n, target *node, d int) int {
	if n == target {
		return d
	}
	for _, m := range n.members {
		if x := depth(m.value, target, d+1); x >= 0 {
			return x
		}
	}
	for _, it := range n.items {
		if x := depth(it.value, target, d+1); x >= 0 {
			return x
		}
	}
	return -1
}

// insertMember puts key: v after the member at index after (-1: first),
// with the whitespace of its neighbours, and returns its index.
func (f *File) insertMember(parent *node, after int, key string, v *node) int {
	m := &member{rawKey: Quote(key), key: key, sep: ": ", value: v}
	ms := parent.members
	switch {
	case len(ms) == 0:
		d := max(depth(f.d.root, parent, 0), 0)
		ind := f.indent()
		if parent == f.d.root && f.d.root.kind == '[' {
			d = 0
		}
		m.pre = "\n" + strings.Repeat(ind, d+1)
		m.post = "\n" + strings.Repeat(ind, d)
		if parent.tail != "" && strings.TrimSpace(parent.tail) == "" && !strings.Contains(parent.tail, "\n") {
			m.post = parent.tail
		}
		parent.tail = ""
	case after >= len(ms)-1:
		last := ms[len(ms)-1]
		m.pre, m.sep, m.post = last.pre, last.sep, last.post
		last.post = ""
		after = len(ms) - 1
	default:
		nb := ms[max(after, 0)]
		m.pre, m.sep = nb.pre, nb.sep
	}
	i := after + 1
	parent.members = append(ms[:i], append([]*member{m}, ms[i:]...)...)
	parent.dirty = true
	return i
}

// removeMember drops a key; the whitespace before the closing brace stays.
func removeMember(parent *node, key string) {
	i := memberIndex(parent, key)
	if i < 0 {
		return
	}
	ms := parent.members
	if i == len(ms)-1 {
		if i > 0 {
			ms[i-1].post = ms[i].post
		} else {
			parent.tail = ms[i].post
		}
	}
	parent.members = append(ms[:i], ms[i+1:]...)
	parent.dirty = true
}

// appendItem adds a value at the end of an array.
func appendItem(arr *node, v *node) {
	it := &item{pre: "\n    ", post: "\n", value: v}
	if n := len(arr.items); n > 0 {
		last := arr.items[n-1]
		it.pre, it.post, last.post = last.pre, last.post, ""
	}
	arr.items = append(arr.items, it)
	arr.dirty = true
}

// removeItem drops the value at index i of an array.
func removeItem(arr *node, i int) {
	its := arr.items
	if i == len(its)-1 {
		if i > 0 {
			its[i-1].post = its[i].post
		} else {
			arr.tail = its[i].post
		}
	}
	arr.items = append(its[:i], its[i+1:]...)
	arr.dirty = true
}

// extract builds the units of the file.
func (f *File) extract() error {
	f.ids = map[string]bool{}
	root := f.d.root
	switch f.f.v {
	case goI18n:
		return f.extractGoI18n(root)
	case arb:
		return f.extractARB(root)
	}
	if root.kind != '{' {
		return errNotObject
	}
	f.walk(root, "", []*node{root})
	return nil
}

// walk finds the strings below n; path is n's id, chain the containers
// down to n.
func (f *File) walk(n *node, path string, chain []*node) {
	switch n.kind {
	case '{':
		done := map[string]bool{}
		for _, m := range n.members {
			if done[m.key] {
				continue
			}
			if h := f.pluralGroup(n, m.key, done); h != nil {
				h.chain = chain
				f.addUnit(strings.TrimPrefix(path+"."+h.pbase, "."), h.targets(), "", h)
				continue
			}
			f.walk(m.value, path+"."+m.key, append(chain[:len(chain):len(chain)], m.value))
		}
	case '[':
		for i, it := range n.items {
			f.walk(it.value, path+"["+itoa(i)+"]", append(chain[:len(chain):len(chain)], it.value))
		}
	case '"':
		parent := chain[len(chain)-2]
		key := path[strings.LastIndexAny(path, ".[")+1:]
		if parent.kind == '[' {
			key = ""
		}
		h := &unit{chain: chain[:len(chain)-1], slots: []slot{{parent: parent, key: key, value: n}}}
		f.addUnit(strings.TrimPrefix(path, "."), []string{n.str}, "", h)
	}
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

func (h *unit) targets() []string {
	out := make([]string, len(h.slots))
	for i, s := range h.slots {
		if s.value != nil {
			out[i] = s.value.str
		}
	}
	return out
}

// pluralGroup is the plural unit a member of obj starts (i18next), nil
// when it is an ordinary key; the members it takes are marked done.
func (f *File) pluralGroup(obj *node, key string, done map[string]bool) *unit {
	str := func(k string) *node {
		if i := memberIndex(obj, k); i >= 0 && obj.members[i].value.kind == '"' {
			return obj.members[i].value
		}
		return nil
	}
	var keys []string
	var pbase string
	switch f.f.v {
	case i18nextV4:
		b, suffix, ok := cut(key)
		if !ok || !isCategory(suffix) || str(key) == nil {
			return nil
		}
		pbase = b
		for _, t := range f.tags {
			keys = append(keys, b+"_"+t)
		}
	case i18nextV3:
		switch b, suffix, _ := cut(key); {
		case strings.HasSuffix(key, "_plural") && str(b) != nil:
			return nil // its singular key starts the group
		case str(key+"_plural") != nil && str(key) != nil:
			pbase, keys = key, []string{key, key + "_plural"}
		case suffix == "0" && str(key) != nil:
			pbase = b
			for i := 0; i < 10 && str(b+"_"+itoa(i)) != nil; i++ {
				keys = append(keys, b+"_"+itoa(i))
			}
		default:
			return nil
		}
	default:
		return nil
	}
	h := &unit{plural: true, pbase: pbase}
	for _, k := range keys {
		done[k] = true
		h.slots = append(h.slots, slot{parent: obj, key: k, value: str(k)})
	}
	return h
}

func cut(key string) (string, string, bool) {
	i := strings.LastIndexByte(key, '_')
	if i < 0 {
		return key, "", false
	}
	return key[:i], key[i+1:], true
}

func isCategory(s string) bool {
	for _, c := range lang.CLDRCategories {
		if c == s {
			return true
		}
	}
	return false
}
