package checks

import (
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// registry is the implemented checks in Weblate's CHECK_LIST order.
var registry = []check{
	sameCheck,
	charCheck("begin_newline", "Starting newline", "Source and translation do not both start with a newline.",
		func(_ *Unit, s, t string) bool { return checkChars(s, t, 0, "\n") }),
	charCheck("end_newline", "Trailing newline", "Source and translation do not both end with a newline.",
		func(_ *Unit, s, t string) bool { return checkChars(s, t, -1, "\n") }),
	charCheck("begin_space", "Starting spaces", "Source and translation do not both start with same number of spaces.", beginSpace),
	charCheck("end_space", "Trailing space", "Source and translation do not both end with a space.", endSpace),
	charCheck("double_space", "Double space", "Translation contains double space.", doubleSpace),
	withSkip(charCheck("end_stop", "Mismatched full stop", "Source and translation do not both end with a full stop.", endStop), "th", "jbo"),
	withSkip(charCheck("end_colon", "Mismatched colon", "Source and translation do not both end with a colon.", endColon), "th", "jbo"),
	withSkip(charCheck("end_question", "Mismatched question mark", "Source and translation do not both end with a question mark.", endQuestion), "th", "jbo"),
	withSkip(charCheck("end_exclamation", "Mismatched exclamation mark", "Source and translation do not both end with an exclamation mark.", endExclamation), "hy", "th", "jbo"),
	charCheck("end_interrobang", "Mismatched interrobang", "Source and translation do not both end with an interrobang expression.",
		func(_ *Unit, s, t string) bool {
			return s != "" && t != "" && endsWithAny(s, interrobangs...) != endsWithAny(t, interrobangs...)
		}),
	withSkip(charCheck("end_ellipsis", "Mismatched ellipsis", "Source and translation do not both end with an ellipsis.", endEllipsis), "th", "jbo"),
	charCheck("end_semicolon", "Mismatched semicolon", "Source and translation do not both end with a semicolon.", endSemicolon),
	{id: "max-length", name: "Maximum length of translation", description: "Translation should not exceed given length.",
		enable: "max-length", run: maxTargets("max-length", func(t string) int { return utf8.RuneCountInString(t) })},
	{id: "max-lines", name: "Maximum number of lines", description: "Translation should not exceed given number of lines.",
		enable: "max-lines", run: maxTargets("max-lines", func(t string) int { return strings.Count(t, "\n") + 1 })},
	charCheck("multiple_capital", "Multiple capitals", "Translation contains words with multiple misplaced capital letters.",
		func(_ *Unit, s, t string) bool { return hasCapitals(t) && !hasCapitals(s) }),
	charCheck("kashida", "Kashida letter used", "The decorative kashida letters should not be used.",
		func(_ *Unit, _, t string) bool { return hasKashida(t) }),
	punctuationSpacing,
	kabyleCharacters,
	pythonFormat, pythonBraceFormat, phpFormat, cFormat, objcFormat, perlFormat, perlBraceFormat, javascriptFormat, luaFormat,
	pascalFormat, schemeFormat, csharpFormat, laravelFormat, javaPrintfFormat, javaFormat, percentPlaceholders, vueFormat,
	i18nextInterpolation, esFormat, automatticFormat, angularjsFormat, icuMessageFormat, qtFormat, qtPluralFormat, rubyFormat,
	{id: "plurals", name: "Missing plurals", description: "Some plural forms are untranslated.", run: missingPlurals},
	{id: "same-plurals", name: "Same plurals", description: "Some plural forms are translated in the same way.", run: samePlurals},
	inconsistentCheck,
	translatedCheck,
	charCheck("escaped_newline", `Mismatched \n`, `Number of \n literals in translation does not match source.`, escapedNewline),
	charCheck("newline-count", "Mismatching line breaks", "Number of new lines in translation does not match source.",
		func(_ *Unit, s, t string) bool {
			return s != "" && t != "" && strings.Count(s, "\n") != strings.Count(t, "\n")
		}),
	bbcodeCheck,
	check{id: "zero-width-space", name: "Zero-width space", description: "Translation contains extra zero-width space character.",
		skip: func(u *Unit) bool { return u.langIn("km") },
		run: single(func(_ *Unit, s, t string) bool {
			return !strings.Contains(s, "\u200b") && strings.Contains(t, "\u200b")
		})}.described(),
	xmlInvalid, xmlTags, xmlCharsAroundTags, mdReflink, mdLink, mdSyntax, urlCheck, safeHTML, placeholdersCheck, regexCheck, duplicateCheck,
}

// charCheck is a check of each source and target pair (check_single).
func charCheck(id, name, description string, fn func(u *Unit, s, t string) bool) check {
	return check{id: id, name: name, description: description, run: single(fn)}.described()
}

// described makes a check's "fail" its description.
func (c check) described() check {
	run := c.run
	c.run = func(u *Unit) string {
		msg := run(u)
		if msg == "fail" {
			return c.description
		}
		return msg
	}
	return c
}

// withSkip skips the languages of base codes.
func withSkip(c check, codes ...string) check {
	c.skip = func(u *Unit) bool { return u.langIn(codes...) }
	return c
}

// checkChars is Weblate's check_chars: whether exactly one of source and
// target has one of chars at pos (0: first, -1: last); never for an
// empty string.
func checkChars(source, target string, pos int, chars string) bool {
	if source == "" || target == "" {
		return false
	}
	at := func(s string) rune {
		if pos == 0 {
			r, _ := utf8.DecodeRuneInString(s)
			return r
		}
		r, _ := utf8.DecodeLastRuneInString(s)
		return r
	}
	return strings.ContainsRune(chars, at(source)) != strings.ContainsRune(chars, at(target))
}

func last(s string) rune { r, _ := utf8.DecodeLastRuneInString(s); return r }

func short(s, t string) bool { return utf8.RuneCountInString(s) <= 1 && utf8.RuneCountInString(t) <= 1 }

func beginSpace(_ *Unit, s, t string) bool {
	if short(s, t) {
		return false
	}
	st := strings.TrimLeft(t, " ")
	return st != "" && len(s)-len(strings.TrimLeft(s, " ")) != len(t)-len(st)
}

func endSpace(_ *Unit, s, t string) bool {
	if short(s, t) || s == "" || t == "" {
		return false
	}
	st := strings.TrimRight(t, " ")
	return st != "" && len(s)-len(strings.TrimRight(s, " ")) != len(t)-len(st)
}

func doubleSpace(_ *Unit, s, t string) bool {
	if short(s, t) || s == "" || t == "" || strings.Contains(s, "  ") {
		return false
	}
	return strings.Contains(t, "  ")
}

func endStop(u *Unit, s, t string) bool {
	if utf8.RuneCountInString(s) <= 4 || t == "" {
		return false
	}
	if strings.HasSuffix(s, "...") && last(t) == '…' {
		return false
	}
	switch {
	case u.cjk() && strings.ContainsRune(":;", last(s)):
		return checkChars(s, t, -1, ";:\uff1a.\u3002")
	case u.langIn("hy"):
		return checkChars(s, t, -1, ".\u3002\u0964\u06d4\u0589\u00b7\u0df4\u17d4:\u055d?!`")
	case u.langIn("hi", "bn", "or"):
		return checkChars(s, t, -1, ".\u0964\u09f7|")
	case u.langIn("sat"):
		return checkChars(s, t, -1, ".\u1c7e")
	case u.langIn("my"):
		return !strings.HasSuffix(t, "\u1038\u104b") && checkChars(s, t, -1, ".\u104b")
	}
	return checkChars(s, t, -1, ".\u3002\u0964\u06d4\u0589\u00b7\u0df4\u17d4\u1362")
}

func endColon(u *Unit, s, t string) bool {
	if s == "" || t == "" {
		return false
	}
	switch {
	case u.langIn("hy"):
		return last(s) == ':' && checkChars(s, t, -1, ":\u055d`")
	case u.cjk():
		return strings.ContainsRune(":;", last(s)) && checkChars(s, t, -1, ";:\uff1a.\u3002")
	}
	return checkChars(s, t, -1, ":\uff1a\u17d6")
}

var interrobangs = []string{"?!", "!?", "\u061f!", "!\u061f", "\uff1f\uff01", "\uff01\uff1f", "\u2048", "\u2049"}

func endsWithAny(s string, suffixes ...string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

func endQuestion(u *Unit, s, t string) bool {
	if s == "" || t == "" || endsWithAny(s, interrobangs...) || endsWithAny(t, interrobangs...) {
		return false
	}
	switch {
	case u.langIn("hy"):
		return last(s) == '?' && checkChars(s, t, -1, "?\u055e\u0589")
	case u.langIn("el"):
		return last(s) == '?' && !strings.ContainsRune("?;\u037e", last(t))
	case u.langIn("my"):
		return strings.HasSuffix(s, "?") != strings.HasSuffix(t, "\u1038\u104b")
	}
	return checkChars(s, t, -1, "?\u055e\u061f\u2e2e\uff1f\u1367\ua60f\u2cfa")
}

func endExclamation(u *Unit, s, t string) bool {
	if s == "" || t == "" || endsWithAny(s, interrobangs...) || endsWithAny(t, interrobangs...) {
		return false
	}
	if u.langIn("eu") && last(s) == '!' && strings.Contains(t, "¡") && strings.Contains(t, "!") {
		return false
	}
	if u.langIn("my") {
		return checkChars(s, t, -1, "!\u109f")
	}
	if strings.HasSuffix(s, "Texy!") || strings.HasSuffix(t, "Texy!") {
		return false
	}
	return checkChars(s, t, -1, "!\uff01\u055c\u1944\u109f\u07f9")
}

func endEllipsis(_ *Unit, s, t string) bool {
	if t == "" || (strings.HasSuffix(s, "...") && last(t) == '…') {
		return false
	}
	return checkChars(s, t, -1, "…")
}

// entity is Weblate's XML_ENTITY_MATCH as its regex engine reads it (a
// mistyped range makes any character from U+0030 to U+EFFF a name one).
var entity = regexp.MustCompile(`&(?:#[0-9]+|#x[0-9a-fA-F]+|[\x{30}-\x{EFFF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFFD}][\-.\x{30}-\x{EFFF}\x{F900}-\x{FDCF}\x{FDF0}-\x{FFFD}]*);`)

var cdata = regexp.MustCompile(`<!\[CDATA\[(.*?)]]>`)

// stripEntities is Weblate's strip_entities.
func stripEntities(s string) string {
	if !strings.Contains(s, "&") && !strings.Contains(s, "<![CDATA[") {
		return s // nothing to strip: no regular expression to run
	}
	return cdata.ReplaceAllString(entity.ReplaceAllString(s, " "), "$1")
}

func endSemicolon(u *Unit, s, t string) bool {
	if u.langIn("el") && s != "" && last(s) == '?' {
		return false
	}
	return checkChars(stripEntities(s), stripEntities(t), -1, ";")
}

var windowsPath = regexp.MustCompile(`[A-Z]:\\\\[^\\ ]+(\\[^\\ ]+)+`)

func escapedNewline(_ *Unit, s, t string) bool {
	if s == "" || t == "" {
		return false
	}
	if !strings.Contains(s, `\n`) && !strings.Contains(t, `\n`) {
		return false
	}
	if strings.Contains(s, `:\\`) || strings.Contains(t, `:\\`) { // a path may hold \n
		s, t = windowsPath.ReplaceAllString(s, ""), windowsPath.ReplaceAllString(t, "")
	}
	return strings.Count(s, `\n`) != strings.Count(t, `\n`)
}

// hasCapitals reports two upper-case letters (Lu) in a row.
func hasCapitals(s string) bool {
	prev := false
	for _, r := range s {
		is := r < utf8.RuneSelf && 'A' <= r && r <= 'Z' || r >= utf8.RuneSelf && unicode.Is(unicode.Lu, r)
		if is && prev {
			return true
		}
		prev = is
	}
	return false
}

// kashida letters: a run of them between two Arabic letters fails.
const kashidaLetters = "\u0640\ufcf2\ufcf3\ufcf4\ufe71\ufe77\ufe79\ufe7b\ufe7d\ufe7f"

func hasKashida(t string) bool {
	if !strings.ContainsAny(t, kashidaLetters) {
		return false
	}
	rs := []rune(t)
	for i := 0; i < len(rs); i++ {
		if !strings.ContainsRune(kashidaLetters, rs[i]) {
			continue
		}
		j := i
		for j < len(rs) && strings.ContainsRune(kashidaLetters, rs[j]) {
			j++
		}
		if i > 0 && j < len(rs) && unicode.Is(unicode.Arabic, rs[i-1]) && unicode.Is(unicode.Arabic, rs[j]) {
			return true
		}
		i = j
	}
	return false
}

// maxTargets fails when a target form measures more than the flag's
// number; a flag value that is not a number fails too.
func maxTargets(flag string, measure func(string) int) func(u *Unit) string {
	return func(u *Unit) string {
		fl, _ := u.Flags.Get(flag)
		if !fl.Valued {
			return ""
		}
		n, err := u.Flags.Int(flag)
		if err != nil {
			return fmt.Sprintf("Could not parse %s flag: %v", flag, err)
		}
		for _, t := range u.Targets {
			if measure(t) > n {
				if flag == "max-length" {
					return fmt.Sprintf("Translation should not exceed given length: %d characters, at most %d.", measure(t), n)
				}
				return fmt.Sprintf("Translation should not exceed given number of lines: %d lines, at most %d.", measure(t), n)
			}
		}
		return ""
	}
}

func missingPlurals(u *Unit) string {
	if len(u.Sources) <= 1 {
		return ""
	}
	empty := 0
	for _, t := range u.Targets {
		if t == "" {
			empty++
		}
	}
	if empty == 0 || empty == len(u.Targets) {
		return ""
	}
	return "Some plural forms are untranslated."
}

func samePlurals(u *Unit) string {
	if len(u.Sources) <= 1 || len(u.Targets) <= 1 || u.Targets[0] == "" {
		return ""
	}
	for _, t := range u.Targets[1:] {
		if t != u.Targets[0] {
			return ""
		}
	}
	return "Some plural forms are translated in the same way."
}
