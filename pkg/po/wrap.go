package po

import (
	"strings"
)

// pageWidth is GNU gettext's default output page width: every wrapped line,
// prefix, keyword and quotes included, fits in it when break opportunities
// allow.
const pageWidth = 79

// wrapStyle names a PO writer whose line wrapping the renderer reproduces.
type wrapStyle int

const (
	// wrapToolkit is translate-toolkit's (gettext_wrap of the
	// unicode-segmentation-rs crate), which the reference service writes
	// edited entries with.
	wrapToolkit wrapStyle = iota
	// wrapGettext is GNU gettext's (msgmerge, msgcat 0.23 with libunistring
	// 1.3), which the reference service's msgmerge add-on rewrites whole
	// files with.
	wrapGettext
)

// gettextQuoteLines renders an unescaped string as the quoted lines GNU gettext
// (msgmerge, msgcat) writes for it after keyword, on lines starting with
// linePrefix ("" for a live entry, "#~ " for an obsolete one, "#| " for a
// previous string). The first line goes after the keyword; it is `""` when
// the string has a newline before its end or does not fit on the keyword
// line. Lines break only at Unicode line break opportunities (UAX #14 as
// libunistring implements it), never inside an escape sequence or a format
// directive of format, and never just before a final "\n". An empty string
// yields no lines (the caller writes `""`).
func gettextQuoteLines(s, linePrefix, keyword string, format formatKind) []string {
	if s == "" {
		return nil
	}
	noBreak := formatDirectiveInteriors(s, format)
	// Columns are counted from just after the opening quote of a
	// continuation line; the closing quote needs one more column.
	indent := len(linePrefix) + 1
	width := pageWidth - 1 - indent
	var out []string
	first := true
	for start := 0; start < len(s); {
		end := strings.IndexByte(s[start:], '\n') + 1
		if end == 0 {
			end = len(s) - start
		}
		end += start
		text, overrides := escapePortion(s[start:end], noBreak[start:end])
		breaks := make([]uint8, len(text))
		startCol := 0
		if first {
			startCol = len(linePrefix) + len(keyword) + 2 - indent
			widthBreaks(text, width, startCol, overrides, breaks)
			if end < len(s) || startCol > width || hasBreak(breaks) {
				out = append(out, `""`)
				startCol = 0
				widthBreaks(text, width, startCol, overrides, breaks)
			}
			first = false
		} else {
			widthBreaks(text, width, startCol, overrides, breaks)
		}
		out = appendBrokenLines(out, text, breaks)
		start = end
	}
	return out
}

func hasBreak(breaks []uint8) bool {
	for _, b := range breaks {
		if b == breakPossible {
			return true
		}
	}
	return false
}

// appendBrokenLines cuts text before every position marked breakPossible
// and appends the quoted pieces.
func appendBrokenLines(out []string, text []rune, breaks []uint8) []string {
	from := 0
	for i := range text {
		if breaks[i] == breakPossible && i > from {
			out = append(out, `"`+string(text[from:i])+`"`)
			from = i
		}
	}
	return append(out, `"`+string(text[from:])+`"`)
}

// escapePortion escapes one newline-terminated portion of a string as GNU
// gettext does and returns it with a break override per rune: no break
// inside an escape sequence or inside a format directive (noBreak, indexed
// by byte of portion), nor just before the final "\n".
func escapePortion(portion string, noBreak []bool) ([]rune, []uint8) {
	text := make([]rune, 0, len(portion)+4)
	overrides := make([]uint8, 0, len(portion)+4)
	for i, r := range portion {
		brk := uint8(breakUndefined)
		if noBreak[i] {
			brk = breakProhibited
		}
		if esc := escapeLetter(r); esc != 0 {
			text = append(text, '\\', esc)
			overrides = append(overrides, brk, breakProhibited)
			continue
		}
		text = append(text, r)
		overrides = append(overrides, brk)
	}
	if strings.HasSuffix(portion, "\n") {
		overrides[len(overrides)-2] = breakProhibited
	}
	return text, overrides
}

// escapeLetter returns the character after the backslash GNU gettext writes
// for r, or 0 when r is written as is.
func escapeLetter(r rune) rune {
	switch r {
	case '\a':
		return 'a'
	case '\b':
		return 'b'
	case '\f':
		return 'f'
	case '\n':
		return 'n'
	case '\r':
		return 'r'
	case '\t':
		return 't'
	case '\v':
		return 'v'
	case '\\', '"':
		return r
	}
	return 0
}

// widthBreaks is libunistring's u8_width_linebreaks: it keeps, among the
// break opportunities, those needed so that no line exceeds width columns
// (the first starting at startCol), greedily, and marks them breakPossible
// in breaks. A piece wider than a line is left whole.
func widthBreaks(text []rune, width, startCol int, overrides, breaks []uint8) {
	possibleBreaks(text, breaks)
	lastBreak := -1
	column, piece := startCol, 0
	for i, r := range text {
		if overrides[i] != breakUndefined {
			breaks[i] = overrides[i]
		}
		if breaks[i] == breakPossible || breaks[i] == breakMandatory {
			if lastBreak >= 0 && column+piece > width {
				breaks[lastBreak] = breakPossible
				column = 0
			}
		}
		if breaks[i] == breakMandatory {
			lastBreak, column, piece = -1, 0, 0
			continue
		}
		if breaks[i] == breakPossible {
			lastBreak = i
			column += piece
			piece = 0
		}
		breaks[i] = breakProhibited
		piece += runeWidth(r)
	}
	if lastBreak >= 0 && column+piece > width {
		breaks[lastBreak] = breakPossible
	}
}
