// Package applestrings is the Apple .strings format of the registry:
// file_format "strings" (UTF-16 with a byte order mark, as Xcode writes
// Localizable.strings) and "strings-utf8", read and written as
// translate-toolkit's stringsfile and stringsutf8file.
//
// A unit is an entry `"key" = "value";` (keys and values may also be
// unquoted words); the key is the unit's context, with \" unescaped and
// other escapes as written, as translate-toolkit reads it. The value is
// decoded as translate-toolkit's propertiesdecode does (\" \\ \n \t \r
// \f, \U and \u with four hex digits). The comments (/* */ and //) since
// the previous entry, and those inside the entry, are its note, except
// Xcode's "No comment provided by engineer." and the file's first
// comment block followed by an empty line, which is its header. A key
// repeated later in the file is no unit, as Weblate takes the first.
//
// An edit rewrites only the value's string, escaped as translate-toolkit
// writes it (backslash, line feed, tab and quote escaped); a new key is
// appended as `"key" = "value";`. Everything else keeps its bytes, and
// the file is written in the encoding it was read in (UTF-16 little- or
// big-endian, with or without its byte order mark, or UTF-8).
//
// Where this differs from the reference: translate-toolkit reads the file
// line by line and re-serializes every entry on save; a value spanning
// lines keeps its line breaks here (the reference joins its lines), an
// entry sharing its line with a comment is read as the entry it is, and
// a big-endian file stays big-endian; a backslash followed by a space in
// a value stays (translate-toolkit reads it as a space, so a value
// holding one would not survive a save). A file the reference guesses to be
// UTF-16 without a byte order mark is read here as UTF-16 only when it is
// not valid UTF-8.
package applestrings

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/tmsproject/tms/services/translation/formats/base"
)

// Format is an Apple .strings format.
type Format struct {
	id, name string
	utf16    bool
}

var (
	// UTF16 is "strings": UTF-16 files.
	UTF16 = Format{id: "strings", name: "iOS strings (UTF-16)", utf16: true}
	// UTF8 is "strings-utf8": UTF-8 files.
	UTF8 = Format{id: "strings-utf8", name: "iOS strings (UTF-8)"}
)

// ID is the format's file_format identifier.
func (f Format) ID() string { return f.id }

// Name is the format's name as the reference shows it.
func (f Format) Name() string { return f.name }

// Monolingual reports true: the template holds the source strings.
func (Format) Monolingual() bool { return true }

// ContentType is the media type of a download, as the reference gives it.
func (Format) ContentType() string { return "text/plain" }

// entry is a unit's place in the file.
type entry struct {
	key, target string
	inline      []string // comments inside the entry
	// from and end delimit the entry's lines with its note; vstart and
	// vend its value.
	from, end, vstart, vend int
	unit                    *base.Unit
	dirty, removed, added   bool
	value                   string // the written value once edited
}

// File is a parsed .strings file.
type File struct {
	enc     encoding
	text    string
	entries []*entry
	units   []*base.Unit
	ids     map[string]bool
}

var errForeign = errors.New("strings: unit of another file")

// Parse reads a file; the language is not needed (.strings has no plurals).
func (f Format) Parse(data []byte, _ base.Language) (base.File, error) {
	text, enc, err := decodeText(data, f.utf16)
	if err != nil {
		return nil, err
	}
	toks, err := (&scanner{s: text}).tokens()
	if err != nil {
		return nil, err
	}
	file := &File{enc: enc, text: text, ids: map[string]bool{}}
	var pending []*token
	wasHeader := false
	for _, t := range toks {
		if t.blankBefore && len(pending) > 0 && !wasHeader {
			pending, wasHeader = nil, true // the header: no entry's note
		}
		if t.comment {
			pending = append(pending, t)
			continue
		}
		e := t.entry
		e.from, e.end = lineStart(text, t.start), lineEnd(text, t.end)
		if len(pending) > 0 {
			e.from = lineStart(text, pending[0].start)
		}
		var note []string
		for _, c := range pending {
			note = append(note, noteLines(c.text)...)
		}
		for _, c := range e.inline {
			note = append(note, noteLines(c)...)
		}
		pending = nil
		if file.ids[e.key] {
			continue
		}
		file.ids[e.key] = true
		e.unit = &base.Unit{Context: e.key, Target: []string{e.target}, Note: strings.Join(note, "\n"), Ref: e}
		file.entries = append(file.entries, e)
		file.units = append(file.units, e.unit)
	}
	return file, nil
}

// lineStart is i moved back over spaces and tabs to the start of its
// line, when only those come before it there.
func lineStart(s string, i int) int {
	j := i
	for j > 0 && (s[j-1] == ' ' || s[j-1] == '\t') {
		j--
	}
	if j == 0 || s[j-1] == '\n' {
		return j
	}
	return i
}

// lineEnd is i moved over trailing spaces and tabs and the line break,
// when only those follow it on its line.
func lineEnd(s string, i int) int {
	j := i
	for j < len(s) && (s[j] == ' ' || s[j] == '\t' || s[j] == '\r') {
		j++
	}
	if j == len(s) {
		return j
	}
	if s[j] == '\n' {
		return j + 1
	}
	return i
}

// Units are the entries of the file in order.
func (f *File) Units() []*base.Unit { return f.units }

// RecordsFuzzy reports false: .strings has no fuzzy flag.
func (f *File) RecordsFuzzy() bool { return false }

// SetTarget stores the value of a unit; an unchanged value keeps its bytes.
func (f *File) SetTarget(u *base.Unit, forms []string, _ bool) error {
	e, ok := u.Ref.(*entry)
	if !ok {
		return errForeign
	}
	if len(forms) != 1 {
		return fmt.Errorf("strings: %q has one form, got %d", u.Context, len(forms))
	}
	if len(u.Target) == 1 && u.Target[0] == forms[0] {
		return nil
	}
	e.value, e.dirty = quoteValue(forms[0]), true
	u.Target = []string{forms[0]}
	return nil
}

// Bytes renders the file in its encoding.
func (f *File) Bytes() []byte {
	var b strings.Builder
	last := 0
	var added []*entry
	for _, e := range f.entries {
		switch {
		case e.added && !e.removed:
			added = append(added, e)
		case e.added:
		case e.removed:
			b.WriteString(f.text[last:e.from])
			last = e.end
		case e.dirty:
			b.WriteString(f.text[last:e.vstart] + e.value)
			last = e.vend
		}
	}
	b.WriteString(f.text[last:])
	if len(added) > 0 && b.Len() > 0 && !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	for _, e := range added {
		b.WriteString(entryLine(e.key, e.value))
	}
	return encodeText(b.String(), f.enc)
}

func entryLine(key, value string) string { return quoteKey(key) + " = " + value + ";\n" }

// Add appends an entry for a new key.
func (f *File) Add(u *base.Unit) error {
	forms, err := base.AddForms("strings", u, f.ids[u.Context])
	if err != nil {
		return err
	}
	if len(forms) != 1 {
		return fmt.Errorf("strings: %q: .strings files have no plurals", u.Context)
	}
	if e, err := (&scanner{s: entryLine(u.Context, `""`)}).entry(); err != nil || e.key != u.Context {
		return fmt.Errorf("strings: %q cannot be written as a key", u.Context)
	}
	e := &entry{key: u.Context, added: true, unit: u}
	u.Ref, u.Source, u.Target = e, nil, []string{""}
	e.value = quoteValue("")
	if err := f.SetTarget(u, forms, false); err != nil {
		return err
	}
	f.entries = append(f.entries, e)
	f.units = append(f.units, u)
	f.ids[u.Context] = true
	return nil
}

// Remove drops a unit's entry and its note.
func (f *File) Remove(u *base.Unit) bool {
	e, ok := u.Ref.(*entry)
	if !ok || e.removed || !slices.Contains(f.units, u) {
		return false
	}
	e.removed = true
	f.units = slices.DeleteFunc(f.units, func(x *base.Unit) bool { return x == u })
	delete(f.ids, u.Context)
	return true
}

// NewTranslation is base with every value emptied; an empty base gives
// the reference's new file, a line break (in UTF-16 with its byte order
// mark for "strings").
func (f Format) NewTranslation(data []byte, l base.Language) ([]byte, error) {
	if text, _, err := decodeText(data, f.utf16); err == nil && strings.TrimSpace(text) == "" {
		if f.utf16 {
			return encodeText("\n", utf16LEBOM), nil
		}
		return []byte("\n"), nil
	}
	pf, err := f.Parse(data, l)
	if err != nil {
		return nil, err
	}
	for _, u := range pf.Units() {
		if err := pf.SetTarget(u, []string{""}, false); err != nil {
			return nil, err
		}
	}
	return pf.Bytes(), nil
}
