package applestrings

import (
	"bytes"
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// encoding is how a file's bytes hold its text, kept so that a file is
// written back as it was read.
type encoding int

const (
	utf8Plain encoding = iota
	utf8BOM
	utf16LEBOM
	utf16BEBOM
	utf16LE // without a byte order mark
)

var (
	bomUTF8    = []byte{0xef, 0xbb, 0xbf}
	bomUTF16LE = []byte{0xff, 0xfe}
	bomUTF16BE = []byte{0xfe, 0xff}
)

// decodeText reads the text of a file. A byte order mark names the
// encoding; without one, text that is valid UTF-8 without NUL bytes is
// UTF-8 and, for the UTF-16 format, anything else little-endian UTF-16
// (as translate-toolkit guesses it).
func decodeText(data []byte, utf16Format bool) (string, encoding, error) {
	switch {
	case bytes.HasPrefix(data, bomUTF8):
		return checkUTF8(data[3:], utf8BOM)
	case utf16Format && bytes.HasPrefix(data, bomUTF16LE):
		s, err := fromUTF16(data[2:], false)
		return s, utf16LEBOM, err
	case utf16Format && bytes.HasPrefix(data, bomUTF16BE):
		s, err := fromUTF16(data[2:], true)
		return s, utf16BEBOM, err
	case !utf16Format || (utf8.Valid(data) && bytes.IndexByte(data, 0) < 0):
		return checkUTF8(data, utf8Plain)
	}
	s, err := fromUTF16(data, false)
	return s, utf16LE, err
}

func checkUTF8(data []byte, e encoding) (string, encoding, error) {
	if !utf8.Valid(data) {
		return "", e, errors.New("strings: the file is not valid UTF-8")
	}
	return string(data), e, nil
}

var errUTF16 = errors.New("strings: the file is not valid UTF-16")

func fromUTF16(data []byte, bigEndian bool) (string, error) {
	if len(data)%2 != 0 {
		return "", errUTF16
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
			return "", errUTF16
		}
	}
	return string(utf16.Decode(units)), nil
}

// encodeText writes text in the encoding e.
func encodeText(s string, e encoding) []byte {
	switch e {
	case utf8Plain:
		return []byte(s)
	case utf8BOM:
		return append(append([]byte(nil), bomUTF8...), s...)
	}
	units := utf16.Encode([]rune(s))
	out := make([]byte, 0, 2+2*len(units))
	switch e {
	case utf16LEBOM:
		out = append(out, bomUTF16LE...)
	case utf16BEBOM:
		out = append(out, bomUTF16BE...)
	}
	for _, u := range units {
		hi, lo := byte(u>>8), byte(u&0xff) //nolint:gosec // G115: the two bytes of a UTF-16 code unit
		if e == utf16BEBOM {
			out = append(out, hi, lo)
		} else {
			out = append(out, lo, hi)
		}
	}
	return out
}
