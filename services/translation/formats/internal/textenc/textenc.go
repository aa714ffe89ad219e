// Package textenc reads the text of a file that may be UTF-8 or UTF-16
// and writes it back in the encoding it was read in, byte for byte, for
// the formats that keep a file's encoding (Apple .strings, Java
// properties in UTF-16).
package textenc

import (
	"bytes"
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// Encoding is how a file's bytes hold its text.
type Encoding int

// The encodings a file is read and written in.
const (
	UTF8 Encoding = iota
	UTF8BOM
	UTF16LEBOM
	UTF16BEBOM
	UTF16LE // without a byte order mark
)

var (
	bomUTF8    = []byte{0xef, 0xbb, 0xbf}
	bomUTF16LE = []byte{0xff, 0xfe}
	bomUTF16BE = []byte{0xfe, 0xff}
)

// Errors of Decode; callers prefix them with their format.
var (
	ErrUTF8  = errors.New("the file is not valid UTF-8")
	ErrUTF16 = errors.New("the file is not valid UTF-16")
)

// Decode reads the text of a file. A byte order mark names the encoding.
// Without one, a file that is valid UTF-8 without NUL bytes is UTF-8 when
// utf8Fallback is set; anything else is little-endian UTF-16, as Python's
// "utf-16" codec reads a file without a mark. Without utf16, only UTF-8
// (with or without its mark) is read.
func Decode(data []byte, utf16Allowed, utf8Fallback bool) (string, Encoding, error) {
	switch {
	case bytes.HasPrefix(data, bomUTF8):
		return checkUTF8(data[3:], UTF8BOM)
	case utf16Allowed && bytes.HasPrefix(data, bomUTF16LE):
		s, err := fromUTF16(data[2:], false)
		return s, UTF16LEBOM, err
	case utf16Allowed && bytes.HasPrefix(data, bomUTF16BE):
		s, err := fromUTF16(data[2:], true)
		return s, UTF16BEBOM, err
	case !utf16Allowed || (utf8Fallback && utf8.Valid(data) && bytes.IndexByte(data, 0) < 0):
		return checkUTF8(data, UTF8)
	}
	s, err := fromUTF16(data, false)
	return s, UTF16LE, err
}

func checkUTF8(data []byte, e Encoding) (string, Encoding, error) {
	if !utf8.Valid(data) {
		return "", e, ErrUTF8
	}
	return string(data), e, nil
}

func fromUTF16(data []byte, bigEndian bool) (string, error) {
	if len(data)%2 != 0 {
		return "", ErrUTF16
	}
	units := make([]uint16, len(data)/2)
	for i := range units {
		hi, lo := data[2*i+1], data[2*i]
		if bigEndian {
			hi, lo = lo, hi
		}
		units[i] = uint16(hi)<<8 | uint16(lo)
	}
	// A lone surrogate would not be written back as read.
	for i := 0; i < len(units); i++ {
		switch u := rune(units[i]); {
		case u >= 0xd800 && u < 0xdc00 && i+1 < len(units) && units[i+1] >= 0xdc00 && units[i+1] < 0xe000:
			i++
		case utf16.IsSurrogate(u):
			return "", ErrUTF16
		}
	}
	return string(utf16.Decode(units)), nil
}

// Encode writes text in the encoding e.
func Encode(s string, e Encoding) []byte {
	switch e {
	case UTF8:
		return []byte(s)
	case UTF8BOM:
		return append(append([]byte(nil), bomUTF8...), s...)
	}
	units := utf16.Encode([]rune(s))
	out := make([]byte, 0, 2+2*len(units))
	switch e {
	case UTF16LEBOM:
		out = append(out, bomUTF16LE...)
	case UTF16BEBOM:
		out = append(out, bomUTF16BE...)
	}
	for _, u := range units {
		hi, lo := byte(u>>8), byte(u&0xff) //nolint:gosec // G115: the two bytes of a UTF-16 code unit
		if e == UTF16BEBOM {
			out = append(out, hi, lo)
		} else {
			out = append(out, lo, hi)
		}
	}
	return out
}
