package lang

import (
	"errors"
	"regexp"
	"strconv"
	"strings"
)

// pluralForms is Weblate's PLURAL_RE; like Python's re.match it is anchored
// at the start only, and the formula stops at the first character a plural
// formula cannot contain (normally the ';').
var pluralForms = regexp.MustCompile(`^\s*nplurals\s*=\s*([0-9]+)\s*;\s*plural\s*=\s*([()n0-9!=|&<>+*/%\s?:-]+)`)

// ErrPluralForms is returned by ParsePluralForms for a header it cannot read.
var ErrPluralForms = errors.New("could not parse plural forms")

// ParsePluralForms reads the value of a PO "Plural-Forms" header, for example
// "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;", into the number
// of forms and the formula (without the trailing ';' and surrounding blanks).
// An empty formula becomes "0"; a formula that does not compile is an error,
// as in Weblate's Plural.parse_plural_forms.
func ParsePluralForms(header string) (n int, formula string, err error) {
	m := pluralForms.FindStringSubmatch(header)
	if m == nil {
		return 0, "", ErrPluralForms
	}
	n, err = strconv.Atoi(m[1])
	if err != nil {
		return 0, "", ErrPluralForms
	}
	formula = strings.TrimSpace(m[2])
	if formula == "" {
		formula = "0"
	}
	if _, err := CompilePlural(formula); err != nil {
		return 0, "", err
	}
	return n, formula, nil
}

// PluralTypeFor is Weblate's get_plural_type(base_code, formula): "0" is
// PluralNone; a formula listed in Weblate's tables (compared with spaces
// removed) gives that table's type; an unlisted formula is PluralArabic for
// base code "ar", else the type of the first listed formula that selects the
// same forms for n in -10..199 and 10^3..10^7; PluralUnknown otherwise.
// An empty formula is treated as "0".
func PluralTypeFor(baseCode, formula string) int {
	formula = strings.TrimSuffix(formula, ";")
	if formula == "" || formula == "0" {
		return PluralNone
	}
	if t, ok := pluralByFormula[strings.ReplaceAll(formula, " ", "")]; ok {
		return t
	}
	if baseCode == "ar" {
		return PluralArabic
	}
	ours, err := CompilePlural(formula)
	if err != nil {
		return PluralUnknown
	}
	for _, m := range pluralMappings {
		for _, f := range m.formulas {
			if sameResults(ours, compiledMapping[f]) {
				return m.typ
			}
		}
	}
	return PluralUnknown
}

// Built as package variables (not in init) so that the language table's
// init in lang.go can already classify formulas.
var pluralByFormula, compiledMapping = buildMappingIndex()

func buildMappingIndex() (map[string]int, map[string]*PluralExpr) {
	byFormula := map[string]int{}
	compiled := map[string]*PluralExpr{}
	for _, m := range pluralMappings {
		for _, f := range m.formulas {
			key := strings.ReplaceAll(f, " ", "")
			if _, seen := byFormula[key]; !seen {
				byFormula[key] = m.typ // the first table listing a formula wins
			}
			expr, err := CompilePlural(f)
			if err != nil {
				panic("lang: bad built-in plural formula " + f + ": " + err.Error())
			}
			compiled[f] = expr
		}
	}
	return byFormula, compiled
}

// sampleNumbers are the n values Weblate's is_same_plural compares.
var sampleNumbers = func() []int64 {
	var out []int64
	for i := int64(-10); i < 200; i++ {
		out = append(out, i)
	}
	return append(out, 1000, 10000, 100000, 1000000, 10000000)
}()

func sameResults(a, b *PluralExpr) bool {
	for _, n := range sampleNumbers {
		x, err1 := a.Eval(n)
		y, err2 := b.Eval(n)
		if err1 != nil || err2 != nil || x != y {
			return false
		}
	}
	return true
}

// SamePlural is Weblate's is_same_plural: two plural rules are the same when
// they have as many forms and their formulas pick the same form for every n
// in -10..199 (so "(n != 1)" is "n != 1", and "n%10==1 && n%100!=11 ? 0 : 1"
// matches however it is parenthesised). A formula that does not compile or
// fails to evaluate matches nothing.
func SamePlural(n1 int, f1 string, n2 int, f2 string) bool {
	if n1 != n2 || f1 == "" || f2 == "" {
		return false
	}
	if strings.ReplaceAll(f1, " ", "") == strings.ReplaceAll(f2, " ", "") {
		return true
	}
	a, err := CompilePlural(f1)
	if err != nil {
		return false
	}
	b, err := CompilePlural(f2)
	if err != nil {
		return false
	}
	for n := int64(-10); n < 200; n++ {
		x, err1 := a.Eval(n)
		y, err2 := b.Eval(n)
		if err1 != nil || err2 != nil || x != y {
			return false
		}
	}
	return true
}

// pluralTags are the CLDR plural categories of each plural type, in the
// order of the formula's form indexes (the order of a unit's forms).
var pluralTags = map[int][]string{
	PluralNone:                   {"other"},
	PluralOneOther:               {"one", "other"},
	PluralOneFewOther:            {"one", "few", "other"},
	PluralArabic:                 {"zero", "one", "two", "few", "many", "other"},
	PluralOneTwoOther:            {"one", "two", "other"},
	PluralOneTwoThreeOther:       {"one", "two", "few", "other"},
	PluralOneTwoFewOther:         {"one", "two", "few", "other"},
	PluralOneOtherZero:           {"one", "other", "zero"},
	PluralOneFewManyOther:        {"one", "few", "many", "other"},
	PluralTwoOther:               {"two", "other"},
	PluralOneTwoFewManyOther:     {"one", "two", "few", "many", "other"},
	PluralZeroOneOther:           {"zero", "one", "other"},
	PluralZeroOneTwoFewManyOther: {"zero", "one", "two", "few", "many", "other"},
	PluralOtherOneTwoFew:         {"other", "one", "two", "few"},
	PluralOneOtherTwo:            {"one", "other", "two"},
	PluralZeroOther:              {"zero", "other"},
	PluralZeroOneFewOther:        {"zero", "one", "few", "other"},
	PluralZeroOneTwoFewOther:     {"zero", "one", "two", "few", "other"},
	PluralZeroOneTwoOther:        {"zero", "one", "two", "other"},
	PluralZeroOneFewManyOther:    {"zero", "one", "few", "many", "other"},
	PluralOneManyOther:           {"one", "many", "other"},
	PluralZeroOneManyOther:       {"zero", "one", "many", "other"},
	PluralOneFewMany:             {"one", "few", "many"},
	PluralOneZeroFewOther:        {"one", "zero", "few", "other"},
}

// languageTags name the forms of languages whose plural type shares its
// form count with languages that name them otherwise: the third form of
// Czech, Slovak, Lithuanian and the Serbo-Croatian languages is CLDR's
// "other" (their "many", where CLDR has one, is for fractions), where
// Russian's is "many"; Hebrew's third is "many". These are the categories
// an integer selects (i18next's Intl.PluralRules, Android) and the ones
// translate-toolkit writes (translate.lang.data.plural_tags): a Czech
// "_many" key would never be read for 5.
var languageTags = map[string][]string{
	"cs": {"one", "few", "other"}, "sk": {"one", "few", "other"}, "lt": {"one", "few", "other"},
	"hr": {"one", "few", "other"}, "sr": {"one", "few", "other"}, "bs": {"one", "few", "other"},
	"sh": {"one", "few", "other"}, "me": {"one", "few", "other"}, "cnr": {"one", "few", "other"},
	"he": {"one", "two", "many", "other"}, "iw": {"one", "two", "many", "other"},
}

// CLDRCategories are the CLDR plural categories in CLDR's order.
var CLDRCategories = []string{"zero", "one", "two", "few", "many", "other"}

// PluralTags are the CLDR plural categories of the forms of a language's
// default plural, in form order ("one", "other" for English): the suffixes
// of i18next v4 keys and the cases of go-i18n. Codes the table lacks get
// English's.
func PluralTags(code string) []string {
	l, ok := Lookup(code)
	if !ok {
		return pluralTags[PluralOneOther]
	}
	base, _, _ := strings.Cut(l.BaseCode(), "@") // "sr" of "sr@latin" too
	if tags, ok := languageTags[base]; ok && len(tags) == l.PluralNumber {
		return tags
	}
	if tags, ok := pluralTags[l.PluralType]; ok && len(tags) == l.PluralNumber {
		return tags
	}
	return CLDRCategories[len(CLDRCategories)-min(l.PluralNumber, len(CLDRCategories)):]
}
