package json

import (
	"bufio"
	"bytes"
	stdjson "encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"unicode/utf8"

	"github.com/tmsproject/tms/services/translation/formats/base"
)

// Streams reports whether files of the variant can be cut between object
// members: plain and nested JSON, whose every string is a unit of its own.
// i18next groups plural keys anywhere in an object, go-i18n and ARB pair
// members, so their files are read whole.
func (f Format) Streams() bool { return f.v == flat || f.v == nested }

// Stream reads a file in pieces cut between the members of its objects.
// Each piece repeats the objects that enclose its first member, so that
// every unit keeps its key path; arrays are never cut (their items are
// keyed by position). Unlike Parse, a key repeated in another piece is not
// refused: noticing it would mean remembering every key of the file.
func (f Format) Stream(r io.Reader, l base.Language, piece int, each func(base.File) error) error {
	if !f.Streams() {
		return fmt.Errorf("json: %s files are read whole", f.id)
	}
	dec := stdjson.NewDecoder(&utf8Reader{r: bufio.NewReaderSize(r, 1<<16)})
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return streamError(err)
	}
	if d, ok := tok.(stdjson.Delim); !ok || d != '{' {
		return errNotObject
	}
	w := &pieceWriter{dec: dec, piece: piece, emit: func(data []byte) error {
		file, perr := f.Parse(data, l)
		if perr != nil {
			return perr
		}
		return each(file)
	}}
	w.buf.WriteByte('{')
	w.members = []bool{false}
	if err := w.object(); err != nil {
		return streamError(err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("json: unexpected data after the top-level value")
	}
	return w.cut(true)
}

func streamError(err error) error {
	if errors.Is(err, io.EOF) {
		return errors.New("json: unexpected end of input")
	}
	return fmt.Errorf("json: %w", err)
}

// pieceWriter rewrites the token stream as pieces: buf holds the current
// piece, path the keys of the objects open in it (below the root) and
// members whether each open object has a member in this piece yet.
type pieceWriter struct {
	dec     *stdjson.Decoder
	piece   int
	emit    func([]byte) error
	buf     bytes.Buffer
	path    []string
	members []bool
}

// object copies the members of an object whose '{' is read, up to and
// including its '}', cutting the piece after a member when it is full.
func (w *pieceWriter) object() error {
	for w.dec.More() {
		tok, err := w.dec.Token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if w.members[len(w.members)-1] {
			w.buf.WriteByte(',')
		}
		w.members[len(w.members)-1] = true
		writeString(&w.buf, key)
		w.buf.WriteByte(':')
		if err = w.member(key); err != nil {
			return err
		}
		if w.buf.Len() >= w.piece {
			if err = w.cut(false); err != nil {
				return err
			}
		}
	}
	_, err := w.dec.Token() // '}'
	return err
}

// member copies the value of key; an object is descended into, so that
// a piece may end inside it.
func (w *pieceWriter) member(key string) error {
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	if d, ok := tok.(stdjson.Delim); ok && d == '{' {
		w.buf.WriteByte('{')
		w.path, w.members = append(w.path, key), append(w.members, false)
		if err = w.object(); err != nil {
			return err
		}
		w.path, w.members = w.path[:len(w.path)-1], w.members[:len(w.members)-1]
		w.buf.WriteByte('}')
		return nil
	}
	return w.value(tok)
}

// value copies a value whose first token is tok, whole.
func (w *pieceWriter) value(tok stdjson.Token) error {
	if w.buf.Len() > w.piece+base.MaxStreamUnit {
		return base.ErrUnitTooLarge
	}
	switch v := tok.(type) {
	case stdjson.Delim:
		return w.container(v)
	case string:
		writeString(&w.buf, v)
	case stdjson.Number:
		w.buf.WriteString(v.String())
	case bool:
		w.buf.WriteString(strconv.FormatBool(v))
	case nil:
		w.buf.WriteString("null")
	}
	return nil
}

// container copies an array, or an object inside one, whole.
func (w *pieceWriter) container(open stdjson.Delim) error {
	w.buf.WriteRune(rune(open))
	for i := 0; w.dec.More(); i++ {
		if i > 0 {
			w.buf.WriteByte(',')
		}
		tok, err := w.dec.Token()
		if err != nil {
			return err
		}
		if open == '{' {
			writeString(&w.buf, tok.(string))
			w.buf.WriteByte(':')
			if tok, err = w.dec.Token(); err != nil {
				return err
			}
		}
		if err = w.value(tok); err != nil {
			return err
		}
	}
	tok, err := w.dec.Token()
	if err != nil {
		return err
	}
	w.buf.WriteRune(rune(tok.(stdjson.Delim)))
	return nil
}

// cut closes the objects open in the piece and emits it; unless last, a
// new piece opens the same objects again.
func (w *pieceWriter) cut(last bool) error {
	for range w.members {
		w.buf.WriteByte('}')
	}
	if err := w.emit(w.buf.Bytes()); err != nil {
		return err
	}
	w.buf.Reset()
	if last {
		return nil
	}
	w.buf.WriteByte('{')
	for i, key := range w.path {
		writeString(&w.buf, key)
		w.buf.WriteString(":{")
		w.members[i] = true
	}
	w.members[len(w.members)-1] = false
	return nil
}

func writeString(b *bytes.Buffer, s string) {
	q, _ := stdjson.Marshal(s) // a string always marshals
	b.Write(q)
}

// utf8Reader passes r through, failing on bytes that are not UTF-8 (as
// Parse does; the decoder would replace them).
type utf8Reader struct {
	r    io.Reader
	tail []byte // an incomplete sequence at the end of the last read
}

func (u *utf8Reader) Read(p []byte) (int, error) {
	n := copy(p, u.tail)
	m, err := u.r.Read(p[n:])
	n += m
	end := n
	// hold back an incomplete sequence at the end, unless the input ended
	if err == nil {
		for i := max(0, n-utf8.UTFMax+1); i < n; i++ {
			if utf8.RuneStart(p[i]) && !utf8.FullRune(p[i:n]) {
				end = i
				break
			}
		}
	}
	if !utf8.Valid(p[:end]) {
		return 0, errors.New("the file is not valid UTF-8")
	}
	u.tail = append(u.tail[:0], p[end:n]...)
	return end, err
}
