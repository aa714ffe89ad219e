package po

import (
	"bufio"
	"bytes"
	"errors"
	"io"

	"github.com/tmsproject/tms/pkg/po"
	"github.com/tmsproject/tms/services/translation/formats/base"
)

// Streams reports true: a PO file can be cut between any two entries.
func (Format) Streams() bool { return true }

// Stream reads a PO file in pieces cut between entries. The first piece
// starts with the file's lead and header; every later one gets a copy of
// the header in front, so that each parses as the file would (the header
// is not a unit, so the units are the file's, once each).
func (Format) Stream(r io.Reader, _ base.Language, piece int, each func(base.File) error) error {
	s := &entryScanner{r: bufio.NewReaderSize(r, 1<<16)}
	var head, buf []byte
	first := true
	before := 0 // lines of the file before the piece's own
	flush := func() error {
		if len(buf) == len(head) && !first {
			return nil
		}
		f, err := po.Parse(buf)
		if pe := (*po.ParseError)(nil); errors.As(err, &pe) {
			// the line in the file, not in the piece
			return &po.ParseError{Line: pe.Line - lines(head) + before, Msg: pe.Msg}
		}
		if err != nil {
			return err
		}
		before += lines(buf) - lines(head)
		if first && f.Header() != nil {
			head = bytes.Clone(buf) // the first piece is the first entry alone
		}
		first = false
		buf = append(buf[:0], head...)
		return each(&File{f: f})
	}
	for {
		entry, err := s.next()
		if len(entry) > base.MaxStreamUnit {
			return base.ErrUnitTooLarge
		}
		buf = append(buf, entry...)
		if errors.Is(err, io.EOF) {
			return flush()
		}
		if err != nil {
			return err
		}
		// the first piece ends after its first entry, to learn the header
		if first || len(buf) >= piece {
			if err := flush(); err != nil {
				return err
			}
		}
	}
}

func lines(b []byte) int { return bytes.Count(b, []byte("\n")) }

// entryScanner cuts a PO text into entries: an entry ends where, after its
// msgstr, a line starts another one (a comment, msgctxt or msgid, or their
// obsolete "#~" forms); blank lines stay with the entry before them.
type entryScanner struct {
	r    *bufio.Reader
	line []byte // read ahead: the first line of the next entry
}

func (s *entryScanner) next() ([]byte, error) {
	out := s.line
	s.line = nil
	seenMsgstr := len(out) > 0 && isMsgstr(out)
	for {
		line, err := s.readLine()
		if len(line) > 0 {
			if seenMsgstr && startsEntry(line) {
				s.line = line
				return out, nil
			}
			seenMsgstr = seenMsgstr || isMsgstr(line)
			out = append(out, line...)
			if len(out) > base.MaxStreamUnit {
				return out, nil
			}
		}
		if err != nil {
			return out, err
		}
	}
}

// readLine is one line with its terminator, however long (up to the unit
// bound).
func (s *entryScanner) readLine() ([]byte, error) {
	var line []byte
	for {
		part, err := s.r.ReadSlice('\n')
		line = append(line, part...)
		if !errors.Is(err, bufio.ErrBufferFull) || len(line) > base.MaxStreamUnit {
			return line, err
		}
	}
}

// keyword is the line's keyword, past white space and an obsolete "#~".
func keyword(line []byte) []byte {
	s := bytes.TrimLeft(line, " \t")
	if rest, ok := bytes.CutPrefix(s, []byte("#~")); ok {
		return bytes.TrimLeft(rest, " \t")
	}
	return s
}

func isMsgstr(line []byte) bool { return bytes.HasPrefix(keyword(line), []byte("msgstr")) }

// startsEntry reports whether a line after a msgstr begins the next entry:
// anything but a continuation, another msgstr form or a blank line.
func startsEntry(line []byte) bool {
	k := keyword(line)
	switch {
	case len(bytes.TrimSpace(k)) == 0, k[0] == '"', bytes.HasPrefix(k, []byte("msgstr")):
		return false
	}
	return true
}
