package textenc

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// HexDigit is the value of an ASCII hex digit, -1 for anything else, for
// the \uXXXX escapes of .strings and .properties values.
func HexDigit(c rune) rune {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return -1
}

// JoinSurrogates turns \u surrogate pairs decoded as two runes into their
// character and a lone surrogate into U+FFFD.
func JoinSurrogates(r []rune) string {
	var b strings.Builder
	for i := 0; i < len(r); i++ {
		c := r[i]
		if utf16.IsSurrogate(c) {
			if i+1 < len(r) {
				if p := utf16.DecodeRune(c, r[i+1]); p != utf8.RuneError {
					b.WriteRune(p)
					i++
					continue
				}
			}
			c = utf8.RuneError
		}
		b.WriteRune(c)
	}
	return b.String()
}
