package checks

import (
	"slices"
	"strings"
	"sync"

	"github.com/tmsproject/tms/pkg/lang"
)

// Weblate's unit states the checks look at.
const (
	stateEmpty      = 0
	stateTranslated = 20
	stateReadOnly   = 100
)

// Plural is a plural rule: its number of forms and its formula.
type Plural struct {
	Number  int
	Formula string
}

// Unit is what the checks read of a translated string.
type Unit struct {
	Sources, Targets []string // plural forms
	// Lang is the translation's language code (pt_BR, sr@latin) and
	// SourceLang the component's source language code.
	Lang, SourceLang string
	// SourcePlural and TargetPlural are the two languages' plurals.
	SourcePlural, TargetPlural Plural
	State                      int
	Flags                      Flags
	// Note is the string's note in the file (the same check skips some
	// DocBook tags it names).
	Note string
	// Names are the project's and component's names, whose words the same
	// check ignores.
	Names []string
	// TranslatedTarget is the target the string had while translated,
	// kept since it was emptied or needs editing (the translated check).
	TranslatedTarget string
	// Copies are the string's copies in the project's other components
	// (the inconsistent check), nil when its component takes no
	// propagated translations.
	Copies    []Copy
	base      string // of Lang
	rawTarget string // Targets joined as stored, before adjustPlurals
}

// Failure is a check that fails, with what is wrong.
type Failure struct {
	ID      string
	Message string
}

// check is one of Weblate's checks.
type check struct {
	id, name, description string
	// enable is the flag that turns the check on; "" when it is on by default.
	enable string
	// skip reports a language (or format) the check does not apply to.
	skip func(u *Unit) bool
	// run returns "" when the unit passes, else what is wrong (the
	// description, or a detail).
	run func(u *Unit) string
	// syntax is a format check's placeholders, which other checks treat
	// as highlighted (Weblate's check_highlight).
	syntax *formatSyntax
	// alsoEnable are more flags that turn the check on.
	alsoEnable []string
	// untranslated: the check also runs on strings not translated
	// (Weblate's ignore_untranslated off).
	untranslated bool
}

// enabled reports whether c runs on u as far as flags and language go.
func (c check) enabled(u *Unit) bool {
	return !u.Flags.Has(c.ignoreFlag()) && !u.Flags.Has("ignore-all-checks") &&
		(c.enable == "" || u.Flags.Has(c.enable) || slices.ContainsFunc(c.alsoEnable, u.Flags.Has)) && (c.skip == nil || !c.skip(u))
}

// ignoreFlags are Weblate's flags that switch each check off, by id.
var ignoreFlags = map[string]string{}

func init() {
	for _, c := range registry {
		ignoreFlags[c.id] = "ignore-" + strings.ReplaceAll(c.id, "_", "-")
	}
}

// ignoreFlag is Weblate's flag that switches a check off.
func (c check) ignoreFlag() string { return ignoreFlags[c.id] }

// Run runs every check that applies to u, in Weblate's order, and returns
// the failing ones. A read-only unit is not checked, an empty one only by
// the checks that look at untranslated strings.
func Run(u Unit) []Failure {
	if u.State == stateReadOnly {
		return nil
	}
	u.rawTarget = strings.Join(u.Targets, "\x1e\x1e")
	u.Targets = adjustPlurals(u.Sources, u.Targets, u.TargetPlural.Number)
	u.base = baseCode(u.Lang)
	var out []Failure
	for _, c := range registry {
		if (u.State == stateEmpty && !c.untranslated) || !c.enabled(&u) {
			continue
		}
		if msg := c.run(&u); msg != "" {
			out = append(out, Failure{ID: c.id, Message: msg})
		}
	}
	return out
}

// Name is the human name of a check id, "" for an unknown one.
func Name(id string) string {
	for _, c := range registry {
		if c.id == id {
			return c.name
		}
	}
	return ""
}

// Description is what a check reports of a failure, "" for an unknown id.
func Description(id string) string {
	for _, c := range registry {
		if c.id == id {
			return c.description
		}
	}
	return ""
}

// IDs are the ids of the implemented checks, in Weblate's order.
func IDs() []string {
	out := make([]string, len(registry))
	for i, c := range registry {
		out[i] = c.id
	}
	return out
}

// adjustPlurals is Weblate's adjust_plurals: a string that is not plural
// has one target; a plural one as many as the language has forms.
func adjustPlurals(sources, targets []string, n int) []string {
	if len(targets) == 0 {
		targets = []string{""}
	}
	if len(sources) <= 1 && len(targets) <= 1 {
		return targets[:1]
	}
	if n <= 0 {
		return targets
	}
	out := make([]string, n)
	copy(out, targets)
	return out
}

// baseCode is Weblate's base_code: the code before the first _ or -
// (an @variant stays: sr@latin is not sr).
func baseCode(code string) string {
	code = strings.ReplaceAll(code, "_", "-")
	b, _, _ := strings.Cut(code, "-")
	return b
}

func (u *Unit) langIn(codes ...string) bool {
	for _, c := range codes {
		if u.base == c {
			return true
		}
	}
	return false
}

func (u *Unit) cjk() bool { return u.langIn("ja", "zh", "ko") }

// pairs calls fn with each (source, target) pair as Weblate's
// check_target_generator pairs plural forms; true when fn is for any.
func (u *Unit) pairs(fn func(source, target string) bool) bool {
	s, t := u.Sources, u.Targets
	if len(s) == 1 && len(t) == 1 {
		return fn(s[0], t[0])
	}
	if len(s) == 0 {
		return false
	}
	if len(s) != u.SourcePlural.Number || len(t) != u.TargetPlural.Number {
		for _, tt := range t {
			if fn(s[len(s)-1], tt) {
				return true
			}
		}
		return false
	}
	m := sourceIndexes(u.SourcePlural, u.TargetPlural)
	for j, tt := range t {
		i := m[j]
		if i < 0 || i >= len(s) {
			i = len(s) - 1
		}
		if fn(s[i], tt) {
			return true
		}
	}
	return false
}

// single is a check of one source and one target form, run on every pair.
func single(fn func(u *Unit, source, target string) bool) func(u *Unit) string {
	return func(u *Unit) string {
		if u.pairs(func(s, t string) bool { return fn(u, s, t) }) {
			return "fail"
		}
		return ""
	}
}

// pluralExamples are the examples of each plural met, computed once.
var pluralExamples sync.Map // Plural → exampleSet

type exampleSet struct {
	forms [][]int64
	more  []bool
}

// examples are Weblate's plural examples: for each form, its first ten
// numbers (0–9999, then every thousand up to 2,000,000), and whether it
// has more. They are computed once per plural.
func examples(p Plural) ([][]int64, []bool) {
	if v, ok := pluralExamples.Load(p); ok {
		e := v.(exampleSet)
		return e.forms, e.more
	}
	forms, more := computeExamples(p)
	pluralExamples.Store(p, exampleSet{forms, more})
	return forms, more
}

func computeExamples(p Plural) ([][]int64, []bool) {
	forms := make([][]int64, max(p.Number, 1))
	more := make([]bool, len(forms))
	expr, err := lang.CompilePlural(p.Formula)
	if err != nil {
		return forms, more
	}
	add := func(n int64) {
		f, err := expr.Eval(n)
		if err != nil || f < 0 || int(f) >= len(forms) {
			return
		}
		if len(forms[f]) < 10 {
			forms[f] = append(forms[f], n)
		} else {
			more[f] = true
		}
	}
	for n := int64(0); n < 10000; n++ {
		add(n)
	}
	for n := int64(10000); n <= 2000000; n += 1000 {
		add(n)
	}
	return forms, more
}

// pluralMaps are the source indexes of each pair of plurals met.
var pluralMaps sync.Map // [2]Plural → []int

// sourceIndexes is Weblate's PluralMapper: for each target form, the
// source form it is checked against (-1: the last), computed once per
// pair of plurals.
func sourceIndexes(sp, tp Plural) []int {
	key := [2]Plural{sp, tp}
	if v, ok := pluralMaps.Load(key); ok {
		return v.([]int)
	}
	out := mapPlurals(sp, tp)
	pluralMaps.Store(key, out)
	return out
}

func mapPlurals(sp, tp Plural) []int {
	out := make([]int, tp.Number)
	if samePlural(sp, tp) {
		for j := range out {
			out[j] = j
		}
		return out
	}
	sEx, sMore := examples(sp)
	exact, all := map[int64]int{}, map[int64]int{}
	for i, ex := range sEx {
		if len(ex) == 1 && !sMore[i] {
			exact[ex[0]] = i
		} else {
			for _, n := range ex {
				all[n] = i
			}
		}
	}
	tEx, tMore := examples(tp)
	for j := range out {
		out[j] = -1
		ex := tEx[min(j, len(tEx)-1)]
		switch {
		case len(ex) == 1 && !tMore[j]:
			if i, ok := exact[ex[0]]; ok {
				out[j] = i
			} else if i, ok := all[ex[0]]; ok {
				out[j] = i
			}
		case j == tp.Number-1:
		default:
			seen := map[int]bool{}
			for _, n := range ex {
				if i, ok := all[n]; ok {
					seen[i] = true
				}
			}
			if len(seen) == 1 {
				for i := range seen {
					out[j] = i
				}
			}
		}
	}
	return out
}

// samePlural is Weblate's Plural.same_as.
func samePlural(a, b Plural) bool {
	if a.Number != b.Number {
		return false
	}
	if a.Formula == b.Formula {
		return true
	}
	ea, err1 := lang.CompilePlural(a.Formula)
	eb, err2 := lang.CompilePlural(b.Formula)
	if err1 != nil || err2 != nil {
		return false
	}
	ns := []int64{1000, 10000, 100000, 1000000, 10000000}
	for n := int64(-10); n < 200; n++ {
		ns = append(ns, n)
	}
	for _, n := range ns {
		x, _ := ea.Eval(n)
		y, _ := eb.Eval(n)
		if x != y {
			return false
		}
	}
	return true
}
