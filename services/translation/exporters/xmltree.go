package exporters

import "strings"

// xnode is an element of the small tree the XLIFF exporters build, kept
// as lxml keeps one: the tag as written (prefix included), attributes in
// the order they were first set, text before the first child and each
// child's tail. hasText tells an empty text ("") from none: lxml writes
// <a></a> for the former and <a/> for the latter.
type xnode struct {
	tag      string
	attrs    []xattr
	text     string
	hasText  bool
	tail     string
	children []*xnode
}

type xattr struct{ name, value string }

func newNode(tag string) *xnode { return &xnode{tag: tag} }

// textNode is an element holding text (createlanguageNode).
func textNode(tag, text string) *xnode {
	return &xnode{tag: tag, text: text, hasText: true}
}

// set changes an attribute in place or adds it last, as lxml does.
func (n *xnode) set(name, value string) {
	for i := range n.attrs {
		if n.attrs[i].name == name {
			n.attrs[i].value = value
			return
		}
	}
	n.attrs = append(n.attrs, xattr{name, value})
}

func (n *xnode) get(name string) (string, bool) {
	for _, a := range n.attrs {
		if a.name == name {
			return a.value, true
		}
	}
	return "", false
}

func (n *xnode) del(name string) {
	for i, a := range n.attrs {
		if a.name == name {
			n.attrs = append(n.attrs[:i], n.attrs[i+1:]...)
			return
		}
	}
}

func (n *xnode) appendChild(c *xnode) { n.children = append(n.children, c) }

// insert puts c at index i of the children (at the end when i is past it).
func (n *xnode) insert(i int, c *xnode) {
	if i >= len(n.children) {
		n.appendChild(c)
		return
	}
	n.children = append(n.children[:i], append([]*xnode{c}, n.children[i:]...)...)
}

// child is the first child with the tag, or nil.
func (n *xnode) child(tag string) *xnode {
	for _, c := range n.children {
		if c.tag == tag {
			return c
		}
	}
	return nil
}

// clearContent empties the element, keeping its attributes.
func (n *xnode) clearContent() { n.children, n.text, n.hasText = nil, "", false }

// appendText is translate-toolkit's xml_append_string: to the text when
// the element has no child yet, else to the last child's tail.
func (n *xnode) appendText(s string) {
	if len(n.children) == 0 {
		n.text += s
		n.hasText = true
		return
	}
	n.children[len(n.children)-1].tail += s
}

// content is the element's text content (XPath string()).
func (n *xnode) content() string {
	var b strings.Builder
	var walk func(*xnode)
	walk = func(e *xnode) {
		b.WriteString(e.text)
		for _, c := range e.children {
			walk(c)
			b.WriteString(c.tail)
		}
	}
	walk(n)
	return b.String()
}

// reindentOptions are the XMLindent settings of an XLIFF store.
type reindentOptions struct {
	indent         string
	maxLevel       int
	leaves         map[string]bool
	ignorePreserve map[string]bool
}

// reindent is translate-toolkit's xml_helpers.reindent (not top level):
// whitespace-only texts and tails become a newline and the indentation of
// the level, except the text of an element with xml:space="preserve" (not
// listed in ignorePreserve) and anything inside a leaf.
func reindent(n *xnode, level int, o reindentOptions) {
	i := "\n" + strings.Repeat(o.indent, level)
	if level >= o.maxLevel {
		if strings.TrimSpace(n.tail) == "" {
			n.tail = i
		}
		return
	}
	leaf := o.leaves[n.tag]
	space, _ := n.get("xml:space")
	if strings.TrimSpace(n.text) == "" && (space != "preserve" || o.ignorePreserve[n.tag]) &&
		len(n.children) > 0 && !leaf {
		n.text, n.hasText = i+o.indent, true
	}
	if strings.TrimSpace(n.tail) == "" {
		n.tail = i
	}
	if leaf || len(n.children) == 0 {
		return
	}
	for _, c := range n.children {
		reindent(c, level+1, o)
	}
	if last := n.children[len(n.children)-1]; strings.TrimSpace(last.tail) == "" {
		last.tail = i
	}
}

// write serializes the element as lxml's tostring does.
func (n *xnode) write(b *strings.Builder) {
	b.WriteString("<" + n.tag)
	for _, a := range n.attrs {
		b.WriteString(" " + a.name + `="` + escapeAttr(a.value) + `"`)
	}
	if len(n.children) == 0 && !n.hasText {
		b.WriteString("/>")
	} else {
		b.WriteString(">" + escapeText(n.text))
		for _, c := range n.children {
			c.write(b)
		}
		b.WriteString("</" + n.tag + ">")
	}
	b.WriteString(escapeText(n.tail))
}

var (
	textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", "\r", "&#13;")
	attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;",
		"\n", "&#10;", "\r", "&#13;", "\t", "&#9;")
)

func escapeText(s string) string { return textEscaper.Replace(s) }
func escapeAttr(s string) string { return attrEscaper.Replace(s) }
