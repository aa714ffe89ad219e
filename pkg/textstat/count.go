package textstat

import (
	"strings"
	"unicode/utf8"
)

// IsCJK reports whether words of a source language are counted per character:
// the base code (before "_", "-" or "@") is ja, zh or ko, as Weblate's
// Language.is_cjk.
func IsCJK(languageCode string) bool {
	base := strings.ToLower(languageCode)
	if i := strings.IndexAny(base, "_-@"); i >= 0 {
		base = base[:i]
	}
	return base == "ja" || base == "zh" || base == "ko"
}

// unusedPrefix marks placeholder singulars some frameworks generate; Weblate
// leaves such forms out of word counts (is_unused_string).
const unusedPrefix = "<unused singular"

// Words is Weblate's count_words over the plural forms of a source string:
// Python str.split() words of every form, skipping "<unused singular…"
// placeholders. When cjk is set (source language ja, zh or ko) every
// character of a CJK block (ideographs, kana, hangul, CJK punctuation,
// full-width forms, see isCJK) counts as one word and splits the text around
// it; note that this makes U+3000 IDEOGRAPHIC SPACE a word there.
func Words(parts []string, cjk bool) int {
	total := 0
	for _, part := range parts {
		if strings.HasPrefix(part, unusedPrefix) {
			continue
		}
		total += formWords(part, cjk)
	}
	return total
}

func formWords(s string, cjk bool) int {
	words, inWord := 0, false
	for _, r := range s {
		switch {
		case cjk && isCJK(r):
			words++
			inWord = false
		case isPySpace(r):
			inWord = false
		case !inWord:
			words++
			inWord = true
		}
	}
	return words
}

// isPySpace is the separator set of Python's str.split() without arguments
// (str.isspace): ASCII blanks, U+001C..U+001F, U+0085, U+00A0, U+1680,
// U+2000..U+200A, U+2028, U+2029, U+202F, U+205F and U+3000. Unlike Go's
// unicode.IsSpace it includes U+001C..U+001F.
func isPySpace(r rune) bool {
	switch {
	case r >= '\t' && r <= '\r', r == ' ':
		return true
	case r >= 0x1c && r <= 0x1f, r == 0x85, r == 0xa0, r == 0x1680:
		return true
	case r >= 0x2000 && r <= 0x200a, r == 0x2028, r == 0x2029, r == 0x202f, r == 0x205f, r == 0x3000:
		return true
	}
	return false
}

// isCJK is Weblate's CJK_PATTERN (scripts/generate-cjk-regexp.py): the
// Unicode blocks Hangul Jamo, CJK Radicals Supplement, Kangxi Radicals,
// Ideographic Description Characters through CJK Unified Ideographs
// (including CJK Symbols and Punctuation, kana, Bopomofo, Kanbun, CJK
// Strokes, enclosed letters, CJK Compatibility, Extension A and Yijing
// Hexagram Symbols), Hangul Jamo Extended-A, Hangul Syllables and Jamo
// Extended-B, CJK Compatibility Ideographs and Forms, Halfwidth and Fullwidth
// Forms, the kana supplements, Enclosed Ideographic Supplement, and planes 2-3.
func isCJK(r rune) bool {
	switch {
	case r < 0x1100:
		return false
	case r <= 0x11ff,
		r >= 0x2e80 && r <= 0x2fdf,
		r >= 0x2ff0 && r <= 0x9fff,
		r >= 0xa960 && r <= 0xa97f,
		r >= 0xac00 && r <= 0xd7ff,
		r >= 0xf900 && r <= 0xfaff,
		r >= 0xfe30 && r <= 0xfe4f,
		r >= 0xff00 && r <= 0xffef,
		r >= 0x1aff0 && r <= 0x1b16f,
		r >= 0x1f200 && r <= 0x1f2ff,
		r >= 0x20000 && r <= 0x3ffff:
		return true
	}
	return false
}

// Chars counts the code points of the forms joined with PluralSeparator, as
// Weblate sums Length(source) of the stored (joined) source.
func Chars(parts []string) int {
	n := 0
	for _, p := range parts {
		n += utf8.RuneCountInString(p)
	}
	if len(parts) > 1 {
		n += utf8.RuneCountInString(PluralSeparator) * (len(parts) - 1)
	}
	return n
}

// Percent is Weblate's translation_percent rounding: floor(1000*n/total)/10,
// 0.1 instead of 0.0 when n > 0, 99.9 instead of 100.0 when n < total, and
// 0 when total is 0. Callers handle the one special case of total 0 for
// translated_percent (100.0, or 0.0 when review is enabled, COMPAT.md §6).
func Percent(n, total int64) float64 {
	if total <= 0 {
		return 0
	}
	q := 1000 * n / total
	if (1000*n)%total != 0 && n < 0 {
		q-- // floor division, like Python's //
	}
	p := float64(q) / 10
	switch {
	case p == 0 && n != 0:
		return 0.1
	case p == 100 && n < total:
		return 99.9
	}
	return p
}
