// Package aresource is the Android string resource format of the
// registry (file_format "aresource"): res/values*/strings.xml, read and
// written as translate-toolkit's AndroidResourceFile does.
//
// Units are the <string> and <plurals> children of <resources> with a
// name and without translatable="false"; the name is the unit's key and
// the comments right before an element its note. A <plurals> unit has a
// form per CLDR category of the file's language (<item quantity>).
// <string-array> is no unit (translate-toolkit reads none), and neither
// are other elements: they are kept as read.
//
// Values are decoded with Android's escaping (quotes, whitespace
// collapsing, \n, \t, \uXXXX, \', \", \@, \?) and CDATA; markup inside a
// string (<b>, <xliff:g>) is part of the value. An edit rewrites only the
// edited element's content, escaped as translate-toolkit escapes it;
// everything else keeps its bytes.
//
// Where this differs from the reference: translate-toolkit re-indents
// the whole document on every save, and this keeps the file's layout
// (new elements take the indentation of their neighbours); markup in a
// value is serialized without the namespace declarations lxml repeats on
// a prefixed element (<xliff:g> rather than <xliff:g xmlns:xliff=...>);
// entities a DOCTYPE declares are not expanded (a file using them does
// not parse); new translations keep the template's layout.
package aresource

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tmsproject/tms/pkg/lang"
	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/internal/xmltree"
)

// Format is the Android string resource format.
type Format struct{}

// skeleton is the file translate-toolkit (and Weblate) starts a new
// translation from.
const skeleton = "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<resources></resources>"

// declaration is the XML declaration translate-toolkit writes.
const declaration = `<?xml version="1.0" encoding="utf-8"?>`

// indentUnit is translate-toolkit's indentation of the document.
const indentUnit = "    "

// ID is the format's file_format identifier.
func (Format) ID() string { return "aresource" }

// Name is the format's name as the reference shows it.
func (Format) Name() string { return "Android String Resource" }

// Monolingual reports true: the template (values/strings.xml) holds the source strings.
func (Format) Monolingual() bool { return true }

// ContentType is the media type of a download.
func (Format) ContentType() string { return "application/xml" }

// piece is a span of the file: bytes kept as read, or a unit's element.
type piece struct {
	raw string
	el  *element
}

// element is a <string>, <plurals> or <item>: its bytes as read until it
// is edited, then its start tag and new content.
type element struct {
	tag   string
	raw   string
	dirty bool
	open  string // the start tag without its closing ">" or "/>"
	// content is the escaped content of a <string> or <item>; inner the
	// pieces of a <plurals>.
	content string
	inner   []piece
	// quantity and value of an <item>.
	quantity, value string
	// ind is the indentation of the element's line.
	ind string
}

func (e *element) render(b *strings.Builder) {
	if !e.dirty {
		b.WriteString(e.raw)
		return
	}
	b.WriteString(e.open + ">")
	if e.tag == "plurals" {
		render(b, e.inner)
	} else {
		b.WriteString(e.content)
	}
	b.WriteString("</" + e.tag + ">")
}

func render(b *strings.Builder, ps []piece) {
	for _, p := range ps {
		if p.el != nil {
			p.el.render(b)
		} else {
			b.WriteString(p.raw)
		}
	}
}

// File is a parsed Android string resource file.
type File struct {
	tags  []string
	head  string // through the start tag of <resources>
	body  []piece
	tail  string // from the end tag of <resources>
	units []*base.Unit
	ids   map[string]bool
	// selfClosed is head without its "/>" when the file is <resources/>,
	// which is opened when a unit is added.
	selfClosed string
}

// Parse reads a file of the given language (its plural categories).
func (f Format) Parse(data []byte, l base.Language) (base.File, error) {
	off := 0
	if strings.HasPrefix(string(data), "\ufeff") {
		off = 3
	}
	top, err := parseXML(data[off:], off, false)
	if err != nil {
		return nil, err
	}
	var root *xnode
	for _, n := range top {
		if n.Kind == xmltree.Element {
			root = n
		}
	}
	if root.Name != "resources" {
		return nil, errRoot
	}
	s := string(data)
	file := &File{tags: lang.PluralTags(l.Code), ids: map[string]bool{}}
	file.head, file.tail = s[:root.Open], s[root.Close:]
	if root.SelfClosing {
		file.selfClosed = s[:root.Start] + startTag(s, root)
	}
	for i, k := range root.Kids {
		p := piece{raw: s[k.Start:k.End]}
		if name, ok := k.Attr("name"); ok && name != "" && (k.Name == "string" || k.Name == "plurals") && k.Kind == xmltree.Element {
			if tr, _ := k.Attr("translatable"); tr != "false" && !file.ids[name] {
				el, forms, err := file.element(s, k)
				if err != nil {
					return nil, fmt.Errorf("aresource: %q: %w", name, err)
				}
				if i > 0 {
					el.ind = lineIndent(s[root.Kids[i-1].Start:root.Kids[i-1].End], indentUnit)
				}
				p.el = el
				file.ids[name] = true
				file.units = append(file.units, &base.Unit{Context: name, Target: forms, Note: notes(root.Kids[:i]), Ref: el})
			}
		}
		file.body = append(file.body, p)
	}
	return file, nil
}

// notes are the comments right before an element (text between them
// aside), as translate-toolkit reads a unit's developer notes.
func notes(before []*xnode) string {
	var out []string
	for i := len(before) - 1; i >= 0; i-- {
		switch before[i].Kind {
		case xmltree.Text:
			continue
		case xmltree.Comment:
			out = append(out, before[i].Text)
			continue
		}
		break
	}
	slices.Reverse(out)
	return strings.Join(out, "\n")
}

// element builds the handle of a unit's element and reads its forms.
func (f *File) element(s string, n *xnode) (*element, []string, error) {
	el := &element{tag: n.Name, raw: s[n.Start:n.End], open: startTag(s, n), ind: indentUnit}
	if n.Name == "string" {
		v, err := readValue(n)
		return el, []string{v}, err
	}
	byTag := map[string]string{}
	for _, k := range n.Kids {
		p := piece{raw: s[k.Start:k.End]}
		if k.Kind == xmltree.Element && k.Name == "item" {
			q, _ := k.Attr("quantity")
			v, err := readValue(k)
			if err != nil {
				return nil, nil, err
			}
			p.el = &element{tag: "item", raw: p.raw, open: startTag(s, k), quantity: q, value: v}
			byTag[q] = v
		}
		el.inner = append(el.inner, p)
	}
	forms := make([]string, len(f.tags))
	for i, t := range f.tags {
		forms[i] = byTag[t]
	}
	return el, forms, nil
}

// Units are the translatable strings of the file in order.
func (f *File) Units() []*base.Unit { return f.units }

// RecordsFuzzy reports false: Android resources have no fuzzy flag.
func (f *File) RecordsFuzzy() bool { return false }

// Bytes renders the file.
func (f *File) Bytes() []byte {
	var b strings.Builder
	b.WriteString(f.head)
	render(&b, f.body)
	b.WriteString(f.tail)
	return []byte(b.String())
}

var errForeign = errors.New("aresource: unit of another file")

// SetTarget stores the forms of a unit; an unchanged value keeps its bytes.
func (f *File) SetTarget(u *base.Unit, forms []string, _ bool) error {
	el, ok := u.Ref.(*element)
	if !ok {
		return errForeign
	}
	if el.tag == "string" {
		if len(forms) != 1 {
			return fmt.Errorf("aresource: %q has one form, got %d", u.Context, len(forms))
		}
		if len(u.Target) == 1 && u.Target[0] == forms[0] {
			return nil
		}
		c, err := writeValue(forms[0])
		if err != nil {
			return err
		}
		el.content, el.dirty = c, true
		u.Target = []string{forms[0]}
		return nil
	}
	forms = append([]string(nil), forms...)
	for len(forms) < len(f.tags) {
		forms = append(forms, "")
	}
	forms = forms[:len(f.tags)]
	if slices.Equal(forms, u.Target) {
		return nil
	}
	if err := f.setPlural(el, forms); err != nil {
		return err
	}
	u.Target = forms
	return nil
}

// setPlural writes the forms into the items of the language's categories
// (with "other" a copy of "many" where the language has no "other", as
// translate-toolkit writes it for Android): items already there in that
// order keep their bytes unless their value changes; otherwise the items
// are written anew.
func (f *File) setPlural(el *element, forms []string) error {
	tags := f.tags
	if !slices.Contains(tags, "other") && slices.Contains(tags, "many") {
		tags = append(slices.Clone(tags), "other")
		forms = append(forms, forms[len(forms)-1])
	}
	var items []*element
	for _, p := range el.inner {
		if p.el != nil {
			items = append(items, p.el)
		}
	}
	same := len(items) == len(tags)
	for i := 0; same && i < len(items); i++ {
		same = items[i].quantity == tags[i]
	}
	if same {
		for i, it := range items {
			if it.value != forms[i] {
				if err := it.set(forms[i]); err != nil {
					return err
				}
				el.dirty = true
			}
		}
		return nil
	}
	ind := childIndent(el.ind)
	for i, p := range el.inner {
		if p.el != nil {
			if i > 0 {
				ind = lineIndent(el.inner[i-1].raw, ind)
			}
			break
		}
	}
	inner, err := plurals(tags, forms, ind, el.ind)
	if err != nil {
		return err
	}
	el.inner, el.dirty = inner, true
	return nil
}

// plurals are the pieces of the content of a <plurals> written anew.
func plurals(tags, forms []string, ind, closing string) ([]piece, error) {
	var inner []piece
	for i, t := range tags {
		it := &element{tag: "item", open: `<item quantity="` + attrEscaper.Replace(t) + `"`, quantity: t}
		if err := it.set(forms[i]); err != nil {
			return nil, err
		}
		inner = append(inner, piece{raw: "\n" + ind}, piece{el: it})
	}
	return append(inner, piece{raw: "\n" + closing}), nil
}

func (e *element) set(v string) error {
	c, err := writeValue(v)
	if err != nil {
		return err
	}
	e.content, e.value, e.dirty = c, v, true
	return nil
}

// childIndent is the indentation of the items of an element indented
// by ind: one more level of the file's own indentation.
func childIndent(ind string) string {
	if ind == "" {
		return indentUnit
	}
	return ind + ind
}

// Add appends a unit as the last child of <resources>: a <string>, or a
// <plurals> when it has several forms.
func (f *File) Add(u *base.Unit) error {
	forms, err := base.AddForms("aresource", u, f.ids[u.Context])
	if err != nil {
		return err
	}
	last := -1
	for i, p := range f.body {
		if p.el != nil || strings.TrimSpace(p.raw) != "" {
			last = i
		}
	}
	ind := indentUnit
	if last > 0 {
		ind = lineIndent(f.body[last-1].raw, indentUnit)
	}
	el := &element{tag: "string", dirty: true, ind: ind, open: `<string name="` + attrEscaper.Replace(u.Context) + `"`}
	if len(forms) > 1 {
		el.tag, el.open = "plurals", `<plurals name="`+attrEscaper.Replace(u.Context)+`"`
	}
	nu := &base.Unit{Context: u.Context, Ref: el}
	if el.tag == "string" {
		nu.Target = []string{""}
	}
	if err := f.SetTarget(nu, forms, false); err != nil {
		return err
	}
	if f.selfClosed != "" {
		f.head, f.tail, f.selfClosed = f.selfClosed+">", "</resources>"+f.tail, ""
	}
	if last < 0 {
		f.body = []piece{{raw: "\n" + ind}, {el: el}, {raw: "\n"}}
	} else {
		f.body = slices.Insert(f.body, last+1, piece{raw: "\n" + ind}, piece{el: el})
	}
	f.ids[u.Context] = true
	u.Ref, u.Source, u.Target = el, nil, nu.Target
	f.units = append(f.units, u)
	return nil
}

// Remove drops a unit's element and the line break and indentation
// before it.
func (f *File) Remove(u *base.Unit) bool {
	el, ok := u.Ref.(*element)
	if !ok {
		return false
	}
	i := slices.IndexFunc(f.body, func(p piece) bool { return p.el == el })
	if i < 0 {
		return false
	}
	f.body = slices.Delete(f.body, i, i+1)
	if i > 0 {
		if prev := f.body[i-1]; prev.el == nil && strings.TrimSpace(prev.raw) == "" {
			if j := strings.LastIndexByte(prev.raw, '\n'); j >= 0 {
				f.body[i-1].raw = prev.raw[:j]
			}
		}
	}
	f.units = slices.DeleteFunc(f.units, func(x *base.Unit) bool { return x == u })
	delete(f.ids, u.Context)
	return true
}

// NewTranslation is base with every translatable value emptied (plurals
// with the items of lang's categories), under translate-toolkit's XML
// declaration; an empty base gives the reference's empty file.
func (f Format) NewTranslation(data []byte, l base.Language) ([]byte, error) {
	if strings.TrimSpace(strings.TrimPrefix(string(data), "\ufeff")) == "" {
		return []byte(skeleton), nil
	}
	pf, err := f.Parse(data, l)
	if err != nil {
		return nil, err
	}
	file := pf.(*File)
	for _, u := range file.units {
		forms := []string{""}
		if u.Ref.(*element).tag == "plurals" {
			forms = make([]string, len(file.tags))
		}
		if err := file.SetTarget(u, forms, false); err != nil {
			return nil, err
		}
	}
	head := strings.TrimPrefix(file.head, "\ufeff")
	if strings.HasPrefix(head, "<?xml") {
		if i := strings.Index(head, "?>"); i >= 0 {
			head = head[i+2:]
		}
	}
	file.head = declaration + "\n" + strings.TrimLeft(head, " \t\r\n")
	return file.Bytes(), nil
}
