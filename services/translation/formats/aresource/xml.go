package aresource

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// xnode is a node of a parsed XML document, with the byte span it was
// read from.
type xnode struct {
	kind  byte // 'e' element, 't' text (CDATA included), 'c' comment, 'p' processing instruction, 'd' directive
	name  string
	attrs []xml.Attr
	text  string // decoded text, comment body, instruction
	kids  []*xnode
	// start and end delimit the node; an element's start tag ends at
	// open, its end tag begins at close (open == close == end when the
	// tag closes itself).
	start, open, close, end int
	selfClosing             bool
}

func qname(n xml.Name) string {
	if n.Space != "" {
		return n.Space + ":" + n.Local
	}
	return n.Local
}

// attr is the value of an attribute, "" when absent.
func (n *xnode) attr(name string) (string, bool) {
	for _, a := range n.attrs {
		if qname(a.Name) == name {
			return a.Value, true
		}
	}
	return "", false
}

var errRoot = errors.New("aresource: the file is not an Android <resources> document")

// parseXML reads a document (offsets counted from base) into its
// top-level nodes: the prolog, the root element and what follows it.
func parseXML(data []byte, base int, fragment bool) ([]*xnode, error) {
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	var top []*xnode
	var stack []*xnode
	prev := 0
	roots := 0
	for {
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("aresource: %w", err)
		}
		end := int(d.InputOffset())
		n := &xnode{start: base + prev, end: base + end}
		switch t := tok.(type) {
		case xml.StartElement:
			n.kind, n.name, n.attrs = 'e', qname(t.Name), append([]xml.Attr(nil), t.Attr...)
			n.open = n.end
			n.selfClosing = bytes.HasSuffix(data[prev:end], []byte("/>"))
		case xml.EndElement:
			if len(stack) == 0 || stack[len(stack)-1].name != qname(t.Name) {
				return nil, fmt.Errorf("aresource: unexpected </%s>", qname(t.Name))
			}
			e := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			e.close, e.end = base+prev, base+end
			if e.selfClosing {
				e.close = e.open
			}
			prev = end
			continue
		case xml.CharData:
			n.kind, n.text = 't', string(t)
		case xml.Comment:
			n.kind, n.text = 'c', string(t)
		case xml.ProcInst:
			n.kind, n.name, n.text = 'p', t.Target, string(t.Inst)
		case xml.Directive:
			n.kind, n.text = 'd', string(t)
		}
		prev = end
		if len(stack) > 0 {
			p := stack[len(stack)-1]
			p.kids = append(p.kids, n)
		} else {
			switch {
			case n.kind == 'e':
				roots++
			case n.kind == 't' && strings.TrimSpace(n.text) != "" && !fragment:
				return nil, errRoot
			}
			top = append(top, n)
		}
		if n.kind == 'e' {
			stack = append(stack, n)
		}
	}
	if len(stack) > 0 {
		return nil, fmt.Errorf("aresource: <%s> is not closed", stack[len(stack)-1].name)
	}
	if roots != 1 && !fragment {
		return nil, errRoot
	}
	return top, nil
}

// textEscaper escapes text content as lxml writes it.
var textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#13;")

// attrEscaper escapes an attribute value as lxml writes it.
var attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;",
	"\n", "&#10;", "\r", "&#13;", "\t", "&#9;")

// validXML reports whether s holds only characters XML allows (lxml
// refuses to write others).
func validXML(s string) bool {
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

// markup serializes the nodes of a string's content the way lxml does
// (double-quoted attributes, empty elements closed in their start tag),
// after passing every text, tail and comment through conv: the
// reference's unescaping when a unit is read, its escaping when one is
// written. leading is the text before the first child, which the caller
// handles.
func markup(kids []*xnode, conv func(string) (string, error)) (leading string, rest string, err error) {
	var b strings.Builder
	i := 0
	var lead strings.Builder
	for ; i < len(kids) && kids[i].kind == 't'; i++ {
		lead.WriteString(kids[i].text)
	}
	for i < len(kids) {
		k := kids[i]
		i++
		switch k.kind {
		case 'e':
			b.WriteString("<" + k.name)
			for _, a := range k.attrs {
				b.WriteString(" " + qname(a.Name) + `="` + attrEscaper.Replace(a.Value) + `"`)
			}
			if len(k.kids) == 0 {
				b.WriteString("/>")
				break
			}
			b.WriteString(">")
			head, inner, err := markup(k.kids, conv)
			if err != nil {
				return "", "", err
			}
			if hasText(k.kids) {
				head, err = conv(head)
				if err != nil {
					return "", "", err
				}
				b.WriteString(textEscaper.Replace(head))
			}
			b.WriteString(inner + "</" + k.name + ">")
		case 'c':
			t, err := conv(k.text)
			if err != nil {
				return "", "", err
			}
			b.WriteString("<!--" + t + "-->")
		case 'p':
			t, err := conv(k.text)
			if err != nil {
				return "", "", err
			}
			if t != "" {
				t = " " + t
			}
			b.WriteString("<?" + k.name + t + "?>")
		case 'd':
			return "", "", errors.New("aresource: a directive inside a string")
		}
		var tail strings.Builder
		had := false
		for ; i < len(kids) && kids[i].kind == 't'; i++ {
			tail.WriteString(kids[i].text)
			had = true
		}
		if had {
			t, err := conv(tail.String())
			if err != nil {
				return "", "", err
			}
			b.WriteString(textEscaper.Replace(t))
		}
	}
	return lead.String(), b.String(), nil
}

func hasText(kids []*xnode) bool { return len(kids) > 0 && kids[0].kind == 't' }

func hasMarkup(kids []*xnode) bool {
	for _, k := range kids {
		if k.kind != 't' {
			return true
		}
	}
	return false
}

// readValue is the text of a <string> or <item>, as translate-toolkit's
// get_xml_text_value gives it: the unescaped text, or, around markup, the
// unescaped text parts with the markup serialized.
func readValue(e *xnode) (string, error) {
	if !hasMarkup(e.kids) {
		var b strings.Builder
		for _, k := range e.kids {
			b.WriteString(k.text)
		}
		return unescape(b.String(), true)
	}
	conv := func(s string) (string, error) { return unescape(s, false) }
	lead, rest, err := markup(e.kids, conv)
	if err != nil {
		return "", err
	}
	lead, err = conv(lead)
	if err != nil {
		return "", err
	}
	return textEscaper.Replace(lead) + rest, nil
}

// writeValue is the content translate-toolkit writes for text
// (set_xml_text_value): text holding '<' or '&' that parses as XML
// content keeps its markup with every text part escaped; anything else
// is escaped whole as plain text.
func writeValue(text string) (string, error) {
	if !validXML(text) {
		return "", fmt.Errorf("aresource: %q has characters XML does not allow", text)
	}
	if strings.ContainsAny(text, "<&") {
		doc := "<string>" + text + "</string>"
		if top, err := parseXML([]byte(doc), 0, true); err == nil && len(top) == 1 && top[0].kind == 'e' {
			conv := func(s string) (string, error) { return escape(s, false), nil }
			lead, rest, err := markup(top[0].kids, conv)
			if err == nil {
				return textEscaper.Replace(escape(lead, false)) + rest, nil
			}
		}
	}
	return textEscaper.Replace(escape(text, true)), nil
}
