package xliff2

import (
	"strings"

	"github.com/tmsproject/tms/services/translation/formats/internal/xliffmarkup"
	"github.com/tmsproject/tms/services/translation/formats/internal/xmltree"
)

// segment is a <segment>: its bytes as read until it is edited, then its
// start tag and the pieces of its content, the target among them
// re-rendered. An added segment renders inside a new <unit>.
type segment struct {
	node, unit     *xmltree.Node // nil for an added segment
	source, target *xmltree.Node // as read
	space          string        // xml:space of the segment, "default" when absent
	tag, closeTag  string        // start tag without ">", end tag
	pieces         []string      // the content: raw kids, the target rendered
	srcIdx, tgtIdx int           // indexes in pieces; tgtIdx -1 without target
	tgtTag         string        // the target's start tag without ">" or "/>"
	tgtName        string
	tgtContent     string
	dirty, removed bool
	// cut is where the removal of the segment starts, whole the removal
	// of its <unit> when it is the unit's only segment (unitCut, from
	// where the unit's removal starts).
	cut, unitCut int
	whole        bool
	ind          string // indentation of the segment's line
	unitID       string // the id of an added segment's <unit>
}

func newSegment(s string, n *xmltree.Node) *segment {
	sg := &segment{node: n, tag: xmltree.StartTag(s, n), srcIdx: -1, tgtIdx: -1, space: "default"}
	if v, ok := n.Attr("xml:space"); ok {
		sg.space = v
	}
	sg.closeTag = s[n.Close:n.End]
	for _, k := range n.Kids {
		if k.Kind == xmltree.Element {
			switch xmltree.Local(k.Name) {
			case "source":
				if sg.source == nil {
					sg.source, sg.srcIdx = k, len(sg.pieces)
				}
			case "target":
				if sg.target == nil {
					sg.target, sg.tgtIdx = k, len(sg.pieces)
					sg.tgtTag, sg.tgtName = xmltree.StartTag(s, k), k.Name
					sg.tgtContent = s[k.Open:k.Close]
				}
			}
		}
		sg.pieces = append(sg.pieces, s[k.Start:k.End])
	}
	return sg
}

// newUnitSegment is the segment of a new <unit> as translate-toolkit's
// Xliff2Unit builds it (xml:space="preserve" on the segment), with its
// source content and no target yet, its children indented by child.
func newUnitSegment(prefix, unitID, source, child string) *segment {
	src := "<" + prefix + "source>" + source + "</" + prefix + "source>"
	return &segment{tag: "<" + prefix + `segment xml:space="preserve"`, closeTag: "</" + prefix + "segment>",
		space: "preserve", pieces: []string{"\n" + child, src, "\n"}, srcIdx: 1, tgtIdx: -1, dirty: true, unitID: unitID}
}

func (sg *segment) render() string {
	return sg.tag + ">" + strings.Join(sg.pieces, "") + sg.closeTag
}

func (sg *segment) renderTarget() string {
	if sg.tgtContent == "" {
		return sg.tgtTag + "/>"
	}
	return sg.tgtTag + ">" + sg.tgtContent + "</" + sg.tgtName + ">"
}

// renderUnit is an added segment in its <unit>, indented by ind with the
// segment one step more.
func (sg *segment) renderUnit(prefix, ind, step string) string {
	inner := ind + step
	seg := sg.tag + ">" + strings.Join(sg.pieces[:len(sg.pieces)-1], "") + "\n" + inner + sg.closeTag
	return "<" + prefix + `unit id="` + xmltree.AttrEscaper.Replace(sg.unitID) + `">` + "\n" + inner + seg +
		"\n" + ind + "</" + prefix + "unit>"
}

// attr is an attribute of the segment's current start tag.
func (sg *segment) attr(name string) (string, bool) {
	top, err := xmltree.Parse([]byte(sg.tag+"/>"), 0, false)
	if err != nil {
		return "", false
	}
	return xmltree.Root(top).Attr(name)
}

// setContent writes a target's content (c, already escaped or rebuilt):
// "" removes the <target> (with the line break and indentation before
// it), another replaces its content or creates it right after the
// <source>. preserve marks the segment xml:space="preserve", as
// translate-toolkit's set_rich_target does.
func (sg *segment) setContent(c, prefix string, preserve bool) {
	sg.dirty = true
	if c == "" {
		if sg.tgtIdx >= 0 {
			sg.pieces[sg.tgtIdx] = ""
			if p := sg.tgtIdx - 1; p >= 0 && strings.TrimSpace(sg.pieces[p]) == "" {
				if j := strings.LastIndexByte(sg.pieces[p], '\n'); j >= 0 {
					sg.pieces[p] = sg.pieces[p][:j]
				}
			}
			sg.tgtIdx = -1
		}
		return
	}
	if preserve && sg.space != "preserve" {
		sg.tag, sg.space = xliffmarkup.SetAttr(sg.tag, "xml:space", "preserve"), "preserve"
	}
	sg.tgtContent = c
	if sg.tgtIdx >= 0 {
		sg.pieces[sg.tgtIdx] = sg.renderTarget()
		return
	}
	if sg.tgtTag == "" {
		sg.tgtName = prefix + "target"
		if sg.source != nil {
			sg.tgtName = strings.TrimSuffix(sg.source.Name, "source") + "target"
		}
		sg.tgtTag = "<" + sg.tgtName
	}
	ins := []string{sg.renderTarget()}
	if sg.srcIdx > 0 {
		if in := sg.pieces[sg.srcIdx-1]; strings.TrimSpace(in) == "" && strings.Contains(in, "\n") {
			ins = []string{"\n" + xmltree.LineIndent(in, ""), ins[0]}
		}
	}
	at := sg.srcIdx + 1 // lxml's insert(1, target): after the source
	sg.pieces = append(sg.pieces[:at], append(ins, sg.pieces[at:]...)...)
	sg.tgtIdx = at + len(ins) - 1
}

// setState writes the segment's state as translate-toolkit's Xliff2Unit
// marks it: initial for a unit needing editing, reviewed for an approved
// one (markapproved), translated otherwise; an emptied segment that had a
// state is initial again, one without keeps none.
func (sg *segment) setState(empty, fuzzy, approved bool) {
	sg.dirty = true
	state := "translated"
	switch {
	case empty:
		if _, ok := sg.attr("state"); !ok {
			return
		}
		state = "initial"
	case fuzzy:
		state = "initial"
	case approved:
		state = "reviewed"
	}
	sg.tag = xliffmarkup.SetAttr(sg.tag, "state", state)
}
