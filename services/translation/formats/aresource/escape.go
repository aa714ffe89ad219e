package aresource

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// eof ends the rune list unescape works on, as translate-toolkit's EOF
// marker does.
const eof = rune(-1)

var errUnicode = errors.New("aresource: bad unicode escape sequence")

func isSpace(c rune) bool { return c == ' ' || c == '\n' || c == '\t' }

// unescape is translate-toolkit's AndroidResourceUnit.unescape (from
// android2po): whitespace runs collapse to one space outside double
// quotes, the quotes go, and \n, \t, \uXXXX, \\, \', \", \@, \? and
// "\ " are decoded, any other escaped character dropped. strip removes
// the leading and trailing space (plain strings; not the text around
// markup). It follows the reference step by step, list edits and index
// arithmetic included, so strings decode exactly as there.
func unescape(s string, strip bool) (out string, err error) {
	defer func() {
		// An index the reference would fail on (Python's IndexError)
		// makes the string malformed here too.
		if r := recover(); r != nil {
			out, err = "", fmt.Errorf("aresource: cannot unescape %q", s)
		}
	}()
	text := append([]rune(s), eof)
	spaceCount := 0
	activeQuote, activeEscape := false, false
	for i := 0; i < len(text); i++ {
		c := text[pyIndex(i, len(text))]
		if !activeEscape {
			switch {
			case c != eof && isSpace(c):
				spaceCount++
			case spaceCount > 1:
				if !activeQuote || c == eof {
					text = setSlice(text, i-spaceCount, i, []rune{' '})
					i -= spaceCount - 1
					if strip && (i == 1 || c == eof) {
						text = del(text, i-1)
					}
				}
				spaceCount = 0
			case spaceCount == 1:
				text[pyIndex(i-1, len(text))] = ' '
				if strip && !activeQuote && (i == 1 || c == eof) {
					text = del(text, i-1)
				}
				spaceCount = 0
			default:
				spaceCount = 0
			}
		}
		if c == '"' && !activeEscape {
			activeQuote = !activeQuote
			text = del(text, i)
			i--
		}
		switch {
		case c == '\\' && !activeEscape:
			activeEscape = true
		case c == '\\':
			text = del(text, i)
			i--
			activeEscape = false
		case activeEscape:
			switch {
			case c == eof:
			case c == 'n' || c == 'N':
				// A space before \n is the real newline written in
				// front of it: it goes.
				offset := 1
				if i >= 2 && text[i-2] == ' ' {
					offset = 2
				}
				text = setSlice(text, i-offset, i+1, []rune{'\n'})
				i -= offset
			case c == 't' || c == 'T':
				text = setSlice(text, i-1, i+1, []rune{'\t'})
				i--
			case c == ' ':
				text = setSlice(text, i-1, i+1, []rune{' '})
				i--
			case strings.ContainsRune(`"'@?`, c):
				text = setSlice(text, i-1, i, nil)
				i--
			case c == 'u':
				maxSlice := min(i+5, len(text)-1)
				lo, hi := clamp(i+1, len(text)), clamp(maxSlice, len(text))
				digits := ""
				if lo < hi {
					digits = string(text[lo:hi])
				}
				if n := len([]rune(digits)); n < 4 {
					digits = strings.Repeat("0", 4-n) + digits
				}
				r, err := hexRune(digits)
				if err != nil {
					return "", err
				}
				text = setSlice(text, i-1, maxSlice, []rune{r})
				i--
			default:
				text = setSlice(text, i-1, i+1, nil)
				i--
			}
			activeEscape = false
		}
	}
	var b strings.Builder
	for _, r := range text[:len(text)-1] {
		if r == eof {
			return "", fmt.Errorf("aresource: cannot unescape %q", s)
		}
		b.WriteRune(r)
	}
	return b.String(), nil
}

// hexRune decodes the four characters of a \u escape.
func hexRune(digits string) (rune, error) {
	for _, r := range digits {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return 0, errUnicode
		}
	}
	v, err := strconv.ParseUint(digits, 16, 16)
	if err != nil || (v >= 0xd800 && v <= 0xdfff) {
		return 0, errUnicode
	}
	return rune(uint16(v)), nil
}

// pyIndex is Python's index of k in a list of n (negative from the end).
func pyIndex(k, n int) int {
	if k < 0 {
		return k + n
	}
	return k
}

// clamp is Python's bound of a slice index k in a list of n.
func clamp(k, n int) int {
	if k < 0 {
		k = max(k+n, 0)
	}
	return min(k, n)
}

// setSlice is Python's text[a:b] = r.
func setSlice(text []rune, a, b int, r []rune) []rune {
	n := len(text)
	a, b = clamp(a, n), clamp(b, n)
	b = max(a, b)
	out := make([]rune, 0, n-(b-a)+len(r))
	out = append(out, text[:a]...)
	out = append(out, r...)
	return append(out, text[b:]...)
}

// del is Python's del text[k].
func del(text []rune, k int) []rune {
	k = pyIndex(k, len(text))
	return append(text[:k:k], text[k+1:]...)
}

// escaper is translate-toolkit's escaping of a string for Android, in its
// order: backslash, newline (kept as a real newline before \n for
// readability), tab, apostrophe, question mark, double quote.
var escaper = strings.NewReplacer(`\`, `\\`, "\n", "\n\\n", "\t", `\t`, `'`, `\'`, `?`, `\?`, `"`, `\"`)

// escape is translate-toolkit's AndroidResourceUnit.escape: the
// characters Android gives a meaning escaped, a leading @ escaped, and,
// with quoteWrap (plain strings), the string in double quotes when it
// begins or ends with whitespace or holds a run of it; in text around
// markup a run of two spaces becomes " \u0020" instead.
func escape(text string, quoteWrap bool) string {
	if text == "" {
		return ""
	}
	text = escaper.Replace(text)
	if strings.HasPrefix(text, "@") {
		text = `\@` + text[1:]
	}
	r := []rune(text)
	runs := multiSpace(r)
	if quoteWrap && (isSpace(r[0]) || isSpace(r[len(r)-1]) || len(runs) > 0) {
		return `"` + text + `"`
	}
	if !quoteWrap && len(runs) > 0 {
		var b strings.Builder
		last := 0
		for _, at := range runs {
			b.WriteString(string(r[last:at]))
			if pair := string(r[at : at+2]); pair == "  " {
				b.WriteString(` \u0020`)
			} else {
				b.WriteString(pair)
			}
			last = at + 2
		}
		b.WriteString(string(r[last:]))
		return b.String()
	}
	return text
}

// multiSpace finds the matches of the reference's `[ \n\t]{2}(?!\\n)`:
// two whitespace characters not followed by an escaped newline, left to
// right without overlap.
func multiSpace(r []rune) []int {
	var at []int
	for i := 0; i+1 < len(r); {
		if isSpace(r[i]) && isSpace(r[i+1]) && (i+3 >= len(r) || r[i+2] != '\\' || r[i+3] != 'n') {
			at = append(at, i)
			i += 2
			continue
		}
		i++
	}
	return at
}
