package aresource

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tmsproject/tms/services/translation/formats/internal/xmltree"
)

// xnode is a node of a parsed document (xmltree.Node).
type xnode = xmltree.Node

var errRoot = errors.New("aresource: the file is not an Android <resources> document")

// parseXML reads a document or fragment, with the package's errors.
func parseXML(data []byte, base int, fragment bool) ([]*xnode, error) {
	top, err := xmltree.Parse(data, base, fragment)
	if errors.Is(err, xmltree.ErrNotDocument) {
		return nil, errRoot
	}
	if err != nil {
		return nil, fmt.Errorf("aresource: %w", err)
	}
	return top, nil
}

var (
	textEscaper = xmltree.TextEscaper
	attrEscaper = xmltree.AttrEscaper
	validXML    = xmltree.ValidXML
	qname       = xmltree.QName
	startTag    = xmltree.StartTag
	lineIndent  = xmltree.LineIndent
)

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
	for ; i < len(kids) && kids[i].Kind == xmltree.Text; i++ {
		lead.WriteString(kids[i].Text)
	}
	for i < len(kids) {
		k := kids[i]
		i++
		switch k.Kind {
		case xmltree.Element:
			b.WriteString("<" + k.Name)
			for _, a := range k.Attrs {
				b.WriteString(" " + qname(a.Name) + `="` + attrEscaper.Replace(a.Value) + `"`)
			}
			if len(k.Kids) == 0 {
				b.WriteString("/>")
				break
			}
			b.WriteString(">")
			head, inner, err := markup(k.Kids, conv)
			if err != nil {
				return "", "", err
			}
			if hasText(k.Kids) {
				head, err = conv(head)
				if err != nil {
					return "", "", err
				}
				b.WriteString(textEscaper.Replace(head))
			}
			b.WriteString(inner + "</" + k.Name + ">")
		case xmltree.Comment:
			t, err := conv(k.Text)
			if err != nil {
				return "", "", err
			}
			b.WriteString("<!--" + t + "-->")
		case xmltree.ProcInst:
			t, err := conv(k.Text)
			if err != nil {
				return "", "", err
			}
			if t != "" {
				t = " " + t
			}
			b.WriteString("<?" + k.Name + t + "?>")
		case xmltree.Directive:
			return "", "", errors.New("aresource: a directive inside a string")
		}
		var tail strings.Builder
		had := false
		for ; i < len(kids) && kids[i].Kind == xmltree.Text; i++ {
			tail.WriteString(kids[i].Text)
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

func hasText(kids []*xnode) bool { return len(kids) > 0 && kids[0].Kind == xmltree.Text }

func hasMarkup(kids []*xnode) bool {
	for _, k := range kids {
		if k.Kind != xmltree.Text {
			return true
		}
	}
	return false
}

// readValue is the text of a <string> or <item>, as translate-toolkit's
// get_xml_text_value gives it: the unescaped text, or, around markup, the
// unescaped text parts with the markup serialized.
func readValue(e *xnode) (string, error) {
	if !hasMarkup(e.Kids) {
		var b strings.Builder
		for _, k := range e.Kids {
			b.WriteString(k.Text)
		}
		return unescape(b.String(), true)
	}
	conv := func(s string) (string, error) { return unescape(s, false) }
	lead, rest, err := markup(e.Kids, conv)
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
		if top, err := parseXML([]byte(doc), 0, true); err == nil && len(top) == 1 && top[0].Kind == xmltree.Element {
			conv := func(s string) (string, error) { return escape(s, false), nil }
			lead, rest, err := markup(top[0].Kids, conv)
			if err == nil {
				return textEscaper.Replace(escape(lead, false)) + rest, nil
			}
		}
	}
	return textEscaper.Replace(escape(text, true)), nil
}
