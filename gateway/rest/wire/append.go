package wire

import (
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// Appender is a value that writes its own JSON: compact, valid, without
// HTML escaping, byte for byte what encoding/json writes of it. Encode
// writes an Appender without encoding/json's reflection and without the
// check of a MarshalJSON's output, which were a sixth of a units page's
// cost.
type Appender interface {
	AppendJSON(b []byte) ([]byte, error)
}

// AppendString appends s as a JSON string, escaped as encoding/json
// escapes it without HTML escaping: quotes, backslashes and control
// characters, U+2028 and U+2029, and each byte of invalid UTF-8 as
// U+FFFD.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != '"' && c != '\\' {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			b = appendEscaped(b, c)
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// appendEscaped appends the escape of an ASCII byte that JSON strings
// may not hold as it is.
func appendEscaped(b []byte, c byte) []byte {
	switch c {
	case '\\', '"':
		return append(b, '\\', c)
	case '\b':
		return append(b, '\\', 'b')
	case '\f':
		return append(b, '\\', 'f')
	case '\n':
		return append(b, '\\', 'n')
	case '\r':
		return append(b, '\\', 'r')
	case '\t':
		return append(b, '\\', 't')
	}
	return append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
}

// AppendStrings appends ss as a JSON array of strings (nil as null, as
// encoding/json writes it).
func AppendStrings(b []byte, ss []string) []byte { return AppendList(b, ss, AppendString) }

// AppendList appends xs as a JSON array, each item by item (nil as null,
// as encoding/json writes a nil slice).
func AppendList[T any](b []byte, xs []T, item func([]byte, T) []byte) []byte {
	if xs == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, x := range xs {
		if i > 0 {
			b = append(b, ',')
		}
		b = item(b, x)
	}
	return append(b, ']')
}

// AppendKey appends "name": after a comma unless it opens the object
// (first).
func AppendKey(b []byte, name string, first bool) []byte {
	if !first {
		b = append(b, ',')
	}
	b = append(b, '"')
	b = append(b, name...)
	return append(b, '"', ':')
}

// AppendInt appends n.
func AppendInt(b []byte, n int64) []byte { return strconv.AppendInt(b, n, 10) }

// AppendBool appends true or false.
func AppendBool(b []byte, v bool) []byte { return strconv.AppendBool(b, v) }

// AppendTime appends t as a JSON string, as its MarshalJSON does.
func AppendTime(b []byte, t Time) []byte {
	b = append(b, '"')
	b = appendTime(b, t.Time)
	return append(b, '"')
}

// AppendValue appends v: by its AppendJSON when it is an Appender, else
// as encoding/json writes it (no HTML escaping).
func AppendValue(b []byte, v any) ([]byte, error) {
	if a, ok := v.(Appender); ok {
		return a.AppendJSON(b)
	}
	raw, err := marshal(v)
	return append(b, raw...), err
}

// marshal is json.Marshal without HTML escaping.
func marshal(v any) ([]byte, error) {
	var buf bytesBuffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.b[:len(buf.b)-1], nil // Encode ends with a newline
}

// bytesBuffer is the least io.Writer marshal needs.
type bytesBuffer struct{ b []byte }

func (w *bytesBuffer) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}
