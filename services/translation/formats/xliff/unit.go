package xliff

import (
	"encoding/xml"
	"fmt"
	"strings"

	"github.com/tmsproject/tms/services/translation/formats/internal/xliffmarkup"
	"github.com/tmsproject/tms/services/translation/formats/internal/xmltree"
)

// transUnit is a <trans-unit>: its bytes as read until it is edited,
// then its start tag and the pieces of its content, the target among
// them re-rendered.
type transUnit struct {
	node           *xmltree.Node // nil for an added unit
	source, target *xmltree.Node // as read
	space          string        // xml:space of the unit, "default" when absent
	tag            string        // start tag without ">"
	closeTag       string
	pieces         []string // the content: raw kids, the target rendered
	srcIdx, tgtIdx int      // indexes in pieces; tgtIdx -1 without target
	tgtTag         string   // the target's start tag without ">" or "/>"
	tgtName        string
	tgtContent     string
	dirty, removed bool
	cut            int    // where the unit's removal starts
	ind            string // indentation of the unit's line
}

func newTransUnit(s string, n *xmltree.Node) *transUnit {
	tu := &transUnit{node: n, tag: xmltree.StartTag(s, n), srcIdx: -1, tgtIdx: -1, space: "default"}
	if v, ok := n.Attr("xml:space"); ok {
		tu.space = v
	}
	tu.closeTag = s[n.Close:n.End]
	for _, k := range n.Kids {
		if k.Kind == xmltree.Element {
			switch xmltree.Local(k.Name) {
			case "source":
				if tu.source == nil {
					tu.source, tu.srcIdx = k, len(tu.pieces)
				}
			case "target":
				if tu.target == nil {
					tu.target, tu.tgtIdx = k, len(tu.pieces)
					tu.tgtTag, tu.tgtName = xmltree.StartTag(s, k), k.Name
					tu.tgtContent = s[k.Open:k.Close]
				}
			}
		}
		tu.pieces = append(tu.pieces, s[k.Start:k.End])
	}
	return tu
}

// newUnit is a trans-unit Weblate's create_unit builds, indented by ind
// with its children by child.
func newUnit(prefix, id, source, target, ind, child string) *transUnit {
	tag := "<" + prefix + `trans-unit xml:space="preserve"`
	if id != "" {
		tag += ` id="` + xmltree.AttrEscaper.Replace(strings.ReplaceAll(id, idSeparator, "__%04__")) + `"`
	}
	src := "<" + prefix + "source>" + xmltree.TextEscaper.Replace(source) + "</" + prefix + "source>"
	tu := &transUnit{tag: tag + ` approved="no"`, closeTag: "</" + prefix + "trans-unit>", space: "preserve",
		pieces: []string{"\n" + child, src, "\n" + child, "", "\n" + ind}, srcIdx: 1, tgtIdx: 3,
		tgtTag: "<" + prefix + `target state="translated"`, tgtName: prefix + "target",
		tgtContent: xmltree.TextEscaper.Replace(target), dirty: true, ind: ind}
	tu.pieces[3] = tu.renderTarget()
	return tu
}

func (tu *transUnit) render() string {
	return tu.tag + ">" + strings.Join(tu.pieces, "") + tu.closeTag
}

func (tu *transUnit) renderTarget() string {
	if tu.tgtContent == "" {
		return tu.tgtTag + "/>"
	}
	return tu.tgtTag + ">" + tu.tgtContent + "</" + tu.tgtName + ">"
}

// attrs are the attributes of the unit's current start tag.
func (tu *transUnit) attrs() []xml.Attr {
	top, err := xmltree.Parse([]byte(tu.tag+"/>"), 0, false)
	if err != nil {
		return nil
	}
	return xmltree.Root(top).Attrs
}

// targetAttr is an attribute of the current target ("" without one).
func (tu *transUnit) targetAttr(name string) (string, bool) {
	if tu.tgtIdx < 0 {
		return "", false
	}
	top, err := xmltree.Parse([]byte(tu.tgtTag+"/>"), 0, false)
	if err != nil {
		return "", false
	}
	return xmltree.Root(top).Attr(name)
}

// setValue writes a target value: an empty one removes the <target>
// (with the line break and indentation before it), another replaces its
// content or creates it right after the <source>, and marks the unit
// xml:space="preserve".
func (tu *transUnit) setValue(value, prefix string) error {
	tu.dirty = true
	if value == "" {
		if tu.tgtIdx >= 0 {
			tu.pieces[tu.tgtIdx] = ""
			if p := tu.tgtIdx - 1; p >= 0 && strings.TrimSpace(tu.pieces[p]) == "" {
				if j := strings.LastIndexByte(tu.pieces[p], '\n'); j >= 0 {
					tu.pieces[p] = tu.pieces[p][:j]
				}
			}
			tu.tgtIdx = -1
		}
		return nil
	}
	c, err := xliffmarkup.WriteContent(value)
	if err != nil {
		return fmt.Errorf("xliff: %w", err)
	}
	if tu.space != "preserve" {
		tu.tag, tu.space = xliffmarkup.SetAttr(tu.tag, "xml:space", "preserve"), "preserve"
	}
	tu.tgtContent = c
	if tu.tgtIdx < 0 {
		if tu.tgtTag == "" {
			tu.tgtName = prefix + "target"
			if tu.source != nil {
				tu.tgtName = strings.TrimSuffix(tu.source.Name, "source") + "target"
			}
			tu.tgtTag = "<" + tu.tgtName
		}
		at := tu.srcIdx + 1
		ins := []string{tu.renderTarget()}
		if tu.srcIdx > 0 {
			if in := tu.pieces[tu.srcIdx-1]; strings.TrimSpace(in) == "" && strings.Contains(in, "\n") {
				ins = []string{"\n" + xmltree.LineIndent(in, ""), ins[0]}
			}
		}
		tu.pieces = append(tu.pieces[:at], append(ins, tu.pieces[at:]...)...)
		tu.tgtIdx = at + len(ins) - 1
		return nil
	}
	tu.pieces[tu.tgtIdx] = tu.renderTarget()
	return nil
}

// setState writes Weblate's set_state: approved="yes" for an approved
// unit (a formerly approved one gets "no"), the target's state
// needs-translation, translated or final ("new" for an emptied target
// that had a state).
func (tu *transUnit) setState(empty, fuzzy, approved bool) {
	tu.dirty = true
	if approved {
		tu.tag = xliffmarkup.SetAttr(tu.tag, "approved", "yes")
	} else if v, _ := tu.attr("approved"); v == "yes" {
		tu.tag = xliffmarkup.SetAttr(tu.tag, "approved", "no")
	}
	if tu.tgtIdx < 0 {
		return
	}
	state := "translated"
	switch {
	case empty:
		if _, ok := tu.targetAttr("state"); !ok {
			return
		}
		state = "new"
	case fuzzy:
		state = "needs-translation"
	case approved:
		state = "final"
	}
	tu.tgtTag = xliffmarkup.SetAttr(tu.tgtTag, "state", state)
	tu.pieces[tu.tgtIdx] = tu.renderTarget()
}

func (tu *transUnit) attr(name string) (string, bool) {
	for _, a := range tu.attrs() {
		if xmltree.QName(a.Name) == name {
			return a.Value, true
		}
	}
	return "", false
}

// notes are the texts of the unit's <note> descendants as
// translate-toolkit's getnotes gives them: one per line, each once.
func notes(n *xmltree.Node, space string) string {
	var out []string
	seen := map[string]bool{}
	for _, d := range descendants(n, "note") {
		t := nodeText(d, space)
		if !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	return strings.Join(out, "\n")
}

// locations are the sourcefile:linenumber of the unit's context-groups
// of purpose "location", joined by ", " as Weblate lists them.
func locations(n *xmltree.Node, space string) string {
	var out []string
	for _, g := range descendants(n, "context-group") {
		if p, _ := g.Attr("purpose"); p != "location" {
			continue
		}
		var file, line *string
		for _, c := range descendants(g, "context") {
			t := nodeText(c, space)
			switch typ, _ := c.Attr("context-type"); typ {
			case "sourcefile":
				if file == nil {
					file = &t
				}
			case "linenumber":
				if line == nil {
					line = &t
				}
			}
		}
		switch {
		case file != nil && line != nil:
			out = append(out, *file+":"+*line)
		case file != nil:
			out = append(out, *file)
		}
	}
	return strings.Join(out, ", ")
}

func descendants(n *xmltree.Node, local string) []*xmltree.Node {
	var out []*xmltree.Node
	for _, k := range n.Kids {
		if k.Kind == xmltree.Element {
			if xmltree.Local(k.Name) == local {
				out = append(out, k)
			}
			out = append(out, descendants(k, local)...)
		}
	}
	return out
}

// nodeText is lxml's getText (xliffmarkup.Text), whitespace normalized
// unless the node or the unit preserves it.
func nodeText(n *xmltree.Node, space string) string {
	if v, ok := n.Attr("xml:space"); ok {
		space = v
	}
	return xliffmarkup.Text(n, space == "default")
}
