package xliffmarkup

import (
	"strings"

	"github.com/tmsproject/tms/services/translation/formats/internal/xmltree"
)

// SetAttr sets an attribute of a start tag (without its ">"): in place
// when the tag has it, appended otherwise, as lxml orders attributes.
func SetAttr(tag, name, value string) string {
	v := name + `="` + xmltree.AttrEscaper.Replace(value) + `"`
	i := strings.IndexAny(tag, " \t\r\n")
	if i < 0 {
		return tag + " " + v
	}
	for i < len(tag) {
		for i < len(tag) && strings.IndexByte(" \t\r\n", tag[i]) >= 0 {
			i++
		}
		if i >= len(tag) {
			break
		}
		eq := strings.IndexByte(tag[i:], '=')
		if eq < 0 {
			break
		}
		an := strings.TrimSpace(tag[i : i+eq])
		j := i + eq + 1
		for j < len(tag) && strings.IndexByte(" \t\r\n", tag[j]) >= 0 {
			j++
		}
		if j >= len(tag) {
			break
		}
		q := tag[j]
		k := strings.IndexByte(tag[j+1:], q)
		if k < 0 {
			break
		}
		end := j + 1 + k + 1
		if an == name {
			return tag[:i] + v + tag[end:]
		}
		i = end
	}
	return strings.TrimRight(tag, " \t\r\n") + " " + v
}

// Text is lxml's text of n as translate-toolkit's getText reads a
// <source> or <target>: the text of every descendant (inline elements
// give their text, their tags are dropped), whitespace collapsed as XPath
// normalize-space collapses it when normalize is set.
func Text(n *xmltree.Node, normalize bool) string {
	var b strings.Builder
	var walk func(*xmltree.Node)
	walk = func(n *xmltree.Node) {
		for _, k := range n.Kids {
			switch k.Kind {
			case xmltree.Text:
				b.WriteString(k.Text)
			case xmltree.Element:
				walk(k)
			}
		}
	}
	walk(n)
	if !normalize {
		return b.String()
	}
	return strings.Join(strings.FieldsFunc(b.String(), func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\n' || r == '\r'
	}), " ")
}
