// Package po is the gettext PO format of the registry: an adapter over the
// lossless codec of pkg/po.
package po

import (
	"errors"
	"fmt"
	"strings"

	"github.com/tmsproject/tms/pkg/po"
	"github.com/tmsproject/tms/services/translation/formats/base"
)

// Format is gettext PO (file_format "po").
type Format struct{}

// ID is the format's file_format identifier.
func (Format) ID() string { return "po" }

// Name is the format's name as the reference shows it.
func (Format) Name() string { return "gettext PO file" }

// Monolingual reports false: a PO file is bilingual (msgid and msgstr).
func (Format) Monolingual() bool { return false }

// ContentType is the media type of a download.
func (Format) ContentType() string { return "text/x-po" }

// Parse reads a PO file; lang is not needed, the header says it.
func (Format) Parse(data []byte, _ base.Language) (base.File, error) {
	f, err := po.Parse(data)
	if err != nil {
		return nil, err
	}
	return &File{f: f}, nil
}

// NewTranslation renders base for a language: header Language and
// Plural-Forms set, every message empty with one form per plural.
func (Format) NewTranslation(data []byte, lang base.Language) ([]byte, error) {
	f, err := po.Parse(data)
	if err != nil {
		return nil, err
	}
	f.SetHeaderField("Language", lang.Code)
	f.SetHeaderField("Plural-Forms", fmt.Sprintf("nplurals=%d; plural=%s;", lang.PluralNumber, lang.PluralFormula))
	for _, e := range f.Entries() {
		n := 1
		if e.HasPlural {
			n = max(lang.PluralNumber, 1)
		}
		if err := e.SetTarget(make([]string, n), false); err != nil {
			return nil, err
		}
	}
	return f.Bytes(), nil
}

// File is a parsed PO file.
type File struct{ f *po.File }

// Wrap makes a pkg/po file a registry File.
func Wrap(f *po.File) *File { return &File{f: f} }

// PO is the underlying pkg/po file.
func (f *File) PO() *po.File { return f.f }

// SourceForms are the msgid and, for plurals, the msgid_plural.
func SourceForms(e *po.Entry) []string {
	if e.HasPlural {
		return []string{e.Msgid, e.MsgidPlural}
	}
	return []string{e.Msgid}
}

// unit is the registry's view of an entry.
func unit(e *po.Entry) *base.Unit {
	return &base.Unit{Context: e.Context, Source: SourceForms(e), Target: append([]string(nil), e.Msgstr...),
		Note: e.Note(), Flags: e.FlagsWithoutFuzzy(), Location: e.Location(), PreviousSource: e.PreviousSource(),
		Fuzzy: e.Fuzzy(), Ref: e}
}

// Units are the translatable entries: neither the header nor obsolete.
func (f *File) Units() []*base.Unit {
	entries := f.f.Entries()
	out := make([]*base.Unit, len(entries))
	for i, e := range entries {
		out[i] = unit(e)
	}
	return out
}

var errForeign = errors.New("po: unit of another file")

func entry(u *base.Unit) (*po.Entry, error) {
	e, ok := u.Ref.(*po.Entry)
	if !ok {
		return nil, errForeign
	}
	return e, nil
}

// SetTarget sets msgstr and the fuzzy flag as translate-toolkit does.
func (f *File) SetTarget(u *base.Unit, forms []string, fuzzy bool) error {
	e, err := entry(u)
	if err != nil {
		return err
	}
	if err := e.SetTarget(forms, fuzzy); err != nil {
		return err
	}
	u.Target, u.Fuzzy = append([]string(nil), forms...), fuzzy
	return nil
}

// Add appends a new entry.
func (f *File) Add(u *base.Unit) error {
	e := &po.Entry{Context: u.Context, HasContext: u.Context != ""}
	if len(u.Source) > 0 {
		e.Msgid = u.Source[0]
	}
	if len(u.Source) > 1 {
		e.MsgidPlural, e.HasPlural = u.Source[1], true
	}
	e.Msgstr = append([]string(nil), u.Target...)
	if len(e.Msgstr) == 0 {
		e.Msgstr = []string{""}
	}
	if u.Fuzzy {
		e.Flags = []string{"fuzzy"}
	}
	f.f.AddEntry(e)
	u.Ref = e
	return nil
}

// Remove drops an entry.
func (f *File) Remove(u *base.Unit) bool {
	e, err := entry(u)
	return err == nil && f.f.RemoveEntry(e)
}

// RecordsFuzzy reports true: PO has the fuzzy flag.
func (f *File) RecordsFuzzy() bool { return true }

// Bytes renders the file losslessly.
func (f *File) Bytes() []byte { return f.f.Bytes() }

// HeaderField returns a header field ("" when absent).
func (f *File) HeaderField(name string) string { return f.f.HeaderField(name) }

// UpdateHeader sets the fields of h, in the order Weblate passes them to
// translate-toolkit (whose header_order decides the final layout).
func (f *File) UpdateHeader(h base.Header) {
	f.f.SetHeaderField("Last-Translator", h.LastTranslator)
	if h.PluralForms != "" {
		f.f.SetHeaderField("Plural-Forms", h.PluralForms)
	}
	f.f.SetHeaderField("Language", h.Language)
	f.f.SetHeaderField("PO-Revision-Date", h.Revised.Format("2006-01-02 15:04-0700"))
	if h.LanguageTeam != "" {
		f.f.SetHeaderField("Language-Team", h.LanguageTeam)
	}
	if h.ReportBugsTo != "" {
		f.f.SetHeaderField("Report-Msgid-Bugs-To", h.ReportBugsTo)
	}
	f.f.SetHeaderField("X-Generator", h.Generator)
	ct := f.f.HeaderField("Content-Type")
	if ct == "" || strings.Contains(ct, "charset=CHARSET") || strings.Contains(ct, "charset=ASCII") {
		f.f.SetHeaderField("Content-Type", "text/plain; charset=UTF-8")
	}
}

// Compile is the MO catalogue of the translated, non-fuzzy entries.
func (f *File) Compile() ([]byte, string, string) {
	return f.f.MO(), ".mo", "application/x-gettext-catalog"
}

// UpdateBilingual is the reference's update_bilingual for PO: msgmerge
// --previous of translation with template (pkg/po Merge), which rewrites
// the whole file the way msgmerge writes it.
func (Format) UpdateBilingual(translation, template []byte) ([]byte, error) {
	def, err := po.Parse(translation)
	if err != nil {
		return nil, err
	}
	ref, err := po.Parse(template)
	if err != nil {
		return nil, fmt.Errorf("template: %w", err)
	}
	out, _ := po.Merge(def, ref, po.MergeOptions{Previous: true})
	return out.Bytes(), nil
}
