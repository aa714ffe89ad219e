// Package checks runs Weblate's translation quality checks on a string:
// each check under Weblate's id (the id `check:` searches take), with its
// rules, its per-language exceptions and its handling of plural forms,
// gated by the unit's flags (parsed and merged as Weblate parses them, see
// flags.go). It is pure: the store decides when to run it and keeps the
// results.
//
// Implemented: the whitespace and newline checks, the punctuation checks,
// max-length and max-lines, multiple_capital, kashida, plurals,
// same-plurals and the C, Python and Python brace format checks. Not yet:
// same (it needs Weblate's word and language-name lists), the other
// format checks, markup, placeholders, regex, duplicate, inconsistent,
// translated; max-size (font rendering) and glossary checks are left out.
package checks
