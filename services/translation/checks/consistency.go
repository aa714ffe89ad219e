package checks

import "strings"

// Copy is another component's copy of a string: a string of the same
// project, language, plural rule and source language with the same
// source and context, in a component that takes propagated translations
// (Weblate's propagated_units).
type Copy struct {
	Target     string // plural forms joined as stored
	Translated bool   // state at least translated (read-only included)
}

// inconsistentCheck is Weblate's "Inconsistent": the string's copies in
// the project's other components are translated differently, or one of
// them is translated where this one is not. A translated string fails
// when any copy differs, even an untranslated one; an untranslated one
// only when a translated copy differs. Copies is nil when the component
// does not take propagated translations, which switches the check off.
var inconsistentCheck = check{id: "inconsistent", name: "Inconsistent",
	description:  "This string has more than one translation in this project or is untranslated in some components.",
	untranslated: true, run: func(u *Unit) string {
		if inconsistent(u.rawTarget, u.State >= stateTranslated, u.Copies) {
			return "This string has more than one translation in this project or is untranslated in some components."
		}
		return ""
	}}

// inconsistent is the rule of inconsistentCheck for a string of target
// (translated or not) and its copies.
func inconsistent(target string, translated bool, copies []Copy) bool {
	for _, c := range copies {
		if c.Target != target && (translated || c.Translated) {
			return true
		}
	}
	return false
}

// Inconsistent reports whether a string of target, translated or not, is
// inconsistent with its copies, and whether its flags let the check run
// (flags: the string's, merged): the store's test for copies it does not
// run every check on.
func Inconsistent(target string, state int, flags Flags, copies []Copy) bool {
	if state == stateReadOnly || flags.Has("ignore-all-checks") || flags.Has(inconsistentCheck.ignoreFlag()) {
		return false
	}
	return inconsistent(target, state >= stateTranslated, copies)
}

// Ignores reports whether flags (the component's, merged) switch check
// id off for every string.
func Ignores(flags Flags, id string) bool {
	return flags.Has("ignore-all-checks") || flags.Has("ignore-"+strings.ReplaceAll(id, "_", "-"))
}
