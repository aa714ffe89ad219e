// Package xliffmarkup holds what the XLIFF formats (1.2 and 2.0) share:
// the strings of <source> and <target> as Weblate's rich XLIFF units show
// them (translate-toolkit's placeables), the content written for a value,
// start tag attribute edits as lxml makes them, and the flags Weblate
// reads from an element's attributes.
package xliffmarkup

import (
	"errors"
	"regexp"
	"strings"
	"unicode"

	"github.com/tmsproject/tms/services/translation/formats/internal/xmltree"
)

// elem is a node as lxml holds it: an element with its text (before the
// first child) and children, each child with its tail (the text after
// it). Comments and processing instructions are children with no name.
type elem struct {
	name       string
	attrs      []attr
	space      string // the element's own xml:space
	text, tail string
	kids       []*elem
	comment    bool
}

type attr struct{ name, value string }

// ErrInvalidChars is the error of a value with characters XML does not
// allow (lxml refuses to write them).
var ErrInvalidChars = errors.New("the text has characters XML does not allow")

// tree builds the lxml view of an element's content.
func tree(n *xmltree.Node) *elem {
	e := &elem{name: xmltree.Local(n.Name)}
	for _, a := range n.Attrs {
		name := xmltree.QName(a.Name)
		e.attrs = append(e.attrs, attr{name, a.Value})
		if name == "xml:space" {
			e.space = a.Value
		}
	}
	var last *elem
	for _, k := range n.Kids {
		switch {
		case k.Kind == xmltree.Text && last == nil:
			e.text += k.Text
		case k.Kind == xmltree.Text:
			last.tail += k.Text
		case k.Kind == xmltree.Element:
			last = tree(k)
			e.kids = append(e.kids, last)
		default: // comment, instruction: a child the rich string skips
			last = &elem{comment: true}
			e.kids = append(e.kids, last)
		}
	}
	return e
}

var whitespaceRun = regexp.MustCompile(`[\n\r\t ]+`)

// pySpace is Python's str.isspace, which strip() uses.
func pySpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

// normalize is translate-toolkit's normalize_xml_space: outside
// xml:space="preserve" whitespace runs collapse to one space, the text
// of an element loses its leading space (when removeStart) and, without
// children, its trailing one. Children are normalized without removing
// their leading space, as the reference's recursive call passes its flag
// where the space mode belongs.
func normalize(e *elem, space string, removeStart bool) {
	if e.space != "" {
		space = e.space
	}
	if space == "preserve" {
		return
	}
	if e.text != "" {
		e.text = whitespaceRun.ReplaceAllString(e.text, " ")
		if removeStart && e.text[0] == ' ' {
			e.text = strings.TrimLeftFunc(e.text, pySpace)
		}
		if len(e.kids) == 0 {
			e.text = strings.TrimRightFunc(e.text, pySpace)
		}
	}
	if e.tail != "" {
		e.tail = whitespaceRun.ReplaceAllString(e.tail, " ")
	}
	for _, k := range e.kids {
		normalize(k, "", false)
	}
}

// RichString is the content of a <source> or <target> as Weblate's
// RichXliffUnit shows it (rich_to_xliff_string of translate-toolkit's
// placeables): whitespace normalized unless preserved (space is the
// trans-unit's mode), comments dropped with the text after them, inline
// elements serialized by lxml (attributes double-quoted, empty elements
// closed in their start tag, <g> and <x> with id first).
func RichString(n *xmltree.Node, space string) string {
	e := tree(n)
	var b strings.Builder
	content(&b, e, space)
	return b.String()
}

// content writes the placeables of an element (xml_to_strelem), which
// normalizes it again with its leading space removed.
func content(b *strings.Builder, e *elem, space string) {
	if e.space != "" {
		space = e.space
	}
	normalize(e, space, true)
	b.WriteString(xmltree.TextEscaper.Replace(e.text))
	for _, k := range e.kids {
		if k.comment {
			continue
		}
		placeable(b, k, space)
		b.WriteString(xmltree.TextEscaper.Replace(k.tail))
	}
}

// placeable writes one inline element as translate-toolkit rebuilds it:
// <x>, <bx> and <ex> empty (with no attributes when they lack an id),
// <g> and the elements it does not know with their content.
func placeable(b *strings.Builder, e *elem, space string) {
	attrs := e.attrs
	switch e.name {
	case "x", "bx", "ex", "g":
		if _, ok := find(attrs, "id"); !ok {
			if e.name != "g" {
				attrs = nil
			}
			break
		}
		attrs = idFirst(attrs)
	}
	b.WriteString("<" + e.name)
	for _, a := range attrs {
		b.WriteString(" " + a.name + `="` + xmltree.AttrEscaper.Replace(a.value) + `"`)
	}
	if e.name == "x" || e.name == "bx" || e.name == "ex" {
		b.WriteString("/>")
		return
	}
	var inner strings.Builder
	content(&inner, e, space)
	if inner.Len() == 0 {
		b.WriteString("/>")
		return
	}
	b.WriteString(">" + inner.String() + "</" + e.name + ">")
}

func find(attrs []attr, name string) (string, bool) {
	for _, a := range attrs {
		if a.name == name {
			return a.value, true
		}
	}
	return "", false
}

// idFirst orders attributes as translate-toolkit sets them on a rebuilt
// placeable: id, xid and rid first, then the others as read.
func idFirst(attrs []attr) []attr {
	var out []attr
	for _, name := range []string{"id", "xid", "rid"} {
		if v, ok := find(attrs, name); ok {
			out = append(out, attr{name, v})
		}
	}
	for _, a := range attrs {
		if a.name != "id" && a.name != "xid" && a.name != "rid" {
			out = append(out, a)
		}
	}
	return out
}

// WriteContent is the content Weblate writes into a <target> for a value
// (xliff_string_to_rich): a value that parses as XML content keeps its
// inline elements, rebuilt as placeables; any other is plain text,
// escaped. Whitespace is kept (the unit is marked xml:space="preserve").
func WriteContent(value string) (string, error) {
	if !xmltree.ValidXML(value) {
		return "", ErrInvalidChars
	}
	top, err := xmltree.Parse([]byte("<source>"+value+"</source>"), 0, false)
	if err != nil {
		return xmltree.TextEscaper.Replace(value), nil
	}
	return RichString(xmltree.Root(top), "preserve"), nil
}
