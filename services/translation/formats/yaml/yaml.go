// Package yaml holds the YAML formats of the registry, with the
// reference's identifiers: yaml (translate-toolkit's YAMLFile) and
// ruby-yaml (RubyYAMLFile: Rails locale files, whose single root key is
// the language code and whose mappings of CLDR plural categories only
// are plural units).
//
// A unit is a scalar below the root mappings and sequences; its key is
// the path of mapping keys and sequence indices joined by "->" (indices
// as "[0]"), as translate-toolkit names it ("errors->messages->blank",
// "day_names->[0]"). Null values are no unit; true/false are "True" and
// "False" and integers are given in decimal (Python's str() of what
// ruamel.yaml reads); a float or a date makes the file malformed, as it
// does in the reference. Aliases are no unit and merge keys ("<<") are
// skipped. A unit's note is the comment lines above its key in its own
// mapping (with the end-of-line comment of the sibling before it), '#'
// and blanks stripped, as translate-toolkit reads them.
//
// Files are parsed with gopkg.in/yaml.v3 for their structure and kept as
// bytes: an unedited file renders as read. An edit rewrites the edited
// scalar only, as ruamel.yaml (which translate-toolkit saves with) writes
// a string: a double-quoted, single-quoted, literal or folded scalar keeps
// its style (single quotes give way to double ones where they cannot
// hold the text); a plain one becomes a literal block when the new text
// has a line break, else plain when ruamel would write it plain (no
// indicator, no leading or trailing space, not read back as another
// type), else double-quoted when it has a "'", else single-quoted; long
// lines fold at spaces past column 80, as ruamel's default width does.
// An anchor stays, a tag goes. A ruby-yaml plural unit is rewritten whole
// as translate-toolkit writes it: one key per category of the language,
// empty forms as null unless all are empty. Add appends after the last
// entry of the deepest existing mapping or sequence, new levels as block
// mappings indented by two; Remove cuts the entry's lines with the comment
// lines right above it, and the mapping it leaves empty with it.
//
// Where this differs from the reference: translate-toolkit dumps the
// whole file with ruamel.yaml on every save (re-indenting it, writing an
// unedited `n: 5` as `n: '5'`, dropping the plural keys of other
// languages); here only what was edited changes. Plural forms are taken
// by category, a missing one empty (the reference shifts the others), and
// the categories are the service's plural of the language, named as in
// translate-toolkit's table where it has as many ("other", not "many",
// for Czech and its neighbours). Aliases are no unit; Add into a flow
// collection is an error and Remove from one reports false; a plural in
// a flow mapping cannot be edited. A new ruby-yaml translation gets the
// new language's code as its root key (the reference keeps the
// template's). A control character in a literal or folded value is
// written double-quoted (ruamel would write the block unreadable). Files
// with lone carriage-return line breaks, and value layouts whose bytes do
// not read back as the parser's value, are refused as malformed rather
// than edited wrong.
package yaml

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	yamlv3 "gopkg.in/yaml.v3"

	"github.com/tmsproject/tms/services/translation/formats/base"
)

// maxDepth is ruamel's max_depth as translate-toolkit sets it.
const maxDepth = 128

// Format is one YAML flavour.
type Format struct {
	id, name string
	ruby     bool
}

// The formats of this package.
var (
	YAML = Format{"yaml", "YAML file", false}
	Ruby = Format{"ruby-yaml", "Ruby YAML file", true}
)

// ID is the format's file_format identifier.
func (f Format) ID() string { return f.id }

// Name is the format's name as the reference shows it.
func (f Format) Name() string { return f.name }

// Monolingual reports true: the template holds the source strings.
func (Format) Monolingual() bool { return true }

// ContentType is the media type of a download.
func (Format) ContentType() string { return "text/yaml" }

// part is one step of a unit's path: a mapping key or a sequence index.
type part struct {
	key   string
	index int // -1 for a key
}

// scalarRef is where a unit's scalar is in the text.
type scalarRef struct {
	prop, start, end int    // properties (anchor, tag), text, end
	anchor           string // "&a " kept on an edit
	st               style
	parent           int  // column of the key or dash holding it
	flow             bool // inside a flow collection
	plainStr         bool // read as a plain string: a multi-line edit becomes a literal block
	value            string
}

// pluralRef is a ruby-yaml plural mapping: from its first key to the end
// of its last value, keys at column indent.
type pluralRef struct {
	start, end, indent int
	flow               bool
}

// unit is the format's handle of a base.Unit.
type unit struct {
	path []part
	sc   *scalarRef
	pl   *pluralRef
}

// File is a parsed YAML file.
type File struct {
	f     Format
	lang  base.Language
	tags  []string
	t     *text
	units []*base.Unit
	// root is the language key of a ruby-yaml file ("" when none).
	root string
}

// Units are the strings of the file in order.
func (f *File) Units() []*base.Unit { return f.units }

// RecordsFuzzy reports false: YAML has no fuzzy flag.
func (f *File) RecordsFuzzy() bool { return false }

// Bytes renders the file.
func (f *File) Bytes() []byte { return []byte(f.t.s) }

// Parse reads a file of language l.
func (f Format) Parse(data []byte, l base.Language) (base.File, error) {
	file := &File{f: f, lang: l, tags: pluralTags(l.Code)}
	if err := file.load(string(data)); err != nil {
		return nil, err
	}
	return file, nil
}

// load parses s into the file's units.
func (f *File) load(s string) error {
	if !utf8.ValidString(s) {
		return errors.New("yaml: the file is not valid UTF-8")
	}
	if strings.Count(s, "\r") != strings.Count(s, "\r\n") {
		return errors.New("yaml: line breaks of a carriage return alone are not supported")
	}
	root, err := decode(s)
	if err != nil {
		return err
	}
	w := &walker{f: f, t: newText(s), seen: map[string]bool{}}
	f.t, f.units, f.root = w.t, nil, ""
	if root == nil {
		return nil
	}
	owner := -1
	if content, key := f.languageRoot(root); content != nil {
		f.root, root, owner = key.Value, content, key.Line-1
	}
	if err := w.walk(root, nil, -1, false, 0, owner); err != nil {
		return err
	}
	f.units = w.units
	return nil
}

// decode parses one YAML document; nil for an empty one.
func decode(s string) (*yamlv3.Node, error) {
	dec := yamlv3.NewDecoder(strings.NewReader(s))
	var doc yamlv3.Node
	if err := dec.Decode(&doc); err != nil {
		if err.Error() == "EOF" {
			return nil, nil
		}
		return nil, fmt.Errorf("yaml: %w", err)
	}
	var more yamlv3.Node
	if err := dec.Decode(&more); err == nil {
		return nil, errors.New("yaml: the file holds more than one document")
	} else if err.Error() != "EOF" {
		return nil, fmt.Errorf("yaml: %w", err)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	return doc.Content[0], nil
}

// languageRoot is the content of a ruby-yaml file whose root mapping has
// a single key holding a mapping (or nothing): that key is the language.
func (f *File) languageRoot(root *yamlv3.Node) (*yamlv3.Node, *yamlv3.Node) {
	if !f.f.ruby || root.Kind != yamlv3.MappingNode || len(root.Content) != 2 {
		return nil, nil
	}
	k, v := root.Content[0], root.Content[1]
	if k.Kind != yamlv3.ScalarNode {
		return nil, nil
	}
	if v.Kind == yamlv3.MappingNode || v.Kind == yamlv3.ScalarNode && v.ShortTag() == "!!null" && v.Value == "" {
		return v, k
	}
	return nil, nil
}

// contextOf is the unit key of a path, as translate-toolkit joins it.
func contextOf(path []part) string {
	var b strings.Builder
	for i, p := range path {
		if i > 0 {
			b.WriteString("->")
		}
		if p.index >= 0 {
			fmt.Fprintf(&b, "[%d]", p.index)
		} else {
			b.WriteString(p.key)
		}
	}
	return b.String()
}

var errForeign = errors.New("yaml: unit of another file")

func handle(u *base.Unit) (*unit, error) {
	h, ok := u.Ref.(*unit)
	if !ok {
		return nil, errForeign
	}
	return h, nil
}

// splice replaces [a, b) of the text with r and moves every unit after
// it.
func (f *File) splice(a, b int, r string) {
	s := f.t.s[:a] + r + f.t.s[b:]
	d := len(r) - (b - a)
	f.t = newText(s)
	for _, u := range f.units {
		h, ok := u.Ref.(*unit)
		if !ok {
			continue
		}
		if sc := h.sc; sc != nil && sc.prop >= b {
			sc.prop, sc.start, sc.end = sc.prop+d, sc.start+d, sc.end+d
		}
		if pl := h.pl; pl != nil && pl.start >= b {
			pl.start, pl.end = pl.start+d, pl.end+d
		}
	}
}

// SetTarget stores the forms of a unit; an unchanged value keeps its
// bytes.
func (f *File) SetTarget(u *base.Unit, forms []string, _ bool) error {
	h, err := handle(u)
	if err != nil {
		return err
	}
	if h.pl != nil {
		if err := f.setPlural(h, forms); err != nil {
			return err
		}
		u.Target = f.pluralForms(forms)
		return nil
	}
	if len(forms) != 1 {
		return fmt.Errorf("yaml: %q has one form, got %d", u.Context, len(forms))
	}
	if err := f.setScalar(h.sc, forms[0]); err != nil {
		return fmt.Errorf("yaml: %q: %w", u.Context, err)
	}
	u.Target = []string{forms[0]}
	return nil
}

// setScalar rewrites a scalar with value v, checking that the bytes it
// replaces hold the old value and that the new ones read back as v.
func (f *File) setScalar(sc *scalarRef, v string) error {
	if sc.value == v {
		return nil
	}
	want := sc.st
	if sc.plainStr && strings.Contains(v, "\n") {
		want = lit
	}
	st := chooseStyle(v, want, sc.flow)
	col := f.t.column(sc.prop) + utf8.RuneCountInString(sc.anchor)
	r := render(v, st, col, sc.parent+2, f.t.nl)
	if got, ok := readScalar(r, sc.parent, sc.flow, false); !ok || got != v {
		return fmt.Errorf("%q cannot be written as YAML here", v)
	}
	end := sc.end
	if st == lit || st == folded {
		r, end = f.blockTail(r, end)
	}
	f.splice(sc.prop, end, sc.anchor+r)
	sc.start = sc.prop + len(sc.anchor)
	sc.end = sc.start + len(strings.TrimSuffix(r, f.t.nl))
	sc.st, sc.value, sc.plainStr = st, v, st == plain
	return nil
}

// blockTail fits block scalar r into the line it replaces a scalar of,
// which ends at end: the rest of that line (blanks, a comment) would be
// read as content, so blanks go and a comment moves to the header line,
// where ruamel writes it; at the end of a file without a final line break
// the block gets one.
func (f *File) blockTail(r string, end int) (string, int) {
	le := f.t.lineEnd(end)
	if rest := f.t.s[end:le]; strings.TrimSpace(rest) != "" {
		h := strings.Index(r, f.t.nl)
		r = r[:h] + rest + r[h:]
	}
	if le == len(f.t.s) {
		r += f.t.nl
	}
	return r, le
}

// readScalar decodes the text of a scalar in its context (the indentation
// of its parent, a flow collection or not, at the end of the file or
// not); false when it is no scalar.
func readScalar(s string, parent int, flow, eof bool) (string, bool) {
	pad := strings.Repeat(" ", max(parent, 0))
	doc := pad + "k: " + s
	if flow {
		doc = pad + "k: [" + s + "]"
	}
	root := parent < 0 && !flow // the document's root: read as it stands
	if root {
		doc = s
	}
	if !eof {
		doc += "\n"
	}
	var n yamlv3.Node
	if err := yamlv3.Unmarshal([]byte(doc), &n); err != nil || len(n.Content) != 1 {
		return "", false
	}
	v := n.Content[0]
	if !root {
		if v.Kind != yamlv3.MappingNode || len(v.Content) != 2 {
			return "", false
		}
		v = v.Content[1]
	}
	if flow {
		if v.Kind != yamlv3.SequenceNode || len(v.Content) != 1 {
			return "", false
		}
		v = v.Content[0]
	}
	if v.Kind != yamlv3.ScalarNode {
		return "", false
	}
	if v.Style&(yamlv3.DoubleQuotedStyle|yamlv3.SingleQuotedStyle|yamlv3.LiteralStyle|yamlv3.FoldedStyle) == 0 {
		if k := resolvePlain(v.Value); k == kBool || k == kInt {
			return pythonText(v.Value, k), true
		}
	}
	return v.Value, true
}

// pluralForms are forms fitted to the language's categories.
func (f *File) pluralForms(forms []string) []string {
	out := make([]string, len(f.tags))
	copy(out, forms)
	return out
}

// setPlural rewrites a plural mapping as translate-toolkit's RubyYAMLUnit
// writes it: the language's categories in order, empty forms null unless
// every form is empty.
func (f *File) setPlural(h *unit, forms []string) error {
	forms = f.pluralForms(forms)
	pl := h.pl
	if pl.flow {
		return errors.New("yaml: a plural in a flow mapping cannot be edited")
	}
	if f.pluralText(pl) == strings.Join(forms, "\x00") {
		return nil
	}
	some := slices.ContainsFunc(forms, func(s string) bool { return s != "" })
	var b strings.Builder
	for i, tag := range f.tags {
		if i > 0 {
			b.WriteString(f.t.nl + strings.Repeat(" ", pl.indent))
		}
		b.WriteString(tag + ":")
		if forms[i] == "" && some {
			continue
		}
		st := chooseStyle(forms[i], plain, false)
		b.WriteString(" " + render(forms[i], st, pl.indent+len(tag)+2, pl.indent+2, f.t.nl))
	}
	old := f.t.s
	f.splice(pl.start, pl.end, b.String())
	if err := f.reload(); err != nil {
		f.t = newText(old)
		_ = f.reload()
		return err
	}
	return nil
}

// pluralText is the forms a plural unit holds now, joined by NUL.
func (f *File) pluralText(pl *pluralRef) string {
	for _, u := range f.units {
		if h, ok := u.Ref.(*unit); ok && h.pl == pl {
			return strings.Join(u.Target, "\x00")
		}
	}
	return ""
}

// reload parses the text again and hands the units' new places to the
// Units the caller holds, matched by key.
func (f *File) reload() error {
	old := f.units
	if err := f.load(f.t.s); err != nil {
		return err
	}
	byKey := map[string]*base.Unit{}
	for _, u := range old {
		byKey[u.Context] = u
	}
	for i, u := range f.units {
		if o := byKey[u.Context]; o != nil {
			o.Ref, o.Target, o.Note = u.Ref, u.Target, u.Note
			f.units[i] = o
		}
	}
	return nil
}

// NewTranslation is base with every value emptied (written ” as
// ruamel.yaml writes an empty string, or in the value's own quotes), and
// for ruby-yaml the language key replaced by the new language's code; an
// empty base gives "{}", as Weblate writes it.
func (f Format) NewTranslation(data []byte, l base.Language) ([]byte, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return []byte("{}\n"), nil
	}
	pf, err := f.Parse(data, l)
	if err != nil {
		return nil, err
	}
	file := pf.(*File)
	for _, u := range slices.Clone(file.units) {
		forms := []string{""}
		if h := u.Ref.(*unit); h.pl != nil {
			forms = make([]string, len(file.tags))
		}
		if err := file.SetTarget(u, forms, false); err != nil {
			return nil, err
		}
	}
	if file.root != "" {
		if err := file.renameRoot(l.Code); err != nil {
			return nil, err
		}
	}
	return file.Bytes(), nil
}

// renameRoot writes code in place of the language key of a ruby-yaml
// file.
func (f *File) renameRoot(code string) error {
	root, err := decode(f.t.s)
	if err != nil {
		return err
	}
	k := root.Content[0]
	start := f.t.offset(k.Line, k.Column)
	st := plain
	switch {
	case k.Style&yamlv3.DoubleQuotedStyle != 0:
		st = double
	case k.Style&yamlv3.SingleQuotedStyle != 0:
		st = single
	}
	end := f.t.scalarEnd(start, st, -1, false)
	key := code
	if ks := keyStyle(code); ks != plain {
		key = render(code, ks, 0, 2, f.t.nl)
	}
	f.splice(start, end, key)
	return f.reload()
}
