package checks

import (
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// punctuationSpacing is Weblate's French "Punctuation spacing": a double
// punctuation sign (: ; ? !) needs a space before it, unless it sits in
// markup or a placeholder. Canadian French does not use it.
var punctuationSpacing = check{id: "punctuation_spacing", name: "Punctuation spacing",
	description: "Missing non breakable space before double punctuation sign.",
	skip:        func(u *Unit) bool { return !u.langIn("fr") || u.Lang == "fr_CA" },
	run: func(u *Unit) string {
		var found []rune
		u.pairs(func(_, t string) bool {
			for _, c := range missingSpaces(u, t) {
				if !slices.Contains(found, c) {
					found = append(found, c)
				}
			}
			return false
		})
		if len(found) == 0 {
			return ""
		}
		marks := make([]string, len(found))
		for i, c := range found {
			marks[i] = string(c)
		}
		if len(found) == 1 {
			return fmt.Sprintf("Missing non breakable space before punctuation mark %s.", marks[0])
		}
		return fmt.Sprintf("Missing non breakable space before punctuation marks %s.", strings.Join(marks, ", "))
	}}

// frenchPunctuation and frenchSpaces are the signs that need a space and
// the spaces that count (a plain one too: only a missing space is
// reported).
const (
	frenchPunctuation = ":;?!"
	frenchSpaces      = " \u00a0\u202f\u2009"
)

// missingSpaces are the signs of target lacking a space before them, in
// order, outside its highlighted spans.
func missingSpaces(u *Unit, target string) []rune {
	t := stripEntities(target)
	spans := highlightSpans(u, t)
	runes := []rune(t)
	var out []rune
	at := 0 // byte offset of runes[i]
	for i, c := range runes {
		pos := at
		at += utf8.RuneLen(c)
		if !strings.ContainsRune(frenchPunctuation, c) || inSpans(spans, pos) {
			continue
		}
		switch {
		case i == 0:
			out = append(out, c)
		case i+1 < len(runes) && !unicode.In(runes[i+1], unicode.Zs, unicode.Ps, unicode.Pe):
			// 10:30, http://, ?!
		case !strings.ContainsRune(frenchSpaces, runes[i-1]) && !strings.ContainsRune(frenchPunctuation, runes[i-1]):
			out = append(out, c)
		}
	}
	return out
}

func inSpans(spans [][2]int, pos int) bool {
	for _, sp := range spans {
		if pos >= sp[0] && pos < sp[1] {
			return true
		}
	}
	return false
}
