package exporters

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tmsproject/tms/pkg/weblate"
)

func init() {
	register(xliffExporter{name: "xliff", poxliff: true})
	register(xliffExporter{name: "xliff11"})
}

// xliffExporter is the reference's PoXliffExporter ("xliff": translate-
// toolkit's PoXliffFile, a plural a <group restype="x-gettext-plurals">
// of one trans-unit per form) and XliffExporter ("xliff11": xlifffile,
// one trans-unit per string holding its first forms). Both write every
// unit, of any translation: source and target (their markup read as
// XLIFF placeables when it parses), locations as context groups, the key
// or the checksum as id, notes (developer: the file's note and the
// explanation; translator: comments and suggestions), flags as
// weblate-flags (and maxwidth from max-length), and the state as the
// toolkit's approved and target state attributes.
type xliffExporter struct {
	name    string
	poxliff bool
}

func (e xliffExporter) Name() string      { return e.name }
func (xliffExporter) ContentType() string { return "application/x-xliff+xml; charset=utf-8" }
func (xliffExporter) Extension() string   { return "xlf" }
func (xliffExporter) Supports(Meta) bool  { return true }

// xliffIndent is xlifffile's XMLindent.
var xliffIndent = reindentOptions{indent: "  ", maxLevel: 8,
	leaves:         map[string]bool{"note": true, "source": true, "target": true},
	ignorePreserve: map[string]bool{"trans-unit": true}}

func (e xliffExporter) Export(m Meta, units []Unit) []byte {
	body := newNode("body")
	for _, u := range units {
		body.appendChild(e.unit(m, u))
	}
	file := newNode("file")
	for _, a := range [][2]string{{"original", "NoName"}, {"source-language", m.SourceLanguage},
		{"datatype", "plaintext"}, {"target-language", m.LanguageCode}} {
		file.set(a[0], a[1])
	}
	file.appendChild(body)
	root := newNode("xliff")
	root.set("xmlns", "urn:oasis:names:tc:xliff:document:1.1")
	root.set("version", "1.1")
	root.appendChild(file)
	reindent(root, 0, xliffIndent)
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	root.write(&b)
	return []byte(b.String())
}

// unit is the exporter's add_unit on the store's unit class.
func (e xliffExporter) unit(m Meta, u Unit) *xnode {
	var x xunit
	if e.poxliff && u.plural() {
		x = newPluralUnit(m, u)
	} else {
		x = newSingleUnit(u, u.targets(m.PluralNumber), e.poxliff)
	}
	for _, l := range strings.Split(xmlFilter(u.Location), ",") {
		if l = strings.TrimSpace(l); l != "" {
			x.addLocation(l)
		}
	}
	id := xmlFilter(u.Context)
	if id == "" {
		id = checksum(u.IDHash)
	}
	x.setID(id)
	for _, n := range u.developerNotes(xmlFilter) {
		x.addNote(n, "developer")
	}
	for _, n := range u.translatorNotes() {
		x.addNote(xmlFilter(n), "translator")
	}
	if flags := u.flags(); len(flags) > 0 {
		el := x.element()
		for _, f := range flags {
			if v, ok := strings.CutPrefix(f, "max-length:"); ok {
				if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil {
					el.set("maxwidth", strconv.Itoa(n))
				}
			}
		}
		el.set("weblate-flags", strings.Join(flags, ", "))
	}
	if u.fuzzy() {
		x.markFuzzy()
	}
	markApproved(x.element(), u.State == weblate.StateApproved)
	return x.element()
}

// xmlFilter is the XML exporters' string_filter: control characters but
// tab, newline and carriage return removed, and U+FFFE, U+FFFF.
func xmlFilter(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' || r == 0xFFFE || r == 0xFFFF {
			return -1
		}
		return r
	}, s)
}

func filterAll(forms []string) []string {
	out := make([]string, len(forms))
	for i, f := range forms {
		out[i] = xmlFilter(f)
	}
	return out
}

// richForms converts every form, or reports that one does not parse (the
// reference then keeps all of them plain).
func richForms(forms []string) ([]*xnode, bool) {
	out := make([]*xnode, len(forms))
	for i, f := range forms {
		n, err := richContent(f)
		if err != nil {
			return nil, false
		}
		out[i] = n
	}
	return out, true
}

// setRich replaces the content of el by the converted content.
func setRich(el, content *xnode) {
	el.clearContent()
	if len(content.children) == 0 { // a plain string, even empty, is the text
		el.text, el.hasText = content.text, true
		return
	}
	if content.text != "" {
		el.appendText(content.text)
	}
	for _, c := range content.children {
		el.appendChild(c)
	}
}

// checksum is the reference's hash_to_checksum: the signed id_hash plus
// 2^63 in 16 hex digits (its two's complement with the top bit flipped).
func checksum(idHash int64) string {
	return fmt.Sprintf("%016x", uint64(idHash)^1<<63) //nolint:gosec // the two's complement bits are wanted
}
