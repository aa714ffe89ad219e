package po

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
)

// ParseError reports malformed input with the 1-based line it was found on.
type ParseError struct {
	Line int
	Msg  string
}

func (e *ParseError) Error() string { return fmt.Sprintf("po: line %d: %s", e.Line, e.Msg) }

type lineKind uint8

const (
	kindBlank      lineKind = iota
	kindTranslator          // "#" and "# text"
	kindExtracted           // "#."
	kindReference           // "#:"
	kindFlags               // "#,"
	kindPrev                // "#|"
	kindObsPrev             // "#~|"
	kindBody                // keywords and string continuations
	kindObsBody             // "#~ msgid ..." and the like
)

// srcLine is one input line: its text without the terminator, the part that
// matters for its kind, and where it ends in the input (after the terminator).
type srcLine struct {
	num     int
	kind    lineKind
	text    string // left-trimmed line, without terminator
	payload string // text after the kind's marker, left-trimmed
	end     int
}

var bom = []byte("\xef\xbb\xbf")

// Parse reads a PO file. Every byte of data is kept: with no edits,
// File.Bytes returns data unchanged.
func Parse(data []byte) (*File, error) {
	f := &File{newline: detectNewline(data)}
	body := bytes.TrimPrefix(data, bom)
	p := newParser(data, len(data)-len(body), f.newline)
	for p.more() && p.lines[p.pos].kind == kindBlank {
		p.pos++
	}
	f.lead = data[:p.offset()]
	for p.more() {
		p.forget()
		e, err := p.entry()
		if err != nil {
			return nil, err
		}
		f.entries = append(f.entries, e)
	}
	return f, nil
}

// detectNewline mirrors translate-toolkit: the terminator of the first line
// that follows the first "msgid " decides.
func detectNewline(data []byte) string {
	from := max(0, bytes.Index(data, []byte("\rmsgid "))+1, bytes.Index(data, []byte("\nmsgid "))+1)
	for i := from; i < len(data); i++ {
		switch data[i] {
		case '\n':
			return "\n"
		case '\r':
			if i+1 < len(data) && data[i+1] == '\n' {
				return "\r\n"
			}
			return "\r"
		}
	}
	return "\n"
}

// newParser reads data from base (after a byte order mark), cutting lines
// on "\n" (dropping a "\r" before it from the text) or, for old Mac files,
// on "\r".
func newParser(data []byte, base int, newline string) *parser {
	p := &parser{data: data, base: base, sep: '\n', text: string(data[base:]), next: base}
	if newline == "\r" {
		p.sep = '\r'
	}
	return p
}

// more reports whether there is a line at pos, cutting and classifying
// it on first use. Lines are cut as the parser reaches them, and forget
// drops those of finished entries: all the lines of a file at once cost
// a fifth of a large parse's memory.
func (p *parser) more() bool {
	if p.pos < len(p.lines) {
		return true
	}
	if p.next >= len(p.data) {
		return false
	}
	start := p.next - p.base
	end := bytes.IndexByte(p.data[p.next:], p.sep)
	p.next += end + 1
	if end < 0 {
		p.next = len(p.data)
		end = len(p.data) - p.base - start
	}
	line := p.text[start : start+end]
	if p.sep == '\n' {
		line = strings.TrimSuffix(line, "\r")
	}
	l := classify(line)
	p.cut++
	l.num, l.end = p.cut, p.next
	p.lines = append(p.lines, l)
	return true
}

// forget drops the lines before the current one, keeping the last of them
// for offset.
func (p *parser) forget() {
	if p.pos < 2 {
		return
	}
	n := copy(p.lines, p.lines[p.pos-1:])
	p.lines, p.pos = p.lines[:n], 1
}

func classify(raw string) srcLine {
	text := strings.TrimLeft(raw, " \t")
	l := srcLine{text: text}
	rest := func(n int) string { return strings.TrimLeft(text[n:], " \t") }
	switch {
	case strings.TrimSpace(text) == "":
		l.kind = kindBlank
	case strings.HasPrefix(text, "#~"):
		l.kind, l.payload = kindObsBody, rest(2)
		if strings.HasPrefix(l.payload, "|") {
			l.kind, l.payload = kindObsPrev, strings.TrimLeft(l.payload[1:], " \t")
		}
	case strings.HasPrefix(text, "#."):
		l.kind, l.payload = kindExtracted, commentText(text[2:])
	case strings.HasPrefix(text, "#:"):
		l.kind, l.payload = kindReference, strings.TrimSpace(text[2:])
	case strings.HasPrefix(text, "#,"):
		l.kind, l.payload = kindFlags, text[2:]
	case strings.HasPrefix(text, "#|"):
		l.kind, l.payload = kindPrev, rest(2)
	case strings.HasPrefix(text, "#"):
		l.kind, l.payload = kindTranslator, commentText(text[1:])
	default:
		l.kind, l.payload = kindBody, text
	}
	return l
}

// commentText drops the single space that conventionally follows a marker.
func commentText(s string) string { return strings.TrimPrefix(s, " ") }

// parseFlags splits "#," lines the way translate-toolkit does.
func parseFlags(s string) []string {
	var flags []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			flags = append(flags, f)
		}
	}
	return flags
}

type parser struct {
	data []byte
	base int    // where the first line starts (after a byte order mark)
	text string // data from base: one copy, which the lines slice
	sep  byte
	next int // where the next line to cut starts in data
	cut  int // lines cut so far

	lines []srcLine // the lines cut and not yet forgotten
	pos   int       // the current line's index in lines
}

// offset is where the current line starts in the input.
func (p *parser) offset() int {
	if p.pos == 0 {
		return p.base
	}
	return p.lines[p.pos-1].end
}

func (p *parser) errorf(line int, format string, args ...any) error {
	return &ParseError{Line: line, Msg: fmt.Sprintf(format, args...)}
}

// entry reads one entry starting at a non-blank line: its comments, its
// message (plain or obsolete), then the blank lines after it.
func (p *parser) entry() (*Entry, error) {
	start := p.offset()
	e := &Entry{}
	s := &snapshot{}
	prev, contentEnd := p.comments(e, s)
	if !p.more() {
		// Comments with no message after them at the end of the input.
		if len(prev) > 0 {
			return nil, p.errorf(prev[0].num, "previous string without a message")
		}
		e.commentOnly = true
	} else {
		if err := p.message(e, s, prev); err != nil {
			return nil, err
		}
		contentEnd = p.lines[p.pos-1].end
	}
	for p.more() && p.lines[p.pos].kind == kindBlank {
		p.pos++
	}
	e.raw = p.data[start:contentEnd]
	e.trailer = p.data[contentEnd:p.offset()]
	e.orig = s.capture(e)
	return e, nil
}

// comments consumes comment lines (and blank lines between them) and returns
// the "#|" lines for later parsing and the end offset of the last comment.
func (p *parser) comments(e *Entry, s *snapshot) ([]srcLine, int) {
	var prev []srcLine
	end := p.offset()
	for ; p.more(); p.pos++ {
		l := p.lines[p.pos]
		switch l.kind {
		case kindBlank:
			continue
		case kindTranslator:
			e.TranslatorComments = append(e.TranslatorComments, l.payload)
		case kindExtracted:
			e.ExtractedComments = append(e.ExtractedComments, l.payload)
		case kindReference:
			e.References = append(e.References, l.payload)
		case kindFlags:
			e.Flags = append(e.Flags, parseFlags(l.payload)...)
		case kindPrev:
			prev = append(prev, l)
		default:
			return prev, end
		}
		if l.kind != kindPrev {
			g := commentGroup(l.kind)
			s.comments[g] = append(s.comments[g], l.text)
		}
		end = l.end
	}
	return prev, end
}

// message parses the keywords of a plain or obsolete entry.
func (p *parser) message(e *Entry, s *snapshot, prev []srcLine) error {
	for p.more() && p.lines[p.pos].kind == kindObsPrev {
		prev = append(prev, p.lines[p.pos])
		p.pos++
	}
	if err := p.previous(e, s, prev); err != nil {
		return err
	}
	kind := kindBody
	if p.more() && p.lines[p.pos].kind == kindObsBody {
		kind = kindObsBody
		e.Obsolete = true
	}
	body := p.gatherBody(kind)
	if len(body) == 0 {
		// Previous strings may run to the end of the input.
		line := p.cut // the input ended
		if p.more() {
			line = p.lines[p.pos].num
		}
		return p.errorf(line, "expected msgid")
	}
	fields, err := readFields(body)
	if err != nil {
		return err
	}
	return assignMessage(e, s, fields, body[len(body)-1].num)
}

// gatherBody takes the run of lines of the given kind that belongs to one
// entry: it stops at a msgctxt or msgid that follows a msgstr.
func (p *parser) gatherBody(kind lineKind) []srcLine {
	from := p.pos
	seenMsgstr := false
	for ; p.more() && p.lines[p.pos].kind == kind; p.pos++ {
		t := p.lines[p.pos].payload
		kw, _, _, ok := splitKeyword(t)
		if seenMsgstr && ok && (kw == "msgctxt" || kw == "msgid") {
			break
		}
		if ok && kw == "msgstr" {
			seenMsgstr = true
		}
	}
	return p.lines[from:p.pos]
}

// previous parses "#|" lines: msgctxt, msgid and msgid_plural, each optional.
func (p *parser) previous(e *Entry, s *snapshot, lines []srcLine) error {
	if len(lines) == 0 {
		return nil
	}
	fields, err := readFields(lines)
	if err != nil {
		return err
	}
	order := 0
	for _, f := range fields {
		rank := map[string]int{"msgctxt": 1, "msgid": 2, "msgid_plural": 3}[f.keyword]
		if rank <= order || f.index >= 0 {
			return p.errorf(f.line, "unexpected %s in previous strings", f.keyword)
		}
		order = rank
		switch f.keyword {
		case "msgctxt":
			e.PreviousContext, e.HasPreviousContext = f.q.value, true
			s.setPrevious(0, f.q)
		case "msgid":
			e.PreviousMsgid, e.HasPreviousMsgid = f.q.value, true
			s.setPrevious(1, f.q)
		case "msgid_plural":
			e.PreviousMsgidPlural, e.HasPreviousMsgidPlural = f.q.value, true
			s.setPrevious(2, f.q)
		}
	}
	return nil
}

// field is one keyword with its string, gathered over continuation lines.
type field struct {
	keyword string
	index   int // N of msgstr[N], -1 otherwise
	line    int
	q       quoted
}

// quoted is a string as written (its quoted tokens) and as meant.
type quoted struct {
	present bool
	value   string
	lines   []string
}

func readFields(lines []srcLine) ([]field, error) {
	var fields []field
	for i := 0; i < len(lines); {
		l := lines[i]
		kw, idx, rest, ok := splitKeyword(l.payload)
		if !ok {
			return nil, &ParseError{Line: l.num, Msg: fmt.Sprintf("unexpected %q", clip(l.payload))}
		}
		f := field{keyword: kw, index: idx, line: l.num, q: quoted{present: true}}
		// A value of one line is a slice of the input (when unescaped, its
		// own copy); only a continued value is joined into a new string.
		var b strings.Builder
		for n := 0; ; n++ {
			tok, val, err := parseQuoted(rest)
			if err != "" {
				return nil, &ParseError{Line: lines[i].num, Msg: err}
			}
			f.q.lines = append(f.q.lines, tok)
			switch n {
			case 0:
				f.q.value = val
			case 1:
				b.WriteString(f.q.value)
				fallthrough
			default:
				b.WriteString(val)
			}
			i++
			if i == len(lines) || !strings.HasPrefix(lines[i].payload, `"`) {
				break
			}
			rest = lines[i].payload
		}
		if b.Len() > 0 {
			f.q.value = b.String()
		}
		fields = append(fields, f)
	}
	return fields, nil
}

// splitKeyword recognises msgctxt, msgid, msgid_plural, msgstr and msgstr[N]
// at the start of s and returns the text after it.
func splitKeyword(s string) (kw string, index int, rest string, ok bool) {
	index = -1
	for _, k := range []string{"msgctxt", "msgid_plural", "msgid", "msgstr"} {
		if strings.HasPrefix(s, k) {
			kw, rest = k, s[len(k):]
			break
		}
	}
	if kw == "" {
		return "", -1, "", false
	}
	if kw == "msgstr" && strings.HasPrefix(rest, "[") {
		closing := strings.IndexByte(rest, ']')
		if closing < 0 {
			return "", -1, "", false
		}
		n, err := strconv.Atoi(rest[1:closing])
		if err != nil || n < 0 || n > 1000 {
			return "", -1, "", false
		}
		index, rest = n, rest[closing+1:]
	}
	if rest != "" && rest[0] != ' ' && rest[0] != '\t' && rest[0] != '"' {
		return "", -1, "", false
	}
	return kw, index, strings.TrimLeft(rest, " \t"), true
}

// parseQuoted reads one `"..."` token, which must end the line; it returns the
// token as written and its unescaped value, or an error message.
func parseQuoted(s string) (tok, value, errMsg string) {
	if !strings.HasPrefix(s, `"`) {
		return "", "", "expected a quoted string"
	}
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '"':
			if strings.TrimSpace(s[i+1:]) != "" {
				return "", "", "unexpected text after string"
			}
			return s[:i+1], unescapeString(s[1:i]), ""
		}
	}
	return "", "", "end of line within string"
}

func clip(s string) string {
	if len(s) > 40 {
		return s[:40] + "..."
	}
	return s
}
