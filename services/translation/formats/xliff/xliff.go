// Package xliff is the XLIFF 1.2 format of the registry (file_format
// "xliff", Weblate's RichXliffFormat, "XLIFF 1.2 with placeables
// support"), read and written as Weblate's RichXliffUnit on
// translate-toolkit's xlifffile does.
//
// XLIFF is bilingual: every <trans-unit> with a non-empty <source> is a
// unit, wherever it sits under <file> (in <body> or a <group>). Its
// context is the resname attribute, or else the <file> original and the
// id joined by "///"; its note the texts of its <note> elements (one per
// line, repeats dropped); its location the sourcefile:linenumber of its
// context-groups of purpose "location"; its flags those Weblate reads
// from the element (maxwidth and size-unit, font, weblate-flags) and
// "xml-text". Source and target are the XML content of <source> and
// <target> as Weblate shows it: inline elements (<g>, <x/>, <ph>, ...)
// are part of the string, serialized as lxml does, and & < > appear
// escaped. Outside xml:space="preserve" whitespace is normalized.
//
// States follow Weblate: a unit with a target is translated, fuzzy when
// the target's state is new, needs-translation, needs-adaptation or
// needs-l10n (needs-review-* is translated), approved when the
// trans-unit has approved="yes". Writing sets the target's state to
// translated, needs-translation or final, approved="yes" for an approved
// unit and approved="no" for a formerly approved one; an emptied unit
// loses its <target>. A written target makes the unit
// xml:space="preserve", as translate-toolkit does.
//
// Plural forms: Weblate's xliff format has none (only poxliff does), so
// neither has this. XLIFF 2 files are the xliff2 package's (an error here).
//
// Where this differs from the reference: translate-toolkit re-indents
// the whole document and rewrites its XML declaration on every save;
// this keeps the file's bytes except for the edited elements (a new
// <target> or <trans-unit> takes the indentation of its neighbours).
// Namespace prefixes of inline elements are dropped in the strings.
package xliff

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/internal/xliffmarkup"
	"github.com/tmsproject/tms/services/translation/formats/internal/xmltree"
)

// Format is the XLIFF 1.2 format.
type Format struct{}

// ID is the format's file_format identifier.
func (Format) ID() string { return "xliff" }

// Name is the format's name as the reference shows it.
func (Format) Name() string { return "XLIFF 1.2 with placeables support" }

// Monolingual reports false: every file holds its sources.
func (Format) Monolingual() bool { return false }

// ContentType is the media type of a download (translate-toolkit's first).
func (Format) ContentType() string { return "application/x-xliff" }

var (
	errRoot         = errors.New("xliff: the file is not an XLIFF <xliff> document")
	errVersion2     = errors.New("xliff: an XLIFF 2 file (use the xliff2 file format)")
	errForeign      = errors.New("xliff: unit of another file")
	errInvalidChars = fmt.Errorf("xliff: %w", xliffmarkup.ErrInvalidChars)
)

// fuzzyStates are the target states Weblate reads as needing editing.
var fuzzyStates = []string{"new", "needs-translation", "needs-adaptation", "needs-l10n"}

// idSeparator joins the file name and the id in translate-toolkit's unit
// ids; Weblate shows it as "///".
const idSeparator = "\x04"

// fileNode is a <file> element, whose start tag NewTranslation edits.
type fileNode struct {
	node *xmltree.Node
	tag  string // start tag without its ">" or "/>"
	edit bool
}

// File is a parsed XLIFF file.
type File struct {
	src   string
	files []*fileNode
	tus   []*transUnit
	units []*base.Unit
	// body is the <body> of the first <file>, where Add appends; prefix
	// the namespace prefix of the document's elements ("" or "x:").
	body   *xmltree.Node
	prefix string
	step   string // the file's indentation unit
}

// Parse reads an XLIFF 1.x file; the language does not matter (there are
// no plurals).
func (Format) Parse(data []byte, _ base.Language) (base.File, error) {
	root, err := xliffmarkup.Root(data)
	if errors.Is(err, xliffmarkup.ErrNotXLIFF) {
		return nil, errRoot
	}
	if err != nil {
		return nil, fmt.Errorf("xliff: %w", err)
	}
	if v, _ := root.Attr("version"); strings.HasPrefix(v, "2.") {
		return nil, errVersion2
	}
	f := &File{src: string(data), step: "  "}
	if i := strings.IndexByte(root.Name, ':'); i >= 0 {
		f.prefix = root.Name[:i+1]
	}
	f.walk(root, "", nil)
	if f.body == nil {
		return nil, errors.New("xliff: the file has no <file> with a <body>")
	}
	return f, nil
}

// walk collects the <file> elements and the trans-units under n;
// original is the name of the enclosing <file>.
func (f *File) walk(n *xmltree.Node, original string, file *fileNode) {
	for i, k := range n.Kids {
		if k.Kind != xmltree.Element {
			continue
		}
		switch xmltree.Local(k.Name) {
		case "file":
			fn := &fileNode{node: k, tag: xmltree.StartTag(f.src, k)}
			f.files = append(f.files, fn)
			o, _ := k.Attr("original")
			f.walk(k, o, fn)
		case "trans-unit":
			if file != nil {
				f.addUnit(n, i, original)
			}
		default:
			if file != nil && f.body == nil && xmltree.Local(k.Name) == "body" && n == file.node && !k.SelfClosing {
				f.body = k
			}
			f.walk(k, original, file)
		}
	}
}

// addUnit reads the trans-unit n.Kids[i] of parent.
func (f *File) addUnit(parent *xmltree.Node, i int, original string) {
	n := parent.Kids[i]
	tu := newTransUnit(f.src, n)
	tu.cut = n.Start
	if i > 0 {
		if prev := parent.Kids[i-1]; prev.Kind == xmltree.Text && strings.TrimSpace(prev.Text) == "" {
			if j := strings.LastIndexByte(prev.Text, '\n'); j >= 0 {
				tu.cut = prev.Start + j
			}
			tu.ind = xmltree.LineIndent(prev.Text, "")
		}
	}
	if tu.srcIdx > 0 {
		if in := xmltree.LineIndent(tu.pieces[tu.srcIdx-1], ""); strings.HasPrefix(in, tu.ind) && len(in) > len(tu.ind) {
			f.step = in[len(tu.ind):]
		}
	}
	f.tus = append(f.tus, tu)
	if tu.source == nil {
		return
	}
	src := xliffmarkup.RichString(tu.source, tu.space)
	if src == "" {
		return // Weblate skips units without a source
	}
	u := &base.Unit{Context: context(n, original), Source: []string{src}, Target: []string{""},
		Note: notes(n, tu.space), Flags: xliffmarkup.Flags(n, "xml-text"), Location: locations(n, tu.space), Ref: tu}
	if tu.target != nil {
		u.Target[0] = xliffmarkup.RichString(tu.target, tu.space)
	}
	translated := u.Target[0] != ""
	state, _ := tu.targetAttr("state")
	u.Fuzzy = translated && slices.Contains(fuzzyStates, state)
	approved, _ := n.Attr("approved")
	u.Approved = translated && approved == "yes"
	translate, _ := n.Attr("translate")
	u.ReadOnly = translate == "no"
	f.units = append(f.units, u)
}

// context is Weblate's context of a trans-unit: its resname, or the
// translate-toolkit id (file original, separator, id) with the
// separator shown as "///".
func context(n *xmltree.Node, original string) string {
	if r, _ := n.Attr("resname"); r != "" {
		return r
	}
	id := ""
	if original != "" {
		id = original + idSeparator
	}
	v, _ := n.Attr("id")
	id += strings.ReplaceAll(v, "__%04__", idSeparator)
	return strings.ReplaceAll(id, idSeparator, "///")
}

// Units are the units of the file in order.
func (f *File) Units() []*base.Unit { return f.units }

// RecordsFuzzy reports true: the target's state records it.
func (f *File) RecordsFuzzy() bool { return true }

// edit replaces src[start:end].
type edit struct {
	start, end int
	text       string
}

// Bytes renders the file.
func (f *File) Bytes() []byte {
	var edits []edit
	for _, fn := range f.files {
		if fn.edit {
			end := ">"
			if fn.node.SelfClosing {
				end = "/>"
			}
			edits = append(edits, edit{fn.node.Start, fn.node.Open, fn.tag + end})
		}
	}
	for _, tu := range f.tus {
		switch {
		case tu.node == nil && !tu.removed:
			at := f.insertAt()
			edits = append(edits, edit{at, at, "\n" + tu.ind + tu.render()})
		case tu.node == nil:
		case tu.removed:
			edits = append(edits, edit{tu.cut, tu.node.End, ""})
		case tu.dirty:
			edits = append(edits, edit{tu.node.Start, tu.node.End, tu.render()})
		}
	}
	slices.SortStableFunc(edits, func(a, b edit) int { return a.start - b.start })
	var b strings.Builder
	pos := 0
	for _, e := range edits {
		b.WriteString(f.src[pos:e.start])
		b.WriteString(e.text)
		pos = e.end
	}
	b.WriteString(f.src[pos:])
	return []byte(b.String())
}

// insertAt is where added units go: after the last element (or
// non-blank text) of the first file's body.
func (f *File) insertAt() int {
	at := f.body.Open
	for _, k := range f.body.Kids {
		if k.Kind != xmltree.Text || strings.TrimSpace(k.Text) != "" {
			at = k.End
		}
	}
	return at
}

// SetTarget stores the target of a unit and whether it needs editing;
// a formerly approved unit is no longer approved.
func (f *File) SetTarget(u *base.Unit, forms []string, fuzzy bool) error {
	return f.SetTargetApproved(u, forms, fuzzy, false)
}

// SetTargetApproved stores the target of a unit and its state, as
// Weblate's set_target and set_state write them; an unchanged unit keeps
// its bytes.
func (f *File) SetTargetApproved(u *base.Unit, forms []string, fuzzy, approved bool) error {
	tu, ok := u.Ref.(*transUnit)
	if !ok || !slices.Contains(f.tus, tu) {
		return errForeign
	}
	if len(forms) != 1 {
		return fmt.Errorf("xliff: %q has one form, got %d", u.Context, len(forms))
	}
	value := forms[0]
	fuzzy = fuzzy && value != "" && !approved
	approved = approved && value != ""
	if len(u.Target) == 1 && u.Target[0] == value && u.Fuzzy == fuzzy && u.Approved == approved {
		return nil
	}
	if len(u.Target) != 1 || u.Target[0] != value {
		if err := tu.setValue(value, f.prefix); err != nil {
			return err
		}
	}
	tu.setState(value == "", fuzzy, approved)
	u.Target, u.Fuzzy, u.Approved = []string{value}, fuzzy, approved
	return nil
}

// Add appends a trans-unit to the body of the first <file>, as Weblate
// creates one: xml:space="preserve", the context as id, approved="no",
// the source and target as plain text, the target's state translated
// (needs-translation when fuzzy, final when approved).
func (f *File) Add(u *base.Unit) error {
	if len(u.Source) != 1 || u.Source[0] == "" {
		return errors.New("xliff: a unit needs one non-empty source string")
	}
	target := ""
	if len(u.Target) > 1 {
		return errors.New("xliff: plural units are not supported")
	}
	if len(u.Target) == 1 {
		target = u.Target[0]
	}
	if !xmltree.ValidXML(u.Source[0]) || !xmltree.ValidXML(target) || !xmltree.ValidXML(u.Context) {
		return errInvalidChars
	}
	// A context as the file reports its units (file original, "///",
	// id) names the unit by its id, so that it reads back the same.
	original, _ := f.files[0].node.Attr("original")
	id := u.Context
	if original != "" {
		id = strings.TrimPrefix(id, original+"///")
	}
	ind := f.unitIndent()
	tu := newUnit(f.prefix, id, u.Source[0], target, ind, ind+f.step)
	f.tus = append(f.tus, tu)
	nu := &base.Unit{Context: context(&xmltree.Node{Attrs: tu.attrs()}, original), Source: []string{u.Source[0]},
		Target: []string{target}, Ref: tu}
	if err := f.SetTargetApproved(nu, nu.Target, u.Fuzzy, u.Approved); err != nil {
		return err
	}
	u.Context, u.Target, u.Fuzzy, u.Approved, u.Ref = nu.Context, nu.Target, nu.Fuzzy, nu.Approved, tu
	f.units = append(f.units, u)
	return nil
}

// unitIndent is the indentation of the last trans-unit of the first
// body, or one step more than the body's children otherwise.
func (f *File) unitIndent() string {
	for i := len(f.tus) - 1; i >= 0; i-- {
		if tu := f.tus[i]; tu.node != nil && tu.node.Start > f.body.Open && tu.node.End <= f.body.Close {
			return tu.ind
		}
	}
	ind := ""
	if len(f.body.Kids) > 0 && f.body.Kids[0].Kind == xmltree.Text {
		ind = xmltree.LineIndent(f.body.Kids[0].Text, "")
	}
	if ind == "" {
		return f.step + f.step + f.step
	}
	return ind
}

// Remove drops a unit's trans-unit and the line break and indentation
// before it.
func (f *File) Remove(u *base.Unit) bool {
	tu, ok := u.Ref.(*transUnit)
	if !ok || tu.removed || !slices.Contains(f.tus, tu) {
		return false
	}
	tu.removed = true
	f.units = slices.DeleteFunc(f.units, func(x *base.Unit) bool { return x == u })
	return true
}

// NewTranslation is base for language lang, as Weblate's
// untranslate_store writes it: every <file> gets the target-language
// (BCP 47), every translated unit loses its <target> and an approval
// (approved="no"); the XML declaration is translate-toolkit's.
func (f Format) NewTranslation(data []byte, l base.Language) ([]byte, error) {
	if strings.TrimSpace(strings.TrimPrefix(string(data), "\ufeff")) == "" {
		return nil, errors.New("xliff: a new translation needs a template file")
	}
	pf, err := f.Parse(data, l)
	if err != nil {
		return nil, err
	}
	file := pf.(*File)
	code := strings.ReplaceAll(l.Code, "_", "-")
	for _, fn := range file.files {
		fn.tag, fn.edit = xliffmarkup.SetAttr(fn.tag, "target-language", code), true
	}
	for _, u := range file.units {
		if u.Target[0] != "" {
			if err := file.SetTarget(u, []string{""}, false); err != nil {
				return nil, err
			}
		}
	}
	out := string(file.Bytes())
	out = strings.TrimPrefix(out, "\ufeff")
	if strings.HasPrefix(out, "<?xml") {
		if i := strings.Index(out, "?>"); i >= 0 {
			out = strings.TrimLeft(out[i+2:], " \t\r\n")
		}
	}
	return []byte(declaration + "\n" + out), nil
}

// declaration is the XML declaration translate-toolkit writes.
const declaration = `<?xml version="1.0" encoding="UTF-8"?>`
