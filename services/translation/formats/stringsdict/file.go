package stringsdict

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/internal/xmltree"
)

// outer is a key of the root dictionary: its pair (none when added) and
// its dictionary's pairs.
type outer struct {
	key     string
	pair    pair
	dict    *xmltree.Node
	inner   []pair
	entries []*entry // its units, those added last
	live    int      // units not removed
	added   bool
}

// entry is a unit: the format key (inner "") or a variable of an outer key.
type entry struct {
	unit                  *base.Unit
	out                   *outer
	inner                 string
	pair                  pair            // its pair in the outer dictionary
	forms                 map[string]pair // a variable's strings by category
	vars                  []pair          // a variable dictionary's pairs
	old                   []string        // the forms as read
	dirty, removed, added bool
}

// File is a parsed .stringsdict file.
type File struct {
	text   string
	root   *xmltree.Node // the root <dict>
	rootWS string        // white space before the root <dict>
	tags   []string
	outers []*outer
	units  []*base.Unit
	ids    map[string]*entry
}

var errForeign = errors.New("stringsdict: unit of another file")

// Parse reads a file of language l.
func (Format) Parse(data []byte, l base.Language) (base.File, error) {
	top, err := xmltree.Parse(data, 0, false)
	if err != nil {
		return nil, fmt.Errorf("stringsdict: %w", err)
	}
	plist := xmltree.Root(top)
	if plist.Name != "plist" {
		return nil, fmt.Errorf("stringsdict: the root element is <%s>, not <plist>", plist.Name)
	}
	f := &File{text: string(data), tags: Tags(l.Code), ids: map[string]*entry{}}
	for _, k := range plist.Kids {
		switch {
		case k.Kind == xmltree.Element && f.root == nil && k.Name == "dict":
			f.root = k
		case k.Kind == xmltree.Element || (k.Kind == xmltree.Text && !blank(k.Text)):
			return nil, errors.New("stringsdict: the property list is not one <dict>")
		case k.Kind == xmltree.Text && f.root == nil:
			f.rootWS = k.Text
		}
	}
	if f.root == nil {
		return nil, errors.New("stringsdict: the property list has no <dict>")
	}
	roots, err := pairs(f.root)
	if err != nil {
		return nil, err
	}
	for _, p := range roots {
		if err := f.readOuter(p); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// readOuter reads a key of the root dictionary into its units.
func (f *File) readOuter(p pair) error {
	if p.value.Name != "dict" {
		return fmt.Errorf("stringsdict: %q is not a dict", p.key)
	}
	inner, err := pairs(p.value)
	if err != nil {
		return err
	}
	o := &outer{key: p.key, pair: p, dict: p.value, inner: inner}
	f.outers = append(f.outers, o)
	for _, ip := range inner {
		e := &entry{out: o, pair: ip}
		switch {
		case ip.key == formatKey:
			v, err := stringOf(ip.value, fmt.Sprintf("%s of %q", formatKey, p.key))
			if err != nil {
				return err
			}
			e.old = []string{v}
		case ip.value.Name == "dict":
			e.inner = ip.key
			if err := f.readVariable(e); err != nil {
				return err
			}
		default:
			return fmt.Errorf("stringsdict: unexpected key %s in %s", ip.key, p.key)
		}
		if err := f.addEntry(o, e); err != nil {
			return err
		}
	}
	return nil
}

// readVariable reads a variable dictionary's forms.
func (f *File) readVariable(e *entry) error {
	vars, err := pairs(e.pair.value)
	if err != nil {
		return err
	}
	e.vars, e.forms = vars, map[string]pair{}
	for _, vp := range vars {
		if vp.key == "NSStringFormatSpecTypeKey" {
			if spec, _ := stringOf(vp.value, vp.key); spec != "" && spec != "NSStringPluralRuleType" {
				return fmt.Errorf("stringsdict: %s in %s is not of NSStringPluralRuleType", e.inner, e.out.key)
			}
		}
		e.forms[vp.key] = vp
	}
	e.old = make([]string, len(f.tags))
	for i, tag := range f.tags {
		if vp, ok := e.forms[tag]; ok {
			if e.old[i], err = stringOf(vp.value, fmt.Sprintf("%q of %s in %s", tag, e.inner, e.out.key)); err != nil {
				return err
			}
		}
	}
	return nil
}

// id is a unit's context: key, or key:variable.
func id(outerKey, inner string) string {
	if inner == "" {
		return outerKey
	}
	return outerKey + ":" + inner
}

func (f *File) addEntry(o *outer, e *entry) error {
	ctx := id(o.key, e.inner)
	if f.ids[ctx] != nil {
		return fmt.Errorf("stringsdict: unit %q repeated", ctx)
	}
	e.unit = &base.Unit{Context: ctx, Target: append([]string(nil), e.old...), Ref: e}
	f.ids[ctx] = e
	o.entries = append(o.entries, e)
	o.live++
	f.units = append(f.units, e.unit)
	return nil
}

// Units are the file's format keys and variables in order.
func (f *File) Units() []*base.Unit { return f.units }

// RecordsFuzzy reports false: property lists have no fuzzy flag.
func (f *File) RecordsFuzzy() bool { return false }

// SetTarget stores a unit's string or plural forms; unchanged values keep
// their bytes.
func (f *File) SetTarget(u *base.Unit, forms []string, _ bool) error {
	e, ok := u.Ref.(*entry)
	if !ok || f.ids[u.Context] != e {
		return errForeign
	}
	want := 1
	if e.inner != "" {
		want = len(f.tags)
	}
	if len(forms) != want {
		return fmt.Errorf("stringsdict: %q has %d forms, got %d", u.Context, want, len(forms))
	}
	for _, s := range forms {
		if err := checkValue(s); err != nil {
			return fmt.Errorf("stringsdict: %q: %w", u.Context, err)
		}
	}
	if strings.Join(forms, "\x00") == strings.Join(u.Target, "\x00") {
		return nil
	}
	u.Target = append([]string(nil), forms...)
	e.dirty = true
	return nil
}

// Add appends a unit: a format key ("key") or a variable ("key:variable")
// of a key of the file or a new one.
func (f *File) Add(u *base.Unit) error {
	forms, err := base.AddForms("stringsdict", u, f.ids[u.Context] != nil)
	if err != nil {
		return err
	}
	outerKey, inner := split(u.Context)
	if inner == formatKey || outerKey == "" {
		return fmt.Errorf("stringsdict: %q cannot be written as a key", u.Context)
	}
	if inner != "" && len(forms) == 1 && len(f.tags) > 1 {
		forms = append(forms, make([]string, len(f.tags)-1)...)
	}
	var o *outer
	for _, x := range f.outers {
		if x.key == outerKey {
			o = x
		}
	}
	if o == nil {
		o = &outer{key: outerKey, added: true}
		f.outers = append(f.outers, o)
	}
	e := &entry{out: o, inner: inner, added: true, forms: map[string]pair{}}
	if inner != "" {
		e.old = make([]string, len(f.tags))
	} else {
		e.old = []string{""}
	}
	if err := f.addEntry(o, e); err != nil {
		return err
	}
	u.Ref, u.Source, u.Target = e, nil, e.unit.Target
	e.unit = u
	f.units[len(f.units)-1] = u
	if err := f.SetTarget(u, forms, false); err != nil {
		f.Remove(u)
		return err
	}
	return nil
}

// split is translate-toolkit's StringsDictUnit id: the key and the
// variable after its last colon.
func split(ctx string) (string, string) {
	ctx = strings.TrimPrefix(ctx, ":")
	if i := strings.LastIndexByte(ctx, ':'); i > 0 {
		return ctx[:i], ctx[i+1:]
	}
	return ctx, ""
}

// Remove drops a unit: its pair, and its key's dictionary with its last
// unit.
func (f *File) Remove(u *base.Unit) bool {
	e, ok := u.Ref.(*entry)
	if !ok || e.removed || f.ids[u.Context] != e {
		return false
	}
	e.removed = true
	e.out.live--
	delete(f.ids, u.Context)
	for i, x := range f.units {
		if x == u {
			f.units = append(f.units[:i:i], f.units[i+1:]...)
			break
		}
	}
	return true
}

// NewTranslation is base with every value emptied (plural forms dropped,
// as the reference drops empty forms); an empty base gives Weblate's new
// file, an empty dictionary.
func (fm Format) NewTranslation(data []byte, l base.Language) ([]byte, error) {
	if strings.TrimSpace(string(data)) == "" {
		return []byte(newFile), nil
	}
	pf, err := fm.Parse(data, l)
	if err != nil {
		return nil, err
	}
	for _, u := range pf.Units() {
		if err := pf.SetTarget(u, make([]string, len(u.Target)), false); err != nil {
			return nil, err
		}
	}
	return pf.Bytes(), nil
}

// newFile is Weblate's StringsdictFormat.new_translation.
const newFile = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
<plist version="1.0">
    <dict>
    </dict>
</plist>
`
