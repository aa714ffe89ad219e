package yaml

import (
	"math/big"
	"regexp"
	"strings"

	"github.com/tmsproject/tms/pkg/lang"
)

// The implicit types of ruamel.yaml's YAML 1.2 resolver (the round-trip
// loader translate-toolkit uses): what a plain scalar is read as.
var (
	reBool  = regexp.MustCompile(`^(?:true|True|TRUE|false|False|FALSE)$`)
	reInt   = regexp.MustCompile(`^(?:[-+]?0b[0-1_]+|[-+]?0o?[0-7_]+|[-+]?[0-9_]+|[-+]?0x[0-9a-fA-F_]+)$`)
	reFloat = regexp.MustCompile(`^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+]?[0-9]+)?|[-+]?(?:[0-9][0-9_]*)(?:[eE][-+]?[0-9]+)|\.[0-9_]+(?:[eE][-+][0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$`)
	reNull  = regexp.MustCompile(`^(?:~|null|Null|NULL|)$`)
	reTime  = regexp.MustCompile(`^(?:[0-9]{4}-[0-9]{2}-[0-9]{2}|[0-9]{4}-[0-9]{1,2}-[0-9]{1,2}(?:[Tt]|[ \t]+)[0-9]{1,2}:[0-9]{2}:[0-9]{2}(?:\.[0-9]*)?(?:[ \t]*(?:Z|[-+][0-9]{1,2}(?::[0-9]{2})?))?)$`)
	reOther = regexp.MustCompile(`^(?:<<|=)$`) // merge key and value indicator
)

type kind int

const (
	kString kind = iota
	kNull
	kBool
	kInt
	kFloat
	kTime
	kOther
)

// resolvePlain is the type ruamel gives a plain scalar.
func resolvePlain(s string) kind {
	switch {
	case reNull.MatchString(s):
		return kNull
	case reBool.MatchString(s):
		return kBool
	case reInt.MatchString(s):
		return kInt
	case reFloat.MatchString(s):
		return kFloat
	case reTime.MatchString(s):
		return kTime
	case reOther.MatchString(s):
		return kOther
	}
	return kString
}

// resolvesToString reports whether s written plain reads back as a
// string: only then does ruamel write a string plain.
func resolvesToString(s string) bool { return resolvePlain(s) == kString }

// pythonText is str() of the value ruamel constructs for a bool or an int
// scalar, the text translate-toolkit gives the unit: "True", "False", the
// integer in decimal.
func pythonText(s string, k kind) string {
	if k == kBool {
		if strings.EqualFold(s, "true") {
			return "True"
		}
		return "False"
	}
	t := strings.ReplaceAll(s, "_", "")
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimLeft(t, "+-")
	base := 10
	switch {
	case strings.HasPrefix(t, "0b"):
		base, t = 2, t[2:]
	case strings.HasPrefix(t, "0o"):
		base, t = 8, t[2:]
	case strings.HasPrefix(t, "0x"):
		base, t = 16, t[2:]
	}
	n, ok := new(big.Int).SetString(t, base)
	if !ok {
		n = new(big.Int)
	}
	if neg {
		n.Neg(n)
	}
	return n.String()
}

// ttkitNames are the plural category names translate-toolkit's table
// (translate.lang.data.plural_tags) gives where they differ from the
// service's for the same number of forms in the same order: the form for
// "5 and more" is "other" in Rails files of these languages, not "many"
// (which CLDR keeps for fractions).
var ttkitNames = map[string][]string{
	"bs": {"one", "few", "other"}, "cnr": {"one", "few", "other"}, "cs": {"one", "few", "other"},
	"hr": {"one", "few", "other"}, "lt": {"one", "few", "other"}, "sk": {"one", "few", "other"},
	"sr": {"one", "few", "other"},
}

// pluralTags are the keys of the forms of a plural unit of language code.
func pluralTags(code string) []string {
	tags := lang.PluralTags(code)
	b, _, _ := strings.Cut(strings.ReplaceAll(code, "-", "_"), "_")
	if tt, ok := ttkitNames[b]; ok && len(tt) == len(tags) {
		return tt
	}
	return tags
}
