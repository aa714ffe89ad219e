package xliff2

import (
	"strconv"
	"strings"

	"github.com/tmsproject/tms/services/translation/formats/internal/xliffmarkup"
	"github.com/tmsproject/tms/services/translation/formats/internal/xmltree"
)

// plainText is translate-toolkit's getText of a <source> or <target>
// (xliffmarkup.Text), whitespace normalized unless the node or the
// segment (space) preserves it.
func plainText(n *xmltree.Node, space string) string {
	if v, ok := n.Attr("xml:space"); ok {
		space = v
	}
	return xliffmarkup.Text(n, space != "preserve")
}

// notes is translate-toolkit's Xliff2Unit.getnotes: the lxml text (up to
// its first child) of each <note> of the first <notes> child of the
// segment, empty ones skipped, one per line. Notes of the <unit> are not
// the segment's there, so they are none of the unit's here.
func notes(seg *xmltree.Node) string {
	var out []string
	for _, k := range seg.Kids {
		if k.Kind != xmltree.Element || xmltree.Local(k.Name) != "notes" {
			continue
		}
		for _, n := range k.Kids {
			if n.Kind == xmltree.Element && xmltree.Local(n.Name) == "note" {
				if t := leadingText(n); t != "" {
					out = append(out, t)
				}
			}
		}
		break
	}
	return strings.Join(out, "\n")
}

// leadingText is an element's lxml .text: its character data before its
// first child of another kind.
func leadingText(n *xmltree.Node) string {
	var b strings.Builder
	for _, k := range n.Kids {
		if k.Kind != xmltree.Text {
			break
		}
		b.WriteString(k.Text)
	}
	return b.String()
}

// segmentSeparator joins a unit id and a segment id in translate-
// toolkit's ids of units with several segments.
const segmentSeparator = "::"

// segmentID is translate-toolkit's Xliff2Unit.getid, the unit's context
// as Weblate's XLIFF units give it: the segment's resname when it has
// one, else the unit's id, with "::" and the segment's id (or
// "segment-N", N counted from 1 among the unit's segments) when the
// segment has an id or the unit several segments.
func segmentID(unit, seg *xmltree.Node) string {
	if r, _ := seg.Attr("resname"); r != "" {
		return r
	}
	uid := ""
	if unit != nil {
		uid, _ = unit.Attr("id")
	}
	if sid, _ := seg.Attr("id"); sid != "" {
		return uid + segmentSeparator + sid
	}
	segs := segments(unit)
	if len(segs) <= 1 {
		return uid
	}
	for i, s := range segs {
		if s == seg {
			return uid + segmentSeparator + "segment-" + strconv.Itoa(i+1)
		}
	}
	return uid
}

// segments are the <segment> children of a unit.
func segments(unit *xmltree.Node) []*xmltree.Node {
	var out []*xmltree.Node
	if unit == nil {
		return nil
	}
	for _, k := range unit.Kids {
		if k.Kind == xmltree.Element && xmltree.Local(k.Name) == "segment" {
			out = append(out, k)
		}
	}
	return out
}
