package checks

import (
	_ "embed" // the word lists of the same check
	"encoding/xml"
	"errors"
	"io"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// The words Weblate's same check ignores: words usually left
// untranslated, and language, region and place names (data/*.txt say
// where they come from).
var (
	//go:embed data/words.txt
	wordsText string
	//go:embed data/languages.txt
	languagesText string

	ignoredWords = wordSet(wordsText, languagesText)
)

func wordSet(texts ...string) map[string]bool {
	out := map[string]bool{}
	for _, text := range texts {
		for line := range strings.Lines(text) {
			if w := strings.TrimSpace(line); w != "" && !strings.HasPrefix(w, "#") {
				out[w] = true
			}
		}
	}
	return out
}

// sameCheck is Weblate's "Unchanged translation": a target equal to its
// source, unless the source is only what stays untranslated (numbers,
// placeholders, markup, addresses, known words and names).
var sameCheck = check{id: "same", name: "Unchanged translation", description: "Source and translation are identical.",
	skip: func(u *Unit) bool {
		src := baseCode(u.SourceLang)
		return u.base == src || (src == "en" && u.langIn("en", "ia"))
	},
	run: single(func(u *Unit, s, t string) bool {
		if utf8.RuneCountInString(s) <= 1 && utf8.RuneCountInString(t) <= 1 {
			return false
		}
		return s == t && !ignoreSame(u, s)
	})}.described()

// Weblate's strip_string expressions (same.py), in the order it applies
// them; Python's $ also matches before a final newline.
var (
	emojiRE   = regexp.MustCompile(`[\x{2600}-\x{27BF}]|[\x{1F000}-\x{1FFFD}]`)
	emailRE   = regexp.MustCompile(`(?i)[a-z0-9_.-]+@[a-z0-9_.-]+\.[a-z0-9-]{2,}`)
	urlRE     = regexp.MustCompile(`(?i)(?:http|ftp)s?://(?:[a-z0-9_.-]*|localhost|\d{1,3}\.\d{1,3}\.\d{1,3}\.\d{1,3})(?::\d+)?(?:/?|[/?]\S+)\n?$`)
	hashRE    = regexp.MustCompile(`#[A-Za-z0-9_-]*`)
	domainRE  = regexp.MustCompile(`(?i)(?:[A-Z0-9](?:[A-Z0-9-]{0,61}[A-Z0-9])?\.)+(?:[A-Z]{2,6}\.?|[A-Z0-9-]{2,}\.?)`)
	pathRE    = regexp.MustCompile(`(^|[ ])(/[a-zA-Z0-9=:?._-]+)+`)
	templRE   = regexp.MustCompile(`(?i)\{[a-z_-]+\}|@[A-Z_]@`)
	tagRE     = regexp.MustCompile(`<[^>]+>`)
	entityRE  = regexp.MustCompile(`(?i)&(?:nbsp|rsaquo|lt|gt|amp|ldquo|rdquo|times|quot);`)
	splitSet  = "() ,.^`\"'\\/_<>!?;:|{}*@%#&~=+\r\n\u2713\u2014\u2011\u2026[]0123456789-"
	docbookRE = map[string]bool{"screen": true, "indexterm": true, "programlisting": true}
)

// ignoreSame is Weblate's SameCheck.should_ignore: whether a source left
// unchanged is fine as it is.
func ignoreSame(u *Unit, source string) bool {
	if tag, ok := strings.CutPrefix(u.Note, "Tag: "); (ok && docbookRE[tag]) || u.Note == "type: delimited block -" {
		return true
	}
	stripped := removeHighlights(u, source)
	if u.Flags.Has("strict-same") {
		return stripped == ""
	}
	lower := strings.ToLower(source)
	if utf8.RuneCountInString(strings.Trim(source, "0123456789:/,.")) <= 1 ||
		strings.Contains(lower, "(c) copyright") || strings.Contains(source, "\u00a9") {
		return true
	}
	stripped = stripString(stripped)
	if utf8.RuneCountInString(stripped) <= 1 || isUpper(stripped) {
		return true
	}
	extra := map[string]bool{}
	for _, n := range u.Names {
		for _, w := range strings.Fields(strings.ToLower(n)) {
			extra[w] = true
		}
	}
	words := strings.FieldsFunc(entityRE.ReplaceAllString(strings.ToLower(stripped), " "),
		func(r rune) bool { return strings.ContainsRune(splitSet, r) })
	for _, w := range words {
		if utf8.RuneCountInString(w) > 2 && !ignoredWords[w] && !extra[w] {
			return false
		}
	}
	return true
}

// stripString is Weblate's strip_string: markup, emoji, addresses,
// hashtags, domains, paths and templates removed.
func stripString(s string) string {
	s = stripTags(s)
	s = emojiRE.ReplaceAllString(s, " ")
	for _, re := range []*regexp.Regexp{emailRE, urlRE, hashRE, domainRE} {
		s = re.ReplaceAllString(s, "")
	}
	s = pathRE.ReplaceAllString(s, "")
	return templRE.ReplaceAllString(s, "")
}

// stripTags is Django's strip_tags as far as plain strings go: tags and
// comments removed until none is left.
func stripTags(s string) string {
	for range 50 {
		if !strings.Contains(s, "<") || !strings.Contains(s, ">") {
			return s
		}
		next := tagRE.ReplaceAllString(s, "")
		if next == s {
			return s
		}
		s = next
	}
	return s
}

// isUpper is Python's str.isupper: a cased letter, and none in lower or
// title case.
func isUpper(s string) bool {
	cased := false
	for _, r := range s {
		switch {
		case unicode.IsLower(r) || unicode.IsTitle(r):
			return false
		case unicode.IsUpper(r):
			cased = true
		}
	}
	return cased
}

// removeHighlights is Weblate's replace_highlighted(text, unit, ""): the
// highlighted spans of text deleted.
func removeHighlights(u *Unit, text string) string {
	return replaceHighlighted(u, text, func(int) string { return "" })
}

// replaceHighlighted is Weblate's replace_highlighted: each highlighted
// span of text replaced by what with says for its start (a byte offset).
func replaceHighlighted(u *Unit, text string, with func(start int) string) string {
	spans := highlightSpans(u, text)
	if len(spans) == 0 {
		return text
	}
	var sb strings.Builder
	at := 0
	for _, sp := range spans {
		sb.WriteString(text[at:sp[0]])
		sb.WriteString(with(sp[0]))
		at = sp[1]
	}
	sb.WriteString(text[at:])
	return sb.String()
}

// highlightSpans are Weblate's highlight_string spans of text (byte
// offsets), merged and in order: the placeholders of the enabled format
// checks, and the tags and entities of markup when the source is XML.
func highlightSpans(u *Unit, text string) [][2]int {
	var spans [][2]int
	add := func(found [][]int) {
		for _, m := range found {
			if m[1] > m[0] {
				spans = append(spans, [2]int{m[0], m[1]})
			}
		}
	}
	for _, c := range highlighters {
		if c.enabled(u) {
			add(c.syntax.re.FindAllStringIndex(text, -1))
		}
	}
	if re := placeholderRE(u); re != nil && placeholdersCheck.enabled(u) {
		add(re.FindAllStringIndex(text, -1))
	}
	if u.Flags.Has("bbcode-text") && bbcodeCheck.enabled(u) {
		add(bbcodeSpans(text))
	}
	if xmlTags.enabled(u) && parsesXML(text) {
		tags := tagRE.FindAllStringIndex(text, -1)
		add(tags)
		for _, m := range entity.FindAllStringIndex(text, -1) {
			if !slices.ContainsFunc(tags, func(t []int) bool { return m[0] > t[0] && m[1] < t[1] }) {
				spans = append(spans, [2]int{m[0], m[1]})
			}
		}
	}
	slices.SortFunc(spans, func(a, b [2]int) int {
		if a[0] != b[0] {
			return a[0] - b[0]
		}
		return b[1] - a[1]
	})
	var out [][2]int
	for _, sp := range spans {
		if n := len(out); n > 0 && sp[0] <= out[n-1][1] {
			out[n-1][1] = max(out[n-1][1], sp[1])
			continue
		}
		out = append(out, sp)
	}
	return out
}

// highlighters are the checks with placeholders to highlight (set at
// init: the registry refers to the same check, which reads them).
var highlighters []check

func init() {
	for _, c := range registry {
		if c.syntax != nil {
			highlighters = append(highlighters, c)
		}
	}
}

// parsesXML reports whether text is well-formed XML content.
func parsesXML(text string) bool {
	d := xml.NewDecoder(strings.NewReader("<weblate>" + text + "</weblate>"))
	d.Strict = true
	d.Entity = xml.HTMLEntity
	for {
		_, err := d.Token()
		if errors.Is(err, io.EOF) {
			return true
		}
		if err != nil {
			return false
		}
	}
}
