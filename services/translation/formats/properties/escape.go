package properties

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/tmsproject/tms/services/translation/formats/internal/textenc"
)

// pySpace is Python's str.isspace, which translate-toolkit's strip calls
// use: Unicode white space and the separators U+001C to U+001F.
func pySpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f) }

func lstrip(r []rune) []rune {
	i := 0
	for i < len(r) && pySpace(r[i]) {
		i++
	}
	return r[i:]
}

func rstrip(r []rune) []rune {
	i := len(r)
	for i > 0 && pySpace(r[i-1]) {
		i--
	}
	return r[:i]
}

func blank(r []rune) bool { return len(lstrip(r)) == 0 }

func hasPrefix(r []rune, p string) bool { return strings.HasPrefix(string(r), p) }

// continued reports translate-toolkit's is_line_continuation: the text
// ends in an odd number of backslashes.
func continued(r []rune) bool {
	n := 0
	for i := len(r) - 1; i >= 0 && r[i] == '\\'; i-- {
		n++
	}
	return n%2 == 1
}

var errNamed = errors.New(`properties: named \N{...} escapes are not supported`)

// decode is translate-toolkit's propertiesdecode: \\ \' \" \f \n \r \t,
// \uXXXX (or \U, up to four hex digits, none giving U+0000), a trailing
// backslash kept, and any other escaped character without its backslash.
// A \u pair of UTF-16 surrogates is one character (Python keeps the two
// halves, which Weblate cannot store); a lone surrogate is U+FFFD.
func decode(s []rune) (string, error) {
	var out []rune
	for i := 0; i < len(s); {
		c := s[i]
		i++
		if c != '\\' {
			out = append(out, c)
			continue
		}
		if i >= len(s) {
			out = append(out, c)
			continue
		}
		c = s[i]
		i++
		switch c {
		case '\\', '\'', '"':
			out = append(out, c)
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u', 'U':
			x, n := rune(0), 0
			for ; n < 4 && i+n < len(s); n++ {
				v := textenc.HexDigit(s[i+n])
				if v < 0 {
					break
				}
				x = x<<4 + v
			}
			i += n
			out = append(out, x)
		case 'N':
			if i >= len(s) {
				return "", fmt.Errorf(`properties: %q ends in \N`, string(s))
			}
			if s[i] != '{' {
				out = append(out, '\\', 'N')
				continue
			}
			if !strings.ContainsRune(string(s[i+1:]), '}') {
				out = append(out, '\\', 'N')
				i++
				continue
			}
			return "", errNamed
		default:
			out = append(out, c)
		}
	}
	return textenc.JoinSurrogates(out), nil
}

// control is translate-toolkit's controlchars: the backslash and the C0
// control characters, escaped.
func control(c rune) (string, bool) {
	switch c {
	case '\\':
		return `\\`, true
	case '\t':
		return `\t`, true
	case '\n':
		return `\n`, true
	case '\f':
		return `\f`, true
	case '\r':
		return `\r`, true
	}
	if c < 0x20 {
		return fmt.Sprintf(`\u%04x`, c), true
	}
	return "", false
}

// encodeISO is translate-toolkit's javapropertiesencode: a leading space
// escaped, control characters escaped, ASCII as is, anything else as
// \uXXXX in uppercase hex (characters beyond U+FFFF as their UTF-16
// surrogates, where the reference writes five or six digits that no
// reader decodes back).
func encodeISO(s string) string {
	var b strings.Builder
	if strings.HasPrefix(s, " ") {
		b.WriteByte('\\')
	}
	for _, c := range s {
		if e, ok := control(c); ok {
			b.WriteString(e)
			continue
		}
		if c < 0x80 {
			b.WriteRune(c)
			continue
		}
		if c > 0xffff {
			r1, r2 := utf16.EncodeRune(c)
			fmt.Fprintf(&b, `\u%04X\u%04X`, r1, r2)
			continue
		}
		fmt.Fprintf(&b, `\u%04X`, c)
	}
	return b.String()
}

// encodeUTF8 is translate-toolkit's java_utf8_properties_encode: only
// the backslash and control characters are escaped.
func encodeUTF8(s string) string {
	var b strings.Builder
	for _, c := range s {
		if e, ok := control(c); ok {
			b.WriteString(e)
		} else {
			b.WriteRune(c)
		}
	}
	return b.String()
}
