package po

import (
	"bytes"
	"fmt"
	"slices"
)

// File is a parsed PO file: the entries in file order (header, messages,
// obsolete messages) and whatever preceded the first entry.
type File struct {
	lead    []byte // byte order mark and blank lines before the first entry
	entries []*Entry
	newline string
	removed bool // an entry was removed since parsing
	// style is the wrapping of re-rendered entries: translate-toolkit's
	// (Weblate's saves) unless the file is msgmerge's output (Merge).
	style wrapStyle
}

// New returns an empty file that writes "\n" line ends.
func New() *File { return &File{newline: "\n"} }

// Newline returns the line terminator the file uses ("\n", "\r\n" or "\r").
func (f *File) Newline() string { return f.newline }

// All returns every entry in file order, including the header, obsolete
// entries and trailing comment blocks.
func (f *File) All() []*Entry { return slices.Clone(f.entries) }

// Entries returns the translatable entries in order: neither the header nor
// obsolete, and with a msgid.
func (f *File) Entries() []*Entry {
	out := make([]*Entry, 0, len(f.entries))
	for _, e := range f.entries {
		if !e.Obsolete && !e.commentOnly && !e.IsHeader() {
			out = append(out, e)
		}
	}
	return out
}

// Header returns the header entry (only the first entry can be it), or nil.
func (f *File) Header() *Entry {
	if len(f.entries) > 0 && f.entries[0].IsHeader() {
		return f.entries[0]
	}
	return nil
}

// AddEntry appends e after the last non-obsolete entry. It is rendered like
// translate-toolkit renders a new unit.
func (f *File) AddEntry(e *Entry) {
	e.orig, e.dirty = nil, true
	at := len(f.entries)
	for at > 0 && (f.entries[at-1].Obsolete || f.entries[at-1].commentOnly) {
		at--
	}
	f.entries = slices.Insert(f.entries, at, e)
}

// RemoveEntry deletes e from the file and reports whether it was there.
func (f *File) RemoveEntry(e *Entry) bool {
	i := slices.Index(f.entries, e)
	if i < 0 {
		return false
	}
	if i == len(f.entries)-1 && i > 0 && f.entries[i-1].orig != nil {
		// The new last entry ends the file the way the removed one did.
		f.entries[i-1].trailer = e.trailer
	}
	f.entries = slices.Delete(f.entries, i, i+1)
	f.removed = true
	return true
}

// Bytes serializes the file: untouched entries as read, edited and added ones
// rendered like translate-toolkit, one blank line apart.
func (f *File) Bytes() []byte {
	var b bytes.Buffer
	b.Write(f.lead)
	nl := f.newline
	wrote := false
	for i, e := range f.entries {
		if !e.Dirty() {
			b.Write(e.raw)
			b.Write(e.trailer)
			wrote = true
			continue
		}
		if wrote {
			separate(&b, nl)
		}
		b.WriteString(e.renderWrapped(nl, f.style, false))
		if e.orig != nil {
			b.Write(e.trailer)
		} else if i < len(f.entries)-1 {
			b.WriteString(nl)
		}
		wrote = true
	}
	if f.edited() {
		return endWithOneNewline(b.Bytes(), nl)
	}
	return b.Bytes()
}

// edited tells whether any entry was changed or added (or removed, which
// marks its neighbour's trailer): then the file is written as
// translate-toolkit writes a whole file, not kept as read.
func (f *File) edited() bool {
	return f.removed || slices.ContainsFunc(f.entries, (*Entry).Dirty)
}

// endWithOneNewline makes out end with exactly one line end, as
// translate-toolkit ends every file it writes (pybabel's files end with a
// blank line; after a save they do not).
func endWithOneNewline(out []byte, nl string) []byte {
	for bytes.HasSuffix(out, []byte(nl)) {
		out = out[:len(out)-len(nl)]
	}
	if len(out) == 0 {
		return out
	}
	return append(out, nl...)
}

// separate makes the buffer end with a blank line before a rendered entry.
func separate(b *bytes.Buffer, nl string) {
	if !bytes.HasSuffix(b.Bytes(), []byte(nl)) {
		b.WriteString(nl)
	}
	if !bytes.HasSuffix(b.Bytes(), []byte(nl+nl)) {
		b.WriteString(nl)
	}
}

// snapshot is an entry as parsed: its values, and the lines they were read
// from. Rendering reuses the lines of every part whose value is unchanged,
// as translate-toolkit keeps the lines it read.
type snapshot struct {
	translator, extracted, references, flags []string
	comments                                 [4][]string // raw lines by commentGroup
	prev                                     *[3]quoted  // msgctxt, msgid, msgid_plural of "#|"; nil without (most entries)
	ctx, id, plural                          quoted
	msgstr                                   []quoted
	msgstrIndex                              []int // N of each msgstr[N]; nil for msgstr
}

// previous is the i-th previous string as read (see prev).
func (s *snapshot) previous(i int) quoted {
	if s.prev == nil {
		return quoted{}
	}
	return s.prev[i]
}

// setPrevious records the i-th previous string as read.
func (s *snapshot) setPrevious(i int, q quoted) {
	if s.prev == nil {
		s.prev = new([3]quoted)
	}
	s.prev[i] = q
}

func (s *snapshot) capture(e *Entry) *snapshot {
	s.translator = slices.Clone(e.TranslatorComments)
	s.extracted = slices.Clone(e.ExtractedComments)
	s.references = slices.Clone(e.References)
	s.flags = slices.Clone(e.Flags)
	return s
}

const (
	groupTranslator = iota
	groupExtracted
	groupReference
	groupFlags
)

func commentGroup(k lineKind) int {
	switch k {
	case kindExtracted:
		return groupExtracted
	case kindReference:
		return groupReference
	case kindFlags:
		return groupFlags
	}
	return groupTranslator
}

// assignMessage checks the keyword order of a message and stores its parts:
// [msgctxt] msgid, then msgstr, or msgid_plural and msgstr[N]...
func assignMessage(e *Entry, s *snapshot, fields []field, line int) error {
	next := func(kw string, plural bool) (field, bool) {
		if len(fields) == 0 || fields[0].keyword != kw || (fields[0].index >= 0) != plural {
			return field{}, false
		}
		f := fields[0]
		fields = fields[1:]
		return f, true
	}
	if f, ok := next("msgctxt", false); ok {
		e.Context, e.HasContext, s.ctx = f.q.value, true, f.q
	}
	f, ok := next("msgid", false)
	if !ok {
		return unexpected(fields, line, "msgid")
	}
	e.Msgid, s.id = f.q.value, f.q
	if f, ok := next("msgid_plural", false); ok {
		e.MsgidPlural, e.HasPlural, s.plural = f.q.value, true, f.q
		for f, ok := next("msgstr", true); ok; f, ok = next("msgstr", true) {
			e.Msgstr = append(e.Msgstr, f.q.value)
			s.msgstr = append(s.msgstr, f.q)
			s.msgstrIndex = append(s.msgstrIndex, f.index)
		}
		if len(e.Msgstr) == 0 {
			return unexpected(fields, line, "msgstr[0]")
		}
	} else {
		f, ok := next("msgstr", false)
		if !ok {
			return unexpected(fields, line, "msgstr")
		}
		e.Msgstr, s.msgstr = []string{f.q.value}, []quoted{f.q}
	}
	if len(fields) > 0 {
		return &ParseError{Line: fields[0].line, Msg: "unexpected " + fields[0].keyword}
	}
	return nil
}

func unexpected(fields []field, line int, want string) error {
	if len(fields) == 0 {
		return &ParseError{Line: line, Msg: "missing " + want}
	}
	got := fields[0].keyword
	if fields[0].index >= 0 {
		got = fmt.Sprintf("msgstr[%d]", fields[0].index)
	}
	return &ParseError{Line: fields[0].line, Msg: fmt.Sprintf("expected %s, found %s", want, got)}
}
