// Package properties is the Java .properties format of the registry:
// file_format "properties" (ISO-8859-1, non-ASCII written as \uXXXX) and
// "properties-utf8" and "properties-utf16" (UTF-16, escaped as UTF-8's),
// read and written as translate-toolkit's propfile with its "java",
// "java-utf8" and "java-utf16" dialects.
//
// A unit is a key line: the key, a separator ("=", ":" or a space, the
// first unescaped one, a space only when no "=" or ":" comes before other
// text) and the value, continued on the next line after an odd number of
// trailing backslashes. The key is the unit's context as written (escapes
// included, as Weblate gives it); the value is decoded as
// translate-toolkit's propertiesdecode does. The comment lines (#, !, //,
// ;, /* */) and blank lines before a key are its note, joined by line
// breaks, except the file's first comment block followed by a blank line,
// which is the header. A key repeated later in the file is no unit (its
// lines are kept as read), as Weblate takes the first.
//
// An edit rewrites only the value, escaped as translate-toolkit escapes
// it, on the key's line (continuation lines go): the key, the separator
// and the white space after it stay as they were. A new key is appended
// as "key=value". Everything else keeps its bytes.
//
// Where this differs from the reference: translate-toolkit re-serializes
// every line as key=value; a \u surrogate pair is read as one character
// and a lone surrogate as U+FFFD, and characters beyond U+FFFF are written
// as surrogate pairs (the reference writes \u1F600, which reads back as
// two characters); a \N{name} escape (Python's, which the reference looks
// up) makes the file malformed; a key without a separator gets "=" when
// it is given a value (the reference writes key and value together), and
// a line of a key alone ending in a backslash, which no separator can
// follow unescaped, is no unit. The
// ISO-8859-1 format reads a file as ISO-8859-1 unless it begins with a
// UTF-8 byte order mark (translate-toolkit guesses the encoding; an edit
// here writes ASCII only, so a file never reads differently after one).
// The UTF-16 format reads a file as UTF-16, little-endian unless a byte
// order mark says otherwise (as Python's "utf-16" codec), or as UTF-8 when
// it begins with a UTF-8 byte order mark, and writes it back in the
// encoding it was read in (translate-toolkit always writes little-endian
// UTF-16 with a byte order mark).
package properties

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/internal/textenc"
)

// Format is a Java properties format.
type Format struct {
	id, name string
	utf8     bool // written with only control characters escaped
	utf16    bool // read and written as UTF-16
}

var (
	// ISO is "properties": ISO-8859-1 files, non-ASCII escaped.
	ISO = Format{id: "properties", name: "Java Properties (ISO-8859-1)"}
	// UTF8 is "properties-utf8": UTF-8 files, only control characters
	// escaped.
	UTF8 = Format{id: "properties-utf8", name: "Java Properties (UTF-8)", utf8: true}
	// UTF16 is "properties-utf16": UTF-16 files, escaped as UTF8's.
	UTF16 = Format{id: "properties-utf16", name: "Java Properties (UTF-16)", utf8: true, utf16: true}
)

// ID is the format's file_format identifier.
func (f Format) ID() string { return f.id }

// Name is the format's name as the reference shows it.
func (f Format) Name() string { return f.name }

// Monolingual reports true: the template holds the source strings.
func (Format) Monolingual() bool { return true }

// ContentType is the media type of a download.
func (Format) ContentType() string { return "text/x-java-properties" }

func (f Format) encode(s string) string {
	if f.utf8 {
		return encodeUTF8(s)
	}
	return encodeISO(s)
}

// entry is a unit's place in the file.
type entry struct {
	unit *base.Unit
	// from is where the unit's lines begin (its note's first line), end
	// where they end (after the last line break); delim is right after
	// the separator, value the span of the value.
	from, end, delim int
	vstart, vend     int
	hasDelim         bool
	// added units are rendered after the file, as key=value.
	added, dirty, removed bool
	value                 string // the escaped value once edited
}

// File is a parsed properties file.
type File struct {
	format  Format
	enc     textenc.Encoding // of a UTF-16 format's file
	data    string
	entries []*entry
	units   []*base.Unit
	ids     map[string]int
}

// line is one line of the file as translate-toolkit reads it: its
// characters without the trailing carriage returns, and the offset of
// each in the file (offs has one more, the end of the text).
type line struct {
	r     []rune
	offs  []int
	start int
	next  int // after the line break
}

func splitLines(data string, start int, latin1 bool) []line {
	var out []line
	for start <= len(data) {
		nl := strings.IndexByte(data[start:], '\n')
		next := len(data) + 1
		end := len(data)
		if nl >= 0 {
			end, next = start+nl, start+nl+1
		}
		text := end
		for text > start && data[text-1] == '\r' {
			text--
		}
		l := line{start: start, next: min(next, len(data))}
		for i := start; i < text; {
			c, n := rune(data[i]), 1
			if !latin1 {
				c, n = utf8.DecodeRuneInString(data[i:text])
			}
			l.r, l.offs = append(l.r, c), append(l.offs, i)
			i += n
		}
		l.offs = append(l.offs, text)
		out = append(out, l)
		start = next
	}
	return out
}

var errForeign = errors.New("properties: unit of another file")

// Parse reads a file; lang is not needed (properties have no plurals).
func (f Format) Parse(data []byte, _ base.Language) (base.File, error) {
	s, start, enc := string(data), 0, textenc.UTF8
	switch {
	case f.utf16:
		var err error
		if s, enc, err = textenc.Decode(data, true, false); err != nil {
			return nil, fmt.Errorf("properties: %w", err)
		}
	case strings.HasPrefix(s, "\ufeff"):
		start = 3
	}
	latin1 := !f.utf8 && start == 0
	if !latin1 && !utf8.ValidString(s) {
		return nil, errors.New("properties: the file is not valid UTF-8")
	}
	file := &File{format: f, enc: enc, data: s, ids: map[string]int{}}
	var (
		cur                 *entry
		value               []rune
		comments            []string
		commentFrom         = -1
		inValue, inComment  bool
		wasHeader, hasNotes bool
	)
	finish := func(l line, key string, at int) error {
		v, err := decode(value)
		if err != nil {
			return err
		}
		cur.vend, cur.end = l.offs[at], l.next
		if commentFrom >= 0 {
			cur.from = commentFrom
		}
		if key != "" && file.ids[key] == 0 { // a repeated key is no unit: the first counts
			cur.unit = &base.Unit{Context: key, Target: []string{v}, Note: strings.Join(comments, "\n"), Ref: cur}
			file.entries = append(file.entries, cur)
			file.units = append(file.units, cur.unit)
			file.ids[key]++
		}
		comments, commentFrom, hasNotes, cur, value = nil, -1, false, nil, nil
		return nil
	}
	key := ""
	lines := splitLines(s, start, latin1)
	for _, l := range lines {
		switch {
		case inValue:
			value = append(value, lstrip(l.r)...)
			inValue = continued(value)
			if inValue {
				value = value[:len(value)-1]
				continue
			}
			value = lstrip(value)
			if err := finish(l, key, len(l.r)); err != nil {
				return nil, err
			}
		case inComment || comment(l.r) || commentStart(l.r) || commentEnd(l.r):
			if commentFrom < 0 {
				commentFrom = l.start
			}
			comments = append(comments, string(l.r))
			hasNotes = hasNotes || !blank(l.r)
			if commentStart(l.r) {
				inComment = true
			} else if commentEnd(l.r) {
				inComment = false
			}
		case blank(l.r):
			comments = append(comments, "")
			if !wasHeader && hasNotes {
				comments, commentFrom, hasNotes, wasHeader = nil, -1, false, true
			}
		default:
			cur = &entry{from: l.start}
			pos := delimiter(l.r)
			if pos < 0 {
				k := keyStrip(l.r)
				key = string(k)
				if continued(k) {
					key = "" // no separator can follow it unescaped: no unit
				}
				cur.vstart, cur.delim = l.offs[len(l.r)], l.offs[len(l.r)]
				if err := finish(l, key, len(l.r)); err != nil {
					return nil, err
				}
				continue
			}
			key = string(keyStrip(l.r[:pos]))
			rest := lstrip(l.r[pos+1:])
			at := len(l.r) - len(rest)
			cur.hasDelim, cur.delim, cur.vstart = true, l.offs[pos+1], l.offs[at]
			if continued(rest) {
				inValue, value = true, slices.Clone(rest[:len(rest)-1])
				continue
			}
			value = rest
			if err := finish(l, key, len(l.r)); err != nil {
				return nil, err
			}
		}
	}
	if inValue { // the file ended in a continuation
		l := lines[len(lines)-1]
		if err := finish(l, key, len(l.r)); err != nil {
			return nil, err
		}
	}
	return file, nil
}

// comment is translate-toolkit's is_comment_one_line.
func comment(r []rune) bool {
	t := lstrip(rstrip(r))
	for _, p := range []string{"#", "!", "//", ";"} {
		if hasPrefix(t, p) {
			return true
		}
	}
	return hasPrefix(t, "/*") && strings.HasSuffix(string(t), "*/")
}

func commentStart(r []rune) bool {
	t := string(lstrip(rstrip(r)))
	return strings.HasPrefix(t, "/*") && !strings.HasSuffix(t, "*/")
}

func commentEnd(r []rune) bool {
	t := string(lstrip(rstrip(r)))
	return !strings.HasPrefix(t, "/*") && strings.HasSuffix(t, "*/")
}

// delimiter is the position of the separator of a key line as
// translate-toolkit's find_delimiter gives it for the Java dialects, -1
// when there is none.
func delimiter(r []rune) int {
	start := len(r) - len(lstrip(r))
	find := func(d rune) int {
		for i := start; i < len(r); i++ {
			prev := r[(i-1+len(r))%len(r)] // Python's line[pos-1]
			if r[i] == d && prev != '\\' {
				return i
			}
		}
		return -1
	}
	eq, colon, space := find('='), find(':'), find(' ')
	minPos := eq
	if colon >= 0 && (minPos < 0 || colon < minPos) {
		minPos = colon
	}
	if minPos < 0 {
		return space
	}
	if space >= 0 && space < minPos && !blank(r[space:minPos]) {
		return space
	}
	return minPos
}

// keyStrip is translate-toolkit's _key_strip: white space around the key
// goes, but an escaped trailing one stays.
func keyStrip(r []rune) []rune {
	k := rstrip(r)
	if len(k) > 0 && k[len(k)-1] == '\\' && len(k) < len(r) {
		k = r[:len(k)+1]
	}
	return lstrip(k)
}

// Units are the keys of the file in order.
func (f *File) Units() []*base.Unit { return f.units }

// RecordsFuzzy reports false: properties have no fuzzy flag.
func (f *File) RecordsFuzzy() bool { return false }

// SetTarget stores the value of a unit; an unchanged value keeps its bytes.
func (f *File) SetTarget(u *base.Unit, forms []string, _ bool) error {
	e, ok := u.Ref.(*entry)
	if !ok {
		return errForeign
	}
	if len(forms) != 1 {
		return fmt.Errorf("properties: %q has one form, got %d", u.Context, len(forms))
	}
	if len(u.Target) == 1 && u.Target[0] == forms[0] {
		return nil
	}
	e.value, e.dirty = f.format.encode(forms[0]), true
	u.Target = []string{forms[0]}
	return nil
}

// Bytes renders the file.
func (f *File) Bytes() []byte {
	var b strings.Builder
	last := 0
	var added []*entry
	for _, e := range f.entries {
		switch {
		case e.added:
			added = append(added, e)
		case e.removed:
			b.WriteString(f.data[last:e.from])
			last = e.end
		case e.dirty:
			switch {
			case e.value == "" && e.hasDelim:
				b.WriteString(f.data[last:e.delim])
			case e.value == "":
				b.WriteString(f.data[last:e.vstart])
			case !e.hasDelim:
				b.WriteString(f.data[last:e.vstart] + "=" + e.value)
			default:
				b.WriteString(f.data[last:e.vstart] + e.value)
			}
			last = e.vend
		}
	}
	b.WriteString(f.data[last:])
	if len(added) > 0 && f.data != "" && !strings.HasSuffix(f.data, "\n") && !strings.HasSuffix(b.String(), "\n") {
		b.WriteString("\n")
	}
	for _, e := range added {
		b.WriteString(e.unit.Context + "=" + e.value + "\n")
	}
	if f.format.utf16 {
		return textenc.Encode(b.String(), f.enc)
	}
	return []byte(b.String())
}

// Add appends a key=value line for a new key.
func (f *File) Add(u *base.Unit) error {
	forms, err := base.AddForms("properties", u, f.ids[u.Context] > 0)
	if err != nil {
		return err
	}
	if len(forms) != 1 {
		return fmt.Errorf("properties: %q: properties have no plurals", u.Context)
	}
	if !f.writableKey(u.Context) {
		return fmt.Errorf("properties: %q cannot be written as a key", u.Context)
	}
	e := &entry{added: true, unit: u}
	u.Ref, u.Source, u.Target = e, nil, []string{""}
	if err := f.SetTarget(u, forms, false); err != nil {
		return err
	}
	f.entries = append(f.entries, e)
	f.units = append(f.units, u)
	f.ids[u.Context]++
	return nil
}

// writableKey reports whether key=... reads back as a line of that key
// (the key is written as given, already escaped).
func (f *File) writableKey(key string) bool {
	if strings.ContainsAny(key, "\r\n") || (!f.format.utf8 && strings.ContainsFunc(key, func(r rune) bool { return r >= 0x80 })) {
		return false
	}
	r := []rune(key + "=x")
	if comment(r) || commentStart(r) || commentEnd(r) || blank(r) {
		return false
	}
	pos := delimiter(r)
	return pos >= 0 && string(keyStrip(r[:pos])) == key
}

// Remove drops a unit's lines and its note.
func (f *File) Remove(u *base.Unit) bool {
	e, ok := u.Ref.(*entry)
	if !ok || e.removed || !slices.Contains(f.units, u) {
		return false
	}
	if e.added {
		f.entries = slices.DeleteFunc(f.entries, func(x *entry) bool { return x == e })
	}
	e.removed = true
	f.units = slices.DeleteFunc(f.units, func(x *base.Unit) bool { return x == u })
	f.ids[u.Context]--
	return true
}

// NewTranslation is base with every value emptied; an empty base gives
// the reference's new file, a line break (in UTF-16 with its byte order
// mark, as translate-toolkit saves one, for the UTF-16 format).
func (f Format) NewTranslation(data []byte, l base.Language) ([]byte, error) {
	text := string(data)
	if f.utf16 {
		text, _, _ = textenc.Decode(data, true, false)
	}
	if strings.TrimSpace(strings.TrimPrefix(text, "\ufeff")) == "" {
		if f.utf16 {
			return textenc.Encode("\n", textenc.UTF16LEBOM), nil
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
