// Package xliff2 is the XLIFF 2.0 format of the registry, in the two
// variants Weblate has: "xliff2" ("XLIFF 2.0 translation file", the
// strings plain text) and "xliff2-placeables" ("XLIFF 2.0 with
// placeables support", inline elements part of the strings), read and
// written as Weblate's XLIFF units on translate-toolkit's Xliff2File do.
//
// XLIFF 2.0 is bilingual (Weblate reads it as bilingual only): every
// <segment> with a non-empty <source> is a unit, wherever its <unit>
// sits (in a <file> or a <group>). Its context is the segment's
// resname, or translate-toolkit's id: the unit's id, followed by "::"
// and the segment's id (or segment-N) when the segment has an id or the
// unit several segments. Its note is the text of the notes of the
// segment's own <notes> (translate-toolkit reads no other, so the
// <notes> of a <unit> are not the unit's note); its flags those Weblate
// reads from the segment's attributes, and "xml-text" with placeables;
// no location. Whitespace is normalized unless the segment or the
// element has xml:space="preserve".
//
// The plain variant's strings are the text of <source> and <target>
// (the text inside inline elements included, their tags dropped), and
// a value is written as escaped text. The placeables variant's strings
// are the XML content as Weblate's rich units show it (inline elements
// serialized, & < > escaped), and a value that parses as XML content is
// written with its elements (internal/xliffmarkup); such a write marks
// the segment xml:space="preserve", as translate-toolkit does.
//
// States follow translate-toolkit's Xliff2Unit (the segment's state
// attribute): a unit with a target is translated, needing editing when
// its state is initial, approved when reviewed or final. Writing sets
// the state to translated, initial (needing editing) or reviewed
// (approved); an emptied unit loses its <target>, and its state becomes
// initial when it had one.
//
// Where this differs from the reference: translate-toolkit re-indents
// the document and rewrites its XML declaration on every save; this
// keeps every byte but the edited elements (a new <target> or <unit>
// takes the indentation of its neighbours). An emptied plain unit loses
// its <target> (translate-toolkit keeps an empty one), a plain value
// replaces a target's inline elements too, and a removed unit's <unit>
// goes with its only segment. translate="no" is not read: such units
// are translatable here (the XLIFF 1.2 format makes them read-only).
package xliff2

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/internal/xliffmarkup"
	"github.com/tmsproject/tms/services/translation/formats/internal/xmltree"
)

// Format is an XLIFF 2.0 variant.
type Format struct{ placeables bool }

var (
	// Plain is "xliff2": strings are plain text.
	Plain = Format{}
	// Placeables is "xliff2-placeables": inline elements are part of
	// the strings.
	Placeables = Format{placeables: true}
)

// ID is the format's file_format identifier.
func (f Format) ID() string {
	if f.placeables {
		return "xliff2-placeables"
	}
	return "xliff2"
}

// Name is the format's name as the reference shows it.
func (f Format) Name() string {
	if f.placeables {
		return "XLIFF 2.0 with placeables support"
	}
	return "XLIFF 2.0 translation file"
}

// Monolingual reports false: every file holds its sources.
func (Format) Monolingual() bool { return false }

// ContentType is translate-toolkit's media type of Xliff2File.
func (Format) ContentType() string { return "application/x-xliff+xml" }

var (
	errRoot    = errors.New("xliff2: the file is not an XLIFF <xliff> document")
	errVersion = errors.New("xliff2: the file is XLIFF 1.x (use the xliff file format)")
	errForeign = errors.New("xliff2: unit of another file")
	errNoFile  = errors.New("xliff2: the file has no <file> to add units to")
)

// File is a parsed XLIFF 2.0 file.
type File struct {
	format Format
	src    string
	root   *xmltree.Node
	segs   []*segment
	units  []*base.Unit
	// file is the first <file>, where Add appends; prefix the namespace
	// prefix of the document's elements ("" or "x:").
	file     *xmltree.Node
	prefix   string
	step     string // the file's indentation unit
	rootTag  string // the root's start tag, edited by NewTranslation
	rootEdit bool
}

// Parse reads an XLIFF 2.0 file; the language does not matter (there
// are no plurals).
func (f Format) Parse(data []byte, _ base.Language) (base.File, error) {
	root, err := xliffmarkup.Root(data)
	if errors.Is(err, xliffmarkup.ErrNotXLIFF) {
		return nil, errRoot
	}
	if err != nil {
		return nil, fmt.Errorf("xliff2: %w", err)
	}
	v, hasVersion := root.Attr("version")
	ns, _ := root.Attr("xmlns")
	if (hasVersion && v != "" && !strings.HasPrefix(v, "2.")) || ((!hasVersion || v == "") && strings.Contains(ns, ":1.")) {
		return nil, errVersion // translate-toolkit's version check
	}
	file := &File{format: f, src: string(data), root: root, step: "  ", rootTag: xmltree.StartTag(string(data), root)}
	if i := strings.IndexByte(root.Name, ':'); i >= 0 {
		file.prefix = root.Name[:i+1]
	}
	for _, k := range root.Kids {
		if k.Kind == xmltree.Element && xmltree.Local(k.Name) == "file" {
			file.file = k
			break
		}
	}
	file.walk(root, nil)
	return file, nil
}

// walk collects the segments under n (a child of parent), in document
// order.
func (f *File) walk(n, parent *xmltree.Node) {
	for i, k := range n.Kids {
		if k.Kind != xmltree.Element {
			continue
		}
		if xmltree.Local(k.Name) == "segment" {
			f.addSegment(n, i, parent)
			continue
		}
		f.walk(k, n)
	}
}

// lineCut is where the removal of parent.Kids[i] starts (the line break
// before it) and the indentation of its line.
func lineCut(parent *xmltree.Node, i int) (cut int, ind string) {
	n := parent.Kids[i]
	cut = n.Start
	if i > 0 {
		if prev := parent.Kids[i-1]; prev.Kind == xmltree.Text && strings.TrimSpace(prev.Text) == "" {
			if j := strings.LastIndexByte(prev.Text, '\n'); j >= 0 {
				cut = prev.Start + j
			}
			ind = xmltree.LineIndent(prev.Text, "")
		}
	}
	return cut, ind
}

// addSegment reads the segment unit.Kids[i]; parent holds the unit.
func (f *File) addSegment(unit *xmltree.Node, i int, parent *xmltree.Node) {
	n := unit.Kids[i]
	sg := newSegment(f.src, n)
	sg.unit = unit
	sg.cut, sg.ind = lineCut(unit, i)
	if sg.srcIdx > 0 {
		if in := xmltree.LineIndent(sg.pieces[sg.srcIdx-1], ""); strings.HasPrefix(in, sg.ind) && len(in) > len(sg.ind) {
			f.step = in[len(sg.ind):]
		}
	}
	if len(segments(unit)) == 1 && parent != nil {
		sg.whole = true
		sg.unitCut, _ = lineCut(parent, slices.Index(parent.Kids, unit))
	}
	f.segs = append(f.segs, sg)
	if sg.source == nil {
		return
	}
	src := f.text(sg.source, sg.space)
	if src == "" {
		return // Weblate skips units without a source
	}
	u := &base.Unit{Context: segmentID(unit, n), Source: []string{src}, Target: []string{""},
		Note: notes(n), Flags: f.flags(n), Ref: sg}
	if sg.target != nil {
		u.Target[0] = f.text(sg.target, sg.space)
	}
	translated := u.Target[0] != ""
	state, _ := n.Attr("state")
	u.Fuzzy = translated && state == "initial"
	u.Approved = translated && (state == "reviewed" || state == "final")
	f.units = append(f.units, u)
}

// text is a <source> or <target> as the variant shows it.
func (f *File) text(n *xmltree.Node, space string) string {
	if f.format.placeables {
		return xliffmarkup.RichString(n, space)
	}
	return plainText(n, space)
}

// flags are the segment's flags, "xml-text" added with placeables.
func (f *File) flags(n *xmltree.Node) string {
	if f.format.placeables {
		return xliffmarkup.Flags(n, "xml-text")
	}
	return xliffmarkup.Flags(n)
}

// content is what the variant writes into a <target> for a value.
func (f *File) content(value string) (string, error) {
	if f.format.placeables {
		return xliffmarkup.WriteContent(value)
	}
	if !xmltree.ValidXML(value) {
		return "", xliffmarkup.ErrInvalidChars
	}
	return xmltree.TextEscaper.Replace(value), nil
}

// Units are the units of the file in order.
func (f *File) Units() []*base.Unit { return f.units }

// RecordsFuzzy reports true: the segment's state records it.
func (f *File) RecordsFuzzy() bool { return true }
