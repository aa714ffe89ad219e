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

// edit replaces src[start:end].
type edit struct {
	start, end int
	text       string
}

// Bytes renders the file.
func (f *File) Bytes() []byte {
	var edits []edit
	if f.rootEdit {
		end := ">"
		if f.root.SelfClosing {
			end = "/>"
		}
		edits = append(edits, edit{f.root.Start, f.root.Open, f.rootTag + end})
	}
	for _, sg := range f.segs {
		switch {
		case sg.node == nil && !sg.removed:
			at, ind := f.insertAt()
			edits = append(edits, edit{at, at, "\n" + ind + sg.renderUnit(f.prefix, ind, f.step)})
		case sg.node == nil:
		case sg.removed && sg.whole:
			edits = append(edits, edit{sg.unitCut, sg.unit.End, ""})
		case sg.removed:
			edits = append(edits, edit{sg.cut, sg.node.End, ""})
		case sg.dirty:
			edits = append(edits, edit{sg.node.Start, sg.node.End, sg.render()})
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

// insertAt is where added units go, after the last element (or
// non-blank text) of the first <file>, and their indentation: that of
// the file's first child, or one step more than the file's.
func (f *File) insertAt() (int, string) {
	at, ind := f.file.Open, ""
	for i, k := range f.file.Kids {
		if k.Kind != xmltree.Text || strings.TrimSpace(k.Text) != "" {
			at = k.End
			if ind == "" {
				_, ind = lineCut(f.file, i)
			}
		}
	}
	if ind == "" {
		_, fileInd := lineCut(f.root, slices.Index(f.root.Kids, f.file))
		ind = fileInd + f.step
	}
	return at, ind
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
	sg, ok := u.Ref.(*segment)
	if !ok || !slices.Contains(f.segs, sg) {
		return errForeign
	}
	if len(forms) != 1 {
		return fmt.Errorf("xliff2: %q has one form, got %d", u.Context, len(forms))
	}
	value := forms[0]
	fuzzy = fuzzy && value != "" && !approved
	approved = approved && value != ""
	if len(u.Target) == 1 && u.Target[0] == value && u.Fuzzy == fuzzy && u.Approved == approved {
		return nil
	}
	if len(u.Target) != 1 || u.Target[0] != value {
		c, err := f.content(value)
		if err != nil {
			return fmt.Errorf("xliff2: %w", err)
		}
		sg.setContent(c, f.prefix, f.format.placeables)
	}
	sg.setState(value == "", fuzzy, approved)
	u.Target, u.Fuzzy, u.Approved = []string{value}, fuzzy, approved
	return nil
}

// Add appends a <unit> of one segment to the first <file>, as
// translate-toolkit's Xliff2File.addunit does: the context as the unit's
// id ("unit::segment" names the segment too), the segment
// xml:space="preserve", the source and the target written as the
// variant writes values, the state translated (initial when fuzzy,
// reviewed when approved).
func (f *File) Add(u *base.Unit) error {
	if f.file == nil || f.file.SelfClosing {
		return errNoFile
	}
	if len(u.Source) != 1 || u.Source[0] == "" {
		return errors.New("xliff2: a unit needs one non-empty source string")
	}
	if len(u.Target) > 1 {
		return errors.New("xliff2: plural units are not supported")
	}
	target := ""
	if len(u.Target) == 1 {
		target = u.Target[0]
	}
	if !xmltree.ValidXML(u.Context) {
		return fmt.Errorf("xliff2: %w", xliffmarkup.ErrInvalidChars)
	}
	src, err := f.content(u.Source[0])
	if err != nil {
		return fmt.Errorf("xliff2: %w", err)
	}
	unitID, segID, _ := strings.Cut(u.Context, segmentSeparator)
	_, ind := f.insertAt()
	sg := newUnitSegment(f.prefix, unitID, src, ind+f.step+f.step)
	if segID != "" && !strings.HasPrefix(segID, "segment-") {
		sg.tag += ` id="` + xmltree.AttrEscaper.Replace(segID) + `"`
	}
	f.segs = append(f.segs, sg)
	nu := &base.Unit{Context: u.Context, Source: []string{u.Source[0]}, Target: []string{""}, Flags: u.Flags, Ref: sg}
	if err := f.SetTargetApproved(nu, []string{target}, u.Fuzzy, u.Approved); err != nil {
		f.segs = f.segs[:len(f.segs)-1]
		return err
	}
	u.Target, u.Fuzzy, u.Approved, u.Ref = nu.Target, nu.Fuzzy, nu.Approved, sg
	f.units = append(f.units, u)
	return nil
}

// Remove drops a unit's segment, with its <unit> when that has no other
// segment, and the line break and indentation before it.
func (f *File) Remove(u *base.Unit) bool {
	sg, ok := u.Ref.(*segment)
	if !ok || sg.removed || !slices.Contains(f.segs, sg) {
		return false
	}
	sg.removed = true
	f.units = slices.DeleteFunc(f.units, func(x *base.Unit) bool { return x == u })
	return true
}

// NewTranslation is base for language lang, as Weblate's
// untranslate_store writes it: the root's trgLang set to the language
// (BCP 47), every translated unit without its <target>; the XML
// declaration is translate-toolkit's.
func (f Format) NewTranslation(data []byte, l base.Language) ([]byte, error) {
	if strings.TrimSpace(strings.TrimPrefix(string(data), "\ufeff")) == "" {
		return nil, errors.New("xliff2: a new translation needs a template file")
	}
	pf, err := f.Parse(data, l)
	if err != nil {
		return nil, err
	}
	file := pf.(*File)
	file.rootTag = xliffmarkup.SetAttr(file.rootTag, "trgLang", strings.ReplaceAll(l.Code, "_", "-"))
	file.rootEdit = true
	for _, u := range file.units {
		if u.Target[0] != "" {
			if err := file.SetTarget(u, []string{""}, false); err != nil {
				return nil, err
			}
		}
	}
	out := strings.TrimPrefix(string(file.Bytes()), "\ufeff")
	if strings.HasPrefix(out, "<?xml") {
		if i := strings.Index(out, "?>"); i >= 0 {
			out = strings.TrimLeft(out[i+2:], " \t\r\n")
		}
	}
	return []byte(declaration + "\n" + out), nil
}

// declaration is the XML declaration translate-toolkit writes.
const declaration = `<?xml version="1.0" encoding="UTF-8"?>`
