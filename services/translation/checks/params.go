package checks

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// The checks of Weblate's placeholders.py and duplicate.py, and the
// Kabyle characters one of chars.py.
var (
	kabyleCharacters = check{id: "kabyle-characters", name: "Non\u2011standard characters in Kabyle",
		description: "Use standardized Latin Kabyle characters (e.g. ɣ instead of Greek γ; ɛ instead of ε).",
		skip:        func(u *Unit) bool { return !u.langIn("kab") },
		run:         single(func(_ *Unit, _, t string) bool { return strings.ContainsAny(t, "γΓεΕğĞ") })}.described()
	placeholdersCheck = check{id: "placeholders", name: "Placeholders", description: "Translation is missing some placeholders.",
		enable: "placeholders", run: placeholdersRun}
	regexCheck = check{id: "regex", name: "Regular expression", description: "Translation does not match regular expression.",
		enable: "regex", skip: func(u *Unit) bool { return flagRegex(u) == nil }, run: func(u *Unit) string {
			re := flagRegex(u)
			for _, t := range u.Targets {
				if !re.MatchString(t) {
					return fmt.Sprintf("Does not match regular expression %s.", re.String())
				}
			}
			return ""
		}}
	duplicateCheck = check{id: "duplicate", name: "Consecutive duplicated words",
		description: "Text contains the same word twice in a row.",
		skip:        func(u *Unit) bool { return u.langIn("tok") }, run: duplicateRun}
)

// compiled caches the regular expressions of flags, by pattern; nil for
// one Go cannot compile.
var compiled sync.Map // string → *regexp.Regexp

func compileFlag(pattern string) *regexp.Regexp {
	if v, ok := compiled.Load(pattern); ok {
		return v.(*regexp.Regexp)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		re = nil
	}
	compiled.Store(pattern, re)
	return re
}

// flagRegex is the expression of the regex flag, nil when it has none
// (or one Go cannot run).
func flagRegex(u *Unit) *regexp.Regexp {
	f, _ := u.Flags.Get("regex")
	if len(f.Values) != 1 || f.Values[0].Text == "" {
		return nil
	}
	return compileFlag(f.Values[0].Text)
}

// placeholderRE is the matcher of the placeholders flag: its values,
// literal or r"…", in order; nil without any.
func placeholderRE(u *Unit) *regexp.Regexp {
	f, _ := u.Flags.Get("placeholders")
	var alts []string
	for _, v := range f.Values {
		switch {
		case v.Text == "":
		case v.Regex:
			alts = append(alts, "(?:"+v.Text+")")
		default:
			alts = append(alts, regexp.QuoteMeta(v.Text))
		}
	}
	if len(alts) == 0 {
		return nil
	}
	prefix := ""
	if u.Flags.Has("case-insensitive") {
		prefix = "(?i)"
	}
	return compileFlag(prefix + strings.Join(alts, "|"))
}

// placeholdersRun is Weblate's PlaceholderCheck: every placeholder of the
// source in each target form (a form used for one number may leave them
// out), and none the source lacks.
func placeholdersRun(u *Unit) string {
	re := placeholderRE(u)
	if re == nil || len(u.Sources) == 0 {
		return ""
	}
	fold := u.Flags.Has("case-insensitive")
	set := func(s string) map[string]string {
		out := map[string]string{}
		for _, m := range re.FindAllString(s, -1) {
			k := m
			if fold {
				k = strings.ToLower(m)
			}
			out[k] = m
		}
		return out
	}
	expected := set(u.Sources[0])
	if len(expected) == 0 && len(u.Sources) > 1 {
		expected = set(u.Sources[len(u.Sources)-1])
	}
	ex, more := examples(u.TargetPlural)
	var missing, extra []string
	for j, t := range u.Targets {
		found := set(t)
		several := j < len(ex) && (len(ex[j]) > 1 || more[j]) && !(slices.Equal(ex[j], []int64{0, 1}) && !more[j])
		for k, v := range expected {
			if _, ok := found[k]; !ok && (len(u.Targets) == 1 || several) {
				missing = append(missing, v)
			}
		}
		for k, v := range found {
			if _, ok := expected[k]; !ok {
				extra = append(extra, v)
			}
		}
	}
	return missingExtra(missing, extra)
}

// missingExtra words what placeholders lack and add, as Weblate does;
// "" for nothing.
func missingExtra(missing, extra []string) string {
	list := func(xs []string) string {
		xs = slices.Clone(xs)
		slices.Sort(xs)
		return strings.Join(slices.Compact(xs), ", ")
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "The following format strings are missing: "+list(missing))
	}
	if len(extra) > 0 {
		parts = append(parts, "The following format strings are extra: "+list(extra))
	}
	return strings.Join(parts, " ")
}

// duplicateIgnores are words a language repeats on purpose, by base code.
var duplicateIgnores = map[string][]string{
	"fy": {"jo", "mei"}, "fr": {"vous", "nous"}, "hi": {"कर"}, "tr": {"tek", "adım", "gıcır", "sık"},
	"sq": {"të"}, "vi": {"luôn", "song"},
}

// duplicateRun is Weblate's DuplicateCheck: a word repeated in a row in a
// target, unless the source repeats words the same way.
func duplicateRun(u *Unit) string {
	var words []string
	u.pairs(func(s, t string) bool {
		for _, w := range duplicatedWords(u, s, t) {
			if !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
		return false
	})
	if len(words) == 0 {
		return ""
	}
	slices.Sort(words)
	if len(words) == 1 {
		return "The following word is duplicated: " + words[0]
	}
	return "The following words are duplicated: " + strings.Join(words, ", ")
}

func duplicatedWords(u *Unit, source, target string) []string {
	tGroups, tWords := repeats(replaceHighlights(u, target), u.base)
	if len(tGroups) == 0 {
		return nil
	}
	sGroups, sWords := repeats(replaceHighlights(u, source), baseCode(u.SourceLang))
	if slices.Equal(sGroups, tGroups) {
		return nil
	}
	var out []string
	for _, w := range tWords {
		if !slices.Contains(sWords, w) {
			out = append(out, w)
		}
	}
	return out
}

// replaceHighlights replaces each highlighted span by a word of its own
// (x-weblate-<start>), as the duplicate check reads text.
func replaceHighlights(u *Unit, text string) string {
	return replaceHighlighted(u, text, func(start int) string {
		return fmt.Sprintf("x-weblate-%d", utf8.RuneCountInString(text[:start]))
	})
}

// nonWord is Weblate's NON_WORD separator of the duplicate check.
func nonWord(r rune) bool {
	if r == ']' {
		return true
	}
	return unicode.In(r, unicode.Po, unicode.Ps, unicode.Zs, unicode.Cc, unicode.Sk) && !strings.ContainsRune("-;:,.·•\\", r)
}

// repeats lists the runs of a word repeated in a row in text: each run's
// length and its word. Short words, digits and a language's ignored words
// do not count.
func repeats(text, code string) (groups []int, words []string) {
	var prev string
	have, g := false, 1
	for _, w := range strings.FieldsFunc(text, nonWord) {
		counts := !slices.Contains(duplicateIgnores[code], w) && utf8.RuneCountInString(w) >= 2 && !allDigits(w)
		switch {
		case counts && have && prev == w:
			g++
		case g > 1 && have:
			groups, words, g = append(groups, g), append(words, prev), 1
		}
		prev, have = w, true
	}
	if g > 1 && have {
		groups, words = append(groups, g), append(words, prev)
	}
	return groups, words
}

func allDigits(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}

// translatedCheck is Weblate's "Has been translated": a string emptied or
// needing editing that had another translation before.
var translatedCheck = check{id: "translated", name: "Has been translated", description: "This string has been translated in the past.",
	untranslated: true, run: func(u *Unit) string {
		if u.State >= stateTranslated || u.TranslatedTarget == "" || u.TranslatedTarget == strings.Join(u.Targets, "\x1e\x1e") {
			return ""
		}
		return fmt.Sprintf(`Previous translation was "%s".`, u.TranslatedTarget)
	}}
