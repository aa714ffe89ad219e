package applestrings

import (
	"strings"

	"github.com/tmsproject/tms/services/translation/formats/internal/textenc"
)

// unquoteKey is a quoted key as translate-toolkit reads it: only \"
// is unescaped, other escapes stay as written.
func unquoteKey(inner string) string { return strings.ReplaceAll(inner, `\"`, `"`) }

// decodeValue is a value as translate-toolkit's propertiesdecode reads
// it: \\ \' \" \f \n \r \t, \U or \u with up to four
// hex digits (a UTF-16 surrogate pair joined into its character, a lone
// surrogate U+FFFD), a trailing backslash kept, any other escaped
// character without its backslash.
func decodeValue(s string) string {
	var out []rune
	r := []rune(s)
	for i := 0; i < len(r); {
		c := r[i]
		i++
		if c != '\\' || i >= len(r) {
			out = append(out, c)
			continue
		}
		c = r[i]
		i++
		switch c {
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
			for ; n < 4 && i+n < len(r); n++ {
				v := textenc.HexDigit(r[i+n])
				if v < 0 {
					break
				}
				x = x<<4 + v
			}
			i += n
			out = append(out, x)
		default:
			out = append(out, c)
		}
	}
	return textenc.JoinSurrogates(out)
}

// valueEscaper is how translate-toolkit's strings dialect writes a
// value: backslash, line feed and tab escaped, then the quotes.
var valueEscaper = strings.NewReplacer(`\`, `\\`, "\n", `\n`, "\t", `\t`, `"`, `\"`)

// quoteValue is a value written as translate-toolkit writes it.
func quoteValue(v string) string { return `"` + valueEscaper.Replace(v) + `"` }

// quoteKey is a key written as translate-toolkit writes it: quoted with
// its quotes escaped, except the NS...Description keys of InfoPlist.strings.
func quoteKey(k string) string {
	if strings.HasPrefix(k, "NS") && strings.HasSuffix(k, "Description") {
		return k
	}
	return `"` + strings.ReplaceAll(k, `"`, `\"`) + `"`
}
