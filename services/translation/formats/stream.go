package formats

import (
	"bufio"
	"bytes"
	"io"

	"github.com/tmsproject/tms/pkg/lang"
)

// StreamPiece is the size of the pieces ReadStream reads a file in: its
// parse, several times a piece, is garbage piece by piece.
const StreamPiece = 4 << 20

var bom = []byte("\xef\xbb\xbf")

// ReadStream is s.Stream over r in pieces of StreamPiece, a UTF-8 byte
// order mark skipped (the JSON decoder refuses one; PO has no use for it).
func ReadStream(s Streamer, r io.Reader, l Language, each func(File) error) error {
	br := bufio.NewReaderSize(r, 1<<16)
	if b, _ := br.Peek(len(bom)); bytes.Equal(b, bom) {
		_, _ = br.Discard(len(bom))
	}
	return s.Stream(br, l, StreamPiece, each)
}

// TrimBOM is data without a leading UTF-8 byte order mark.
func TrimBOM(data []byte) []byte { return bytes.TrimPrefix(data, bom) }

// PluralForms is the plural rule of a file's Plural-Forms header; ok is
// false when the format has no header or the header no usable rule.
func PluralForms(f File) (n int, formula string, ok bool) {
	hf, isHeader := f.(HeaderFile)
	if !isHeader {
		return 0, "", false
	}
	n, formula, err := lang.ParsePluralForms(hf.HeaderField("Plural-Forms"))
	return n, formula, err == nil
}
