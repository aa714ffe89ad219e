package stringsdict

import (
	"errors"
	"slices"
	"strings"

	"github.com/tmsproject/tms/pkg/lang"
	"github.com/tmsproject/tms/services/translation/formats/internal/xmltree"
)

// escaper is plistlib's _escape: line breaks normalized to \n, & < >
// as entities.
var escaper = strings.NewReplacer("\r\n", "\n", "\r", "\n", "&", "&amp;", "<", "&lt;", ">", "&gt;")

// checkValue refuses what plistlib refuses to write (control characters
// other than tab and line breaks) and what XML cannot hold.
func checkValue(s string) error {
	if !xmltree.ValidXML(s) {
		return errors.New("control characters cannot be written to a property list")
	}
	return nil
}

// splice replaces text[start:end].
type splice struct {
	start, end int
	text       string
}

// Bytes renders the file: edited strings replaced, removed pairs cut,
// added ones inserted, every other byte as read.
func (f *File) Bytes() []byte {
	var sp []splice
	ws := f.childWS(f.root, nil, f.rootWS)
	var addedOuters []string
	for _, o := range f.outers {
		switch {
		case o.added && o.live > 0:
			addedOuters = append(addedOuters, f.newOuter(o, ws))
		case o.added:
		case o.live == 0:
			sp = append(sp, splice{o.pair.start, o.pair.end, ""})
		default:
			sp = append(sp, f.outerSplices(o)...)
		}
	}
	if len(addedOuters) > 0 {
		if ps, _ := pairs(f.root); len(ps) > 0 {
			at := ps[len(ps)-1].end
			sp = append(sp, splice{at, at, strings.Join(addedOuters, "")})
		} else {
			sp = append(sp, f.fill(f.root, strings.Join(addedOuters, ""), f.rootWS))
		}
	}
	return []byte(apply(f.text, sp))
}

func apply(text string, sp []splice) string {
	// By position; at one position the insertions (in the order made)
	// before the replacement that starts there.
	slices.SortStableFunc(sp, func(a, b splice) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return min(a.end-a.start, 1) - min(b.end-b.start, 1)
	})
	var b strings.Builder
	last := 0
	for _, s := range sp {
		b.WriteString(text[last:s.start])
		b.WriteString(s.text)
		last = s.end
	}
	b.WriteString(text[last:])
	return b.String()
}

// childWS is the white space before the keys of dictionary d (pairs ps):
// as its first key has it, else one tab deeper than parentWS.
func (f *File) childWS(d *xmltree.Node, ps []pair, parentWS string) string {
	if ps == nil && d != nil {
		ps, _ = pairs(d)
	}
	if len(ps) > 0 {
		if w := f.text[ps[0].start:ps[0].keyNode.Start]; blank(w) && strings.Contains(w, "\n") {
			return w
		}
	}
	return "\n" + xmltree.LineIndent(parentWS, "") + "\t"
}

// outerSplices are the edits inside an outer key's dictionary.
func (f *File) outerSplices(o *outer) []splice {
	var sp []splice
	ws := f.childWS(o.dict, o.inner, f.text[o.pair.start:o.pair.keyNode.Start])
	var added strings.Builder
	for _, e := range o.entries {
		switch {
		case e.added && !e.removed:
			added.WriteString(ws + renderEntry(e, ws, f.tags))
		case e.added:
		case e.removed:
			sp = append(sp, splice{e.pair.start, e.pair.end, ""})
		case e.dirty && e.inner == "":
			sp = append(sp, setString(e.pair.value, e.unit.Target[0]))
		case e.dirty:
			sp = append(sp, f.formSplices(e)...)
		}
	}
	if added.Len() > 0 {
		if len(o.inner) > 0 {
			at := o.inner[len(o.inner)-1].end
			sp = append(sp, splice{at, at, added.String()})
		} else {
			sp = append(sp, f.fill(o.dict, added.String(), f.text[o.pair.start:o.pair.keyNode.Start]))
		}
	}
	return sp
}

// setString replaces the text of a <string>.
func setString(n *xmltree.Node, s string) splice {
	if n.SelfClosing {
		return splice{n.Start, n.End, "<string>" + escaper.Replace(s) + "</string>"}
	}
	return splice{n.Open, n.Close, escaper.Replace(s)}
}

// formSplices are the edits of a variable's changed forms: a string
// replaced, an emptied form's pair cut, a new form inserted after the
// last pair kept before it in CLDR order (or after the keys before the
// first form).
func (f *File) formSplices(e *entry) []splice {
	var sp []splice
	ws := f.childWS(e.pair.value, e.vars, f.text[e.pair.start:e.pair.keyNode.Start])
	for i, tag := range f.tags {
		v, was := e.unit.Target[i], e.old[i]
		p, ok := e.forms[tag]
		switch {
		case ok && v == was:
		case ok && v == "":
			sp = append(sp, splice{p.start, p.end, ""})
		case ok:
			sp = append(sp, setString(p.value, v))
		case v != "":
			at, w := f.insertAt(e, tag, ws)
			sp = append(sp, splice{at, at, w + "<key>" + tag + "</key>" + w + "<string>" + escaper.Replace(v) + "</string>"})
		}
	}
	if d := e.pair.value; d.SelfClosing && len(sp) > 0 { // <dict/>: only insertions, all at its end
		var b strings.Builder
		for _, x := range sp {
			b.WriteString(x.text)
		}
		return []splice{f.fill(d, b.String(), f.text[e.pair.start:e.pair.keyNode.Start])}
	}
	return sp
}

// fill is the insertion of text at the end of dictionary d, whose key has
// white space keyWS before it: a self-closing <dict/> becomes a <dict>
// closed on a line of its key's indentation.
func (f *File) fill(d *xmltree.Node, text, keyWS string) splice {
	if !d.SelfClosing {
		return splice{d.Open, d.Open, text}
	}
	return splice{d.Start, d.End, "<dict>" + text + "\n" + xmltree.LineIndent(keyWS, "") + "</dict>"}
}

// insertAt is where a new form of category tag goes in e's dictionary,
// and the white space before its key and string there.
func (f *File) insertAt(e *entry, tag, ws string) (int, string) {
	at, w := e.pair.value.Open, ws
	seenForm := false
	for _, q := range e.vars {
		r := slices.Index(lang.CLDRCategories, q.key)
		switch {
		case r < 0 && seenForm:
		case r < 0:
			at, w = q.end, f.text[q.start:q.keyNode.Start]
		case r < slices.Index(lang.CLDRCategories, tag) && e.kept(q.key, f.tags):
			seenForm = true
			at, w = q.end, f.text[q.start:q.keyNode.Start]
		default:
			seenForm = true
		}
	}
	return at, w
}

// kept reports whether the form of category key stays in the file.
func (e *entry) kept(key string, tags []string) bool {
	i := slices.Index(tags, key)
	return i < 0 || e.unit.Target[i] != "" || e.old[i] == e.unit.Target[i]
}

// renderEntry writes an added unit's key and value at indentation ws.
func renderEntry(e *entry, ws string, tags []string) string {
	if e.inner == "" {
		return "<key>" + formatKey + "</key>" + ws + "<string>" + escaper.Replace(e.unit.Target[0]) + "</string>"
	}
	in := ws + "\t"
	var b strings.Builder
	b.WriteString("<key>" + escaper.Replace(e.inner) + "</key>" + ws + "<dict>")
	b.WriteString(in + "<key>NSStringFormatSpecTypeKey</key>" + in + "<string>NSStringPluralRuleType</string>")
	b.WriteString(in + "<key>NSStringFormatValueTypeKey</key>" + in + "<string></string>")
	for i, tag := range tags {
		if v := e.unit.Target[i]; v != "" {
			b.WriteString(in + "<key>" + tag + "</key>" + in + "<string>" + escaper.Replace(v) + "</string>")
		}
	}
	b.WriteString(ws + "</dict>")
	return b.String()
}

// newOuter writes an added key of the root dictionary with its units.
func (f *File) newOuter(o *outer, ws string) string {
	in := ws + "\t"
	var b strings.Builder
	b.WriteString(ws + "<key>" + escaper.Replace(o.key) + "</key>" + ws + "<dict>")
	for _, e := range o.entries {
		if !e.removed {
			b.WriteString(in + renderEntry(e, in, f.tags))
		}
	}
	b.WriteString(ws + "</dict>")
	return b.String()
}
