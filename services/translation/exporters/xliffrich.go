package exporters

import (
	"encoding/xml"
	"errors"
	"io"
	"regexp"
	"strings"
)

// errNotRich is a string that is not an XML fragment the reference's
// xliff_string_to_rich accepts (its XMLSyntaxError, TypeError or
// KeyError): the exporter then keeps the plain text.
var errNotRich = errors.New("not an XLIFF fragment")

// richContent converts a string holding XLIFF markup as the reference does
// (translate-toolkit's parse_xliff, xml_to_strelem, then strelem_to_xml
// into the source or target element): the string is read as the content
// of an XML element; g, x, bx and ex in any namespace become the XLIFF
// placeables (g, x, bx, ex without namespace, id, xid and rid first; x, bx
// and ex lose their content, and all their attributes when they have no
// id; a g without id is refused); comments are dropped with the text
// following them; a processing instruction, an undeclared prefix, a
// duplicate attribute or malformed XML refuse the string. Other elements
// stay as written. The result is the element's new content, held by a
// node whose tag is unused.
func richContent(s string) (*xnode, error) {
	if hasBareCDATAEnd(s) {
		return nil, errNotRich
	}
	root, err := parseFragment(s)
	if err != nil {
		return nil, err
	}
	out := newNode("")
	if err := toStrelem(out, root, "preserve"); err != nil {
		return nil, err
	}
	return out, nil
}

// parseFragment reads s as the content of an element into a tree, with
// the tags and attribute names as written.
func parseFragment(s string) (*xnode, error) {
	d := xml.NewDecoder(strings.NewReader("<source>" + s + "</source>"))
	d.Strict = true
	var stack []*xnode
	var scopes []map[string]bool
	var root *xnode
	for {
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, errNotRich
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n, scope, err := startNode(t, scopes)
			if err != nil {
				return nil, err
			}
			if len(stack) > 0 {
				stack[len(stack)-1].appendChild(n)
			} else if root != nil {
				return nil, errNotRich
			} else {
				root = n
			}
			stack, scopes = append(stack, n), append(scopes, scope)
		case xml.EndElement:
			if len(stack) == 0 || stack[len(stack)-1].tag != qname(t.Name) {
				return nil, errNotRich
			}
			stack, scopes = stack[:len(stack)-1], scopes[:len(scopes)-1]
		case xml.CharData:
			if len(stack) > 0 {
				stack[len(stack)-1].appendText(string(t))
			}
		case xml.Comment:
			if len(stack) > 0 { // kept as a marker: dropped with its tail
				stack[len(stack)-1].appendChild(&xnode{tag: "!--"})
			}
		default: // processing instructions, directives
			return nil, errNotRich
		}
	}
	if root == nil || len(stack) > 0 {
		return nil, errNotRich
	}
	return root, nil
}

// startNode makes the element of a start tag, checking its prefixes are
// declared and its attributes unique; scope is the prefixes it declares.
func startNode(t xml.StartElement, scopes []map[string]bool) (*xnode, map[string]bool, error) {
	n := newNode(qname(t.Name))
	scope := map[string]bool{}
	seen := map[string]bool{}
	for _, a := range t.Attr {
		name := qname(a.Name)
		if seen[name] {
			return nil, nil, errNotRich
		}
		seen[name] = true
		if a.Name.Space == "xmlns" {
			scope[a.Name.Local] = true
		}
		n.attrs = append(n.attrs, xattr{name, a.Value})
	}
	declared := func(prefix string) bool {
		if prefix == "" || prefix == "xml" || prefix == "xmlns" || scope[prefix] {
			return true
		}
		for _, s := range scopes {
			if s[prefix] {
				return true
			}
		}
		return false
	}
	if !declared(t.Name.Space) {
		return nil, nil, errNotRich
	}
	for _, a := range t.Attr {
		if !declared(a.Name.Space) {
			return nil, nil, errNotRich
		}
	}
	return n, scope, nil
}

func qname(n xml.Name) string {
	if n.Space == "" {
		return n.Local
	}
	return n.Space + ":" + n.Local
}

// localName is a tag without its prefix.
func localName(tag string) string {
	if i := strings.LastIndexByte(tag, ':'); i >= 0 {
		return tag[i+1:]
	}
	return tag
}

// toStrelem is xml_to_strelem of src followed by strelem_to_xml into out:
// src's whitespace normalized when xml:space says so, then its text and
// each child converted to its placeable, each followed by its tail.
func toStrelem(out, src *xnode, space string) error {
	if v, _ := src.get("xml:space"); v != "" {
		space = v
	}
	normalizeSpace(src, space, true)
	if src.text != "" {
		out.appendText(src.text)
	}
	for _, c := range src.children {
		if c.tag == "!--" {
			continue
		}
		p, err := placeable(c, space)
		if err != nil {
			return err
		}
		out.appendChild(p)
		if c.tail != "" {
			out.appendText(c.tail)
		}
	}
	return nil
}

// placeable is make_placeable followed by its rendering as an element.
func placeable(c *xnode, space string) (*xnode, error) {
	local := localName(c.tag)
	switch local {
	case "x", "bx", "ex":
		n := newNode(local)
		if _, ok := c.get("id"); ok {
			placeableAttrs(n, c)
		}
		return n, nil
	case "g":
		if _, ok := c.get("id"); !ok {
			return nil, errNotRich // the reference's KeyError
		}
		n := newNode(local)
		placeableAttrs(n, c)
		return n, toStrelem(n, c, space)
	}
	n := newNode(c.tag)
	n.attrs = append(n.attrs, c.attrs...)
	return n, toStrelem(n, c, space)
}

// placeableAttrs are id, xid and rid first, then the element's other
// attributes in order (namespace declarations are not attributes).
func placeableAttrs(n, c *xnode) {
	for _, name := range []string{"id", "xid", "rid"} {
		if v, ok := c.get(name); ok {
			n.set(name, v)
		}
	}
	for _, a := range c.attrs {
		if a.name != "xmlns" && !strings.HasPrefix(a.name, "xmlns:") {
			n.set(a.name, a.value)
		}
	}
}

var xmlWhitespace = regexp.MustCompile(`[\n\r\t ]+`)

// normalizeSpace is translate-toolkit's normalize_xml_space: unless
// preserved, runs of whitespace in the text and tail become one space,
// the text loses its leading space when removeStart and its trailing
// space when it has no children; children are normalized with the flag
// passed where the reference passes it (as their xml:space, never
// "preserve").
func normalizeSpace(n *xnode, space string, removeStart bool) {
	if v, _ := n.get("xml:space"); v != "" {
		space = v
	}
	if space == "preserve" {
		return
	}
	if n.text != "" {
		n.text = xmlWhitespace.ReplaceAllString(n.text, " ")
		if removeStart && n.text[0] == ' ' {
			n.text = strings.TrimLeft(n.text, " \t\n\r")
			removeStart = false
		}
		if strings.HasSuffix(n.text, " ") {
			removeStart = true
		}
		if len(n.children) == 0 {
			n.text = strings.TrimRight(n.text, " \t\n\r")
		}
	}
	if n.tail != "" {
		n.tail = xmlWhitespace.ReplaceAllString(n.tail, " ")
	}
	flag := "false"
	if removeStart {
		flag = "true"
	}
	for _, c := range n.children {
		normalizeSpace(c, flag, false)
	}
}

// hasBareCDATAEnd reports "]]>" in character data outside a CDATA
// section, which libxml2 refuses and Go's decoder lets through.
func hasBareCDATAEnd(s string) bool {
	for len(s) > 0 {
		lt := strings.IndexByte(s, '<')
		text := s
		if lt >= 0 {
			text = s[:lt]
		}
		if strings.Contains(text, "]]>") {
			return true
		}
		if lt < 0 {
			return false
		}
		s = skipMarkup(s[lt:])
	}
	return false
}

// skipMarkup drops the markup at the start of s (a CDATA section, a
// comment, or a tag with quoted attribute values).
func skipMarkup(s string) string {
	for _, pair := range [][2]string{{"<![CDATA[", "]]>"}, {"<!--", "-->"}} {
		if strings.HasPrefix(s, pair[0]) {
			if end := strings.Index(s[len(pair[0]):], pair[1]); end >= 0 {
				return s[len(pair[0])+end+len(pair[1]):]
			}
			return ""
		}
	}
	var quote byte
	for i := 1; i < len(s); i++ {
		switch c := s[i]; {
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '>':
			return s[i+1:]
		}
	}
	return ""
}
