package lang

import (
	"regexp"

	"github.com/tmsproject/tms/pkg/errs"
)

// Plural sources, as Weblate's Plural.source.
const (
	SourceDefault  = 0 // the built-in rule of the language
	SourceGettext  = 1 // read from a file's Plural-Forms header
	SourceCLDRZero = 3 // the default with a form for zero (stringsdict)
)

// Rule is a stored plural rule: a language's default (its ID is the
// language's) or another plural of the language.
type Rule struct {
	ID      int64
	Source  int32
	Number  int32
	Formula string
	Type    int32
}

// saneCode is what a language code met in a file name must look like to be
// created on the fly: a two- or three-letter base, then suffixes joined by
// "_", "-" or "@" ("sr_Latn", "ca@valencia").
var saneCode = regexp.MustCompile(`^[A-Za-z]{2,3}([_@-][A-Za-z0-9]+)*$`)

// SaneCode tells whether code may name a language made on the fly or by
// hand.
func SaneCode(code string) bool { return saneCode.MatchString(code) }

// FileLanguage is the default rule of a language unknown to the built-in
// table, made of a code met in a file and the file's rule (none: 0 and
// ""). The catalog stores it; the translation service reads files with it
// until the catalog's copy arrives. A code no language can be made of, or
// a rule that is not one, is InvalidArgument on "code", "plural_number"
// or "plural_formula".
func FileLanguage(code string, number int32, formula string) (Rule, error) {
	if !SaneCode(code) || len(code) > 50 {
		return Rule{}, errs.Invalid("code", "invalid", "Invalid language code.")
	}
	r := Rule{Source: SourceDefault, Number: 2, Formula: "n != 1"}
	if number != 0 || formula != "" {
		if number < 1 || number > 10 {
			return r, errs.Invalid("plural_number", "invalid", "Invalid number of plurals.")
		}
		if _, err := CompilePlural(formula); err != nil {
			return r, errs.Invalid("plural_formula", "invalid", "Invalid plural formula.")
		}
		r.Source, r.Number, r.Formula = SourceGettext, number, formula
	}
	r.Type = int32(PluralTypeFor(BaseCode(code), r.Formula)) //nolint:gosec // G115: an enumeration
	return r, nil
}

// PickPlural is the plural of the language code (default rule def, other
// stored rules known in id order) that a file's rule is: a rule spelled
// as one of the language's known spellings (gettext's, CLDR's, the
// localization guide's, Qt's) is that spelling's plural, so the file
// keeps it; else the default when the file has none or the same one
// however spelled (so the default's spelling is written back), else the
// first stored rule that is the same, else the file's rule as the
// language's new plural (isNew; its ID is 0 until stored), written back as
// the file spells it. A rule that does not compile is the default's
// business: the file is read with the language's rule.
func PickPlural(code string, def Rule, known []Rule, number int, formula string) (r Rule, isNew bool) {
	if number == 0 && formula == "" {
		return def, false
	}
	if _, err := CompilePlural(formula); err != nil || number < 1 || number > 10 {
		return def, false
	}
	spelling, spelled := KnownSpelling(code, number, formula)
	if formula == def.Formula || !spelled && SamePlural(int(def.Number), def.Formula, number, formula) {
		return def, false
	}
	for _, k := range known { // the file's own spelling first
		if k.Formula == formula && int(k.Number) == number {
			return k, false
		}
	}
	for _, k := range known {
		if !spelled && SamePlural(int(k.Number), k.Formula, number, formula) {
			return k, false
		}
	}
	source := newSource(def, number, formula)
	if spelled {
		source = int32(spelling.Source) //nolint:gosec // G115: a Weblate plural source, 1 to 6
	}
	return Rule{Source: source, Number: int32(number), Formula: formula, //nolint:gosec // G115: a count checked above (1 to 10)
		Type: int32(PluralTypeFor(BaseCode(code), formula))}, true //nolint:gosec // G115: an enumeration
}

// newSource is the source of a new plural: Weblate's "CLDR plural with
// zero" when the rule is the default with a form for zero (as a
// stringsdict translation asks for it), else a file's gettext rule.
func newSource(def Rule, number int, formula string) int32 {
	n, f, changed := WithZero(int(def.Number), def.Formula, int(def.Type))
	if changed && SamePlural(n, f, number, formula) {
		return SourceCLDRZero
	}
	return SourceGettext
}
