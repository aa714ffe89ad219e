// Package json holds the JSON formats of the registry, with the
// reference's identifiers: json (keys of nested objects joined with "."),
// json-nested, i18next (v3 plurals: _plural, _0, _1, ...), i18nextv4
// (plurals as _one, _other, ... per the language's CLDR categories) and
// go-i18n-json (go-i18n v1: an array of {"id", "translation"}) and arb
// (Flutter's Application Resource Bundle, see arb.go).
//
// Files are parsed into a tree that keeps every byte it was read from:
// untouched content (order, whitespace, indentation, key quoting, escapes)
// renders as read, and an edit re-renders only the edited string, the way
// translate-toolkit's serializer writes strings (json.dumps with
// ensure_ascii off). New translation files are written whole as
// translate-toolkit writes them: indent 4, separators ", " and ": ".
package json

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tmsproject/tms/pkg/lang"
	"github.com/tmsproject/tms/services/translation/formats/base"
)

type variant int

const (
	flat variant = iota
	nested
	i18nextV3
	i18nextV4
	goI18n
	arb
)

// Format is one JSON flavour.
type Format struct {
	id, name string
	v        variant
}

// The formats of this package.
var (
	JSON       = Format{"json", "JSON file", flat}
	Nested     = Format{"json-nested", "JSON nested structure file", nested}
	I18next    = Format{"i18next", "i18next JSON file v3", i18nextV3}
	I18nextV4  = Format{"i18nextv4", "i18next JSON file v4", i18nextV4}
	GoI18nJSON = Format{"go-i18n-json", "go-i18n v1 JSON file", goI18n}
	ARB        = Format{"arb", "ARB file", arb}
)

// ID is the format's file_format identifier.
func (f Format) ID() string { return f.id }

// Name is the format's name as the reference shows it.
func (f Format) Name() string { return f.name }

// Monolingual reports true: JSON files hold keys and values, the source in the template.
func (Format) Monolingual() bool { return true }

// ContentType is the media type of a download.
func (Format) ContentType() string { return "application/json" }
func (f Format) emptyFile() []byte {
	if f.v == goI18n {
		return []byte("[]\n")
	}
	return []byte("{}\n")
}

// Parse reads a file; lang names its language (plural categories).
func (f Format) Parse(data []byte, l base.Language) (base.File, error) {
	d, err := parseDoc(data)
	if err != nil {
		return nil, err
	}
	file := &File{f: f, d: d, tags: lang.PluralTags(l.Code)}
	if err := file.extract(); err != nil {
		return nil, err
	}
	return file, nil
}

// NewTranslation is base with every target emptied, written whole as
// translate-toolkit writes a file; an empty base gives an empty file.
func (f Format) NewTranslation(data []byte, l base.Language) ([]byte, error) {
	if len(strings.TrimSpace(string(data))) == 0 {
		return f.emptyFile(), nil
	}
	pf, err := f.Parse(data, l)
	if err != nil {
		return nil, err
	}
	file := pf.(*File)
	if f.v == arb {
		return arbNewTranslation(file), nil
	}
	for _, u := range file.units {
		forms := make([]string, 1)
		if u.Plural() {
			forms = make([]string, len(file.tags))
		}
		if err := file.SetTarget(u, forms, false); err != nil {
			return nil, err
		}
	}
	// Strings that are no unit of the language (an "_other" key where the
	// language's plural has no such form) are no translation either.
	if f.v == goI18n {
		for _, it := range file.d.root.items {
			if i := memberIndex(it.value, "translation"); i >= 0 {
				blank(it.value.members[i].value)
			}
		}
	} else {
		blank(file.d.root)
	}
	var b strings.Builder
	file.d.root.pretty(&b, "    ", 0)
	b.WriteByte('\n')
	return []byte(b.String()), nil
}

// blank empties every string below n.
func blank(n *node) {
	switch n.kind {
	case '"':
		n.str = ""
	case '{':
		for _, m := range n.members {
			blank(m.value)
		}
	case '[':
		for _, it := range n.items {
			blank(it.value)
		}
	}
}

// slot is where one form of a unit lives: a member of an object (or an
// item of an array, key "").
type slot struct {
	parent *node
	key    string
	value  *node
}

// unit is the format's handle of a base.Unit.
type unit struct {
	chain  []*node // containers from the root to the parent, marked dirty on edits
	slots  []slot
	plural bool
	pbase  string // the key the plural suffixes follow
}

// File is a parsed JSON file.
type File struct {
	f     Format
	d     *doc
	tags  []string
	units []*base.Unit
	ids   map[string]bool
}

// Units are the strings of the file in order.
func (f *File) Units() []*base.Unit { return f.units }

// RecordsFuzzy reports false: JSON has no fuzzy flag.
func (f *File) RecordsFuzzy() bool { return false }

// Bytes renders the file.
func (f *File) Bytes() []byte { return f.d.bytes() }

func (f *File) addUnit(ctx string, forms []string, note string, h *unit) {
	if f.ids[ctx] {
		return // a second unit of one key: translate-toolkit keeps one
	}
	f.ids[ctx] = true
	f.units = append(f.units, &base.Unit{Context: ctx, Target: forms, Note: note, Ref: h})
}

var errForeign = errors.New("json: unit of another file")

func handle(u *base.Unit) (*unit, error) {
	h, ok := u.Ref.(*unit)
	if !ok {
		return nil, errForeign
	}
	return h, nil
}

func (f *File) touch(h *unit) {
	for _, n := range h.chain {
		n.dirty = true
	}
}

// SetTarget stores the forms of a unit; unchanged forms keep their bytes.
func (f *File) SetTarget(u *base.Unit, forms []string, _ bool) error {
	h, err := handle(u)
	if err != nil {
		return err
	}
	if !h.plural {
		if len(forms) != 1 {
			return fmt.Errorf("json: %q has one form, got %d", u.Context, len(forms))
		}
		if v := h.slots[0].value; v.str != forms[0] || v.kind != '"' {
			v.kind, v.str, v.dirty = '"', forms[0], true
			f.touch(h)
		}
		u.Target = []string{forms[0]}
		return nil
	}
	if err := f.setPlural(h, forms); err != nil {
		return err
	}
	u.Target = append([]string(nil), forms...)
	return nil
}

// pluralKeys are the member keys of n forms of a plural unit.
func (f *File) pluralKeys(pbase string, n int) []string {
	keys := make([]string, n)
	for i := range keys {
		switch {
		case f.f.v == goI18n:
			keys[i] = f.tags[min(i, len(f.tags)-1)]
		case f.f.v == i18nextV4:
			keys[i] = pbase + "_" + f.tags[min(i, len(f.tags)-1)]
		case n == 2 && i == 0:
			keys[i] = pbase
		case n == 2:
			keys[i] = pbase + "_plural"
		default:
			keys[i] = fmt.Sprintf("%s_%d", pbase, i)
		}
	}
	return keys
}

// setPlural writes the forms under the keys of the language's plural,
// adding missing keys after the unit's last one and dropping the unit's
// keys the language does not have, as translate-toolkit writes them.
func (f *File) setPlural(h *unit, forms []string) error {
	if f.f.v == goI18n || f.f.v == i18nextV4 {
		forms = forms[:min(len(forms), len(f.tags))]
	}
	keys := f.pluralKeys(h.pbase, len(forms))
	parent := h.slots[0].parent
	have := map[string]*node{}
	for _, s := range h.slots {
		if s.value != nil {
			have[s.key] = s.value
		}
	}
	var slots []slot
	changed := false
	after := lastMember(parent, h.slots)
	for i, k := range keys {
		v := have[k]
		delete(have, k)
		if v == nil {
			v = &node{kind: '"', str: forms[i], dirty: true}
			after = f.insertMember(parent, after, k, v)
			changed = true
		} else if v.str != forms[i] || v.kind != '"' {
			v.kind, v.str, v.dirty = '"', forms[i], true
			changed = true
		} else {
			after = memberIndex(parent, k)
		}
		slots = append(slots, slot{parent: parent, key: k, value: v})
	}
	for k := range have {
		removeMember(parent, k)
		changed = true
	}
	if f.dropStrayForms(h, parent, keys) {
		changed = true
	}
	h.slots = slots
	if changed {
		f.touch(h)
	}
	return nil
}

// dropStrayForms removes the forms of a CLDR-keyed plural (go-i18n,
// i18next v4) under a category the language does not have, such as an
// "other" left from a template of another language: translate-toolkit
// writes such a unit with exactly the language's categories. It reports
// whether it removed any.
func (f *File) dropStrayForms(h *unit, parent *node, keys []string) bool {
	if f.f.v != goI18n && f.f.v != i18nextV4 {
		return false
	}
	removed := false
	for _, c := range lang.CLDRCategories {
		k := c
		if f.f.v == i18nextV4 {
			k = h.pbase + "_" + c
		}
		if i := memberIndex(parent, k); i >= 0 && !slices.Contains(keys, k) && parent.members[i].value.kind == '"' {
			removeMember(parent, k)
			removed = true
		}
	}
	return removed
}

// Add appends a unit under its key: nested objects for the formats with
// nested keys, one flat key for json, an entry of the array for go-i18n.
func (f *File) Add(u *base.Unit) error {
	forms, err := base.AddForms("json", u, f.ids[u.Context])
	if err != nil {
		return err
	}
	if f.f.v == arb && (strings.HasPrefix(u.Context, "@") || len(forms) > 1) {
		return fmt.Errorf("json: ARB key %q: a key starting with '@' is metadata, and a string has one form", u.Context)
	}
	h, err := f.addNode(u.Context, len(forms) > 1)
	if err != nil {
		return err
	}
	f.ids[u.Context] = true
	u.Ref, u.Source = h, nil
	f.units = append(f.units, u)
	return f.SetTarget(u, forms, false)
}

func (f *File) addNode(key string, plural bool) (*unit, error) {
	root := f.d.root
	if f.f.v == goI18n {
		if root.kind != '[' {
			return nil, errors.New("json: a go-i18n file is an array")
		}
		entry := &node{kind: '{', dirty: true}
		appendItem(root, entry)
		f.insertMember(entry, -1, "id", &node{kind: '"', str: key, dirty: true})
		tr := &node{kind: '"', dirty: true}
		if plural {
			tr = &node{kind: '{', dirty: true}
		}
		f.insertMember(entry, 0, "translation", tr)
		h := &unit{chain: []*node{root, entry}, plural: plural}
		h.slots = []slot{{parent: entry, key: "translation", value: tr}}
		if plural {
			h.chain = append(h.chain, tr)
			h.slots = []slot{{parent: tr}}
		}
		return h, nil
	}
	if root.kind != '{' {
		return nil, errors.New("json: the file is not an object")
	}
	parts := []string{key}
	if f.f.v != flat && f.f.v != arb {
		parts = strings.Split(key, ".")
	}
	chain := []*node{root}
	parent := root
	for _, p := range parts[:len(parts)-1] {
		i := memberIndex(parent, p)
		if i < 0 {
			child := &node{kind: '{', dirty: true}
			f.insertMember(parent, len(parent.members)-1, p, child)
			parent = child
		} else if parent = parent.members[i].value; parent.kind != '{' {
			return nil, fmt.Errorf("json: %q is not an object", p)
		}
		chain = append(chain, parent)
	}
	last := parts[len(parts)-1]
	h := &unit{chain: chain, plural: plural, pbase: last}
	if plural {
		h.slots = []slot{{parent: parent}}
		return h, nil
	}
	if memberIndex(parent, last) >= 0 {
		return nil, fmt.Errorf("json: key %q exists", key)
	}
	v := &node{kind: '"', dirty: true}
	f.insertMember(parent, len(parent.members)-1, last, v)
	h.slots = []slot{{parent: parent, key: last, value: v}}
	return h, nil
}

// Remove drops the unit's keys.
func (f *File) Remove(u *base.Unit) bool {
	h, err := handle(u)
	if err != nil {
		return false
	}
	for i, x := range f.units {
		if x == u {
			f.units = append(f.units[:i], f.units[i+1:]...)
			break
		}
	}
	delete(f.ids, u.Context)
	if f.f.v == goI18n {
		root := f.d.root
		entry := h.chain[1]
		for i, it := range root.items {
			if it.value == entry {
				removeItem(root, i)
			}
		}
	} else {
		for _, s := range h.slots {
			if s.value != nil {
				removeMember(s.parent, s.key)
			}
		}
		if f.f.v == arb {
			removeMember(f.d.root, "@"+u.Context) // its metadata goes with it
		}
	}
	f.touch(h)
	return true
}

// indent is the file's indentation unit, by its first indented line.
func (f *File) indent() string {
	raw := f.d.root.raw
	if i := strings.Index(raw, "\n"); i >= 0 {
		rest := raw[i+1:]
		n := len(rest) - len(strings.TrimLeft(rest, " \t"))
		if n > 0 {
			return rest[:n]
		}
	}
	if f.f.v == arb {
		return "  " // translate-toolkit's indentation of ARB
	}
	return "    "
}
