// Package xmltree is the small lossless XML reader the XML-based formats
// share: a document becomes a tree of nodes that remember the byte spans
// they were read from, so a format can re-render what it edits and copy
// every other byte as read. It also holds the escaping lxml applies when
// translate-toolkit writes text and attributes, which the formats copy.
package xmltree

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Node kinds.
const (
	Element   = 'e'
	Text      = 't' // character data, CDATA included
	Comment   = 'c'
	ProcInst  = 'p'
	Directive = 'd'
)

// Node is a node of a parsed XML document, with the byte span it was
// read from.
type Node struct {
	Kind  byte
	Name  string // qualified name of an element, target of an instruction
	Attrs []xml.Attr
	Text  string // decoded text, comment body, instruction
	Kids  []*Node
	// Start and End delimit the node; an element's start tag ends at
	// Open, its end tag begins at Close (Open == Close == End when the
	// tag closes itself).
	Start, Open, Close, End int
	SelfClosing             bool
}

// QName is a name as written: prefix:local, or local.
func QName(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

// Local is the local part of a qualified name.
func Local(name string) string {
	if i := strings.IndexByte(name, ':'); i >= 0 {
		return name[i+1:]
	}
	return name
}

// Attr is the value of an attribute by qualified name, and whether it is
// there.
func (n *Node) Attr(name string) (string, bool) {
	for _, a := range n.Attrs {
		if QName(a.Name) == name {
			return a.Value, true
		}
	}
	return "", false
}

// ErrNotDocument is the error of input that is no document of a single
// root element (text outside it, none or several roots).
var ErrNotDocument = errors.New("not an XML document with one root element")

// Parse reads a document (offsets counted from base) into its top-level
// nodes: the prolog, the root element and what follows it. A fragment
// may have text and any number of elements at the top.
func Parse(data []byte, base int, fragment bool) ([]*Node, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	var top, stack []*Node
	prev, roots := 0, 0
	for {
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		end := int(d.InputOffset())
		n := &Node{Start: base + prev, End: base + end}
		switch t := tok.(type) {
		case xml.StartElement:
			n.Kind, n.Name, n.Attrs = Element, QName(t.Name), append([]xml.Attr(nil), t.Attr...)
			n.Open = n.End
			n.SelfClosing = bytes.HasSuffix(data[prev:end], []byte("/>"))
		case xml.EndElement:
			if len(stack) == 0 || stack[len(stack)-1].Name != QName(t.Name) {
				return nil, fmt.Errorf("unexpected </%s>", QName(t.Name))
			}
			e := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			e.Close, e.End = base+prev, base+end
			if e.SelfClosing {
				e.Close = e.Open
			}
			prev = end
			continue
		case xml.CharData:
			n.Kind, n.Text = Text, string(t)
		case xml.Comment:
			n.Kind, n.Text = Comment, string(t)
		case xml.ProcInst:
			n.Kind, n.Name, n.Text = ProcInst, t.Target, string(t.Inst)
		case xml.Directive:
			n.Kind, n.Text = Directive, string(t)
		}
		prev = end
		if len(stack) > 0 {
			p := stack[len(stack)-1]
			p.Kids = append(p.Kids, n)
		} else {
			switch {
			case n.Kind == Element:
				roots++
			case n.Kind == Text && strings.TrimSpace(n.Text) != "" && !fragment:
				return nil, ErrNotDocument
			}
			top = append(top, n)
		}
		if n.Kind == Element {
			stack = append(stack, n)
		}
	}
	if len(stack) > 0 {
		return nil, fmt.Errorf("<%s> is not closed", stack[len(stack)-1].Name)
	}
	if roots != 1 && !fragment {
		return nil, ErrNotDocument
	}
	return top, nil
}

// Root is the root element among a document's top-level nodes.
func Root(top []*Node) *Node {
	for _, n := range top {
		if n.Kind == Element {
			return n
		}
	}
	return nil
}

// TextEscaper escapes text content as lxml writes it.
var TextEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#13;")

// AttrEscaper escapes an attribute value as lxml writes it.
var AttrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;",
	"\n", "&#10;", "\r", "&#13;", "\t", "&#9;")

// ValidXML reports whether s holds only characters XML allows (lxml
// refuses to write others).
func ValidXML(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if (r < 0x20 && r != '\t' && r != '\n' && r != '\r') || r == 0xfffe || r == 0xffff {
			return false
		}
	}
	return true
}

// StartTag is the start tag of an element without its closing ">" or
// "/>", as read from s.
func StartTag(s string, n *Node) string {
	t := s[n.Start:n.Open]
	if n.SelfClosing {
		return strings.TrimRight(strings.TrimSuffix(t, "/>"), " \t\r\n")
	}
	return strings.TrimSuffix(t, ">")
}

// LineIndent is the whitespace after the last line break of ws, def when
// ws is not a line break and indentation.
func LineIndent(ws, def string) string {
	i := strings.LastIndexByte(ws, '\n')
	if i < 0 || strings.TrimSpace(ws) != "" {
		return def
	}
	return ws[i+1:]
}
