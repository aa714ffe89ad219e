package lang

import (
	"regexp"
	"sort"
	"strings"
)

// Language is one entry of the built-in language table.
type Language struct {
	Code          string   // canonical code, e.g. "pt_BR", "zh_Hans"
	Name          string   // English name
	Direction     string   // "ltr" or "rtl"
	PluralNumber  int      // number of plural forms of the default plural
	PluralFormula string   // gettext plural formula of the default plural
	PluralType    int      // Weblate plural type of that formula (Plural* constants)
	Aliases       []string // alias codes resolving to this language, sorted
	Population    int64    // number of speakers, 0 when unknown
}

// BaseCode is the part of the code before the first "_" or "-" ("pt" for "pt_BR").
func (l Language) BaseCode() string { return BaseCode(l.Code) }

// BaseCode returns the language part of a code, as Weblate's Language.base_code.
func BaseCode(code string) string {
	code = strings.ReplaceAll(code, "_", "-")
	base, _, _ := strings.Cut(code, "-")
	return base
}

var (
	byCode  = map[string]int{} // exact code -> index in table
	byLower = map[string]int{} // lower-case code -> index in table
	byName  = map[string]int{} // lower-case name -> index, -1 when ambiguous
)

func init() {
	for i := range table {
		l := &table[i]
		l.PluralType = PluralTypeFor(l.BaseCode(), l.PluralFormula)
		byCode[l.Code] = i
		byLower[strings.ToLower(l.Code)] = i
		name := strings.ToLower(l.Name)
		if _, dup := byName[name]; dup {
			byName[name] = -1
		} else {
			byName[name] = i
		}
	}
}

// All returns a copy of the table sorted by code.
func All() []Language {
	out := make([]Language, len(table))
	for i, l := range table {
		l.Aliases = append([]string(nil), l.Aliases...)
		out[i] = l
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Code < out[j].Code })
	return out
}

// Lookup finds a language by code the way Weblate's LanguageQuerySet.fuzzy_get
// does: exact code, then case-insensitive, "-" or "+" for "_" ("pt-BR",
// "pt_br", "zh-Hans"), four letters without separator ("ptbr"), the alias list
// ("zh_CN" -> zh_Hans, "nb" -> nb_NO, "iw" -> he), Android forms ("pt-rBR",
// "b+sr+Latn"), default countries ("de_DE" -> de, "en_US" -> en) and finally
// the English name ("German"). The bool is false when nothing matches.
func Lookup(code string) (Language, bool) {
	i, ok := find(code, 0)
	if !ok {
		return Language{}, false
	}
	l := table[i]
	l.Aliases = append([]string(nil), l.Aliases...)
	return l, true
}

var copySuffix = regexp.MustCompile(`\([0-9]+\)`)

// sanitize mirrors LanguageQuerySet.sanitize_code.
func sanitize(code string) string {
	code = strings.TrimPrefix(code, "b+")
	if len(code) == 6 && strings.Contains(code, "-r") {
		code = strings.ReplaceAll(code, "-r", "_")
	}
	code = copySuffix.ReplaceAllString(code, "")
	code = strings.NewReplacer(" ", "", "(", "", ")", "").Replace(code)
	return strings.Trim(code, ".")
}

func iexact(code string) (int, bool) {
	i, ok := byLower[strings.ToLower(code)]
	return i, ok
}

// find is fuzzy_get; depth stops the alias recursion of aliases_get.
func find(code string, depth int) (int, bool) {
	code = sanitize(code)
	if code == "" {
		return 0, false
	}
	if i, ok := byCode[code]; ok {
		return i, true
	}
	for _, c := range []string{code, strings.ReplaceAll(code, "-", "_"), strings.ReplaceAll(code, "+", "_")} {
		if i, ok := iexact(c); ok {
			return i, true
		}
	}
	expanded := ""
	if len(code) == 4 {
		expanded = strings.ToLower(code[:2] + "_" + code[2:])
		if i, ok := iexact(expanded); ok {
			return i, true
		}
	}
	if i, ok := aliasesGet(code, expanded, depth); ok {
		return i, true
	}
	lng, newcode := correctedCode(code)
	if i, ok := iexact(newcode); ok {
		return i, true
	}
	// SIMPLIFY_LANGUAGES (on by default): "de_DE" is plain German.
	if defaultCountries[strings.ToLower(newcode)] {
		if i, ok := byCode[strings.ToLower(lng)]; ok {
			return i, true
		}
	} else if expanded != "" && defaultCountries[expanded] {
		if i, ok := byCode[expanded[:2]]; ok {
			return i, true
		}
	}
	if i, ok := byName[strings.ToLower(code)]; ok && i >= 0 {
		return i, true
	}
	return 0, false
}

// aliasesGet mirrors LanguageQuerySet.aliases_get.
func aliasesGet(code, expanded string, depth int) (int, bool) {
	code = strings.ToLower(code)
	code = strings.ReplaceAll(code, "_latin", "@latin")
	code = strings.ReplaceAll(code, "_cyrillic", "@cyrillic")
	codes := []string{code}
	for _, r := range []string{"+", "-", "-r", "_r"} {
		if strings.Contains(code, r) {
			codes = append(codes, strings.ReplaceAll(code, r, "_"))
		}
	}
	if expanded != "" && expanded != code {
		codes = append(codes, expanded)
	}
	for _, c := range codes {
		if target, ok := aliasTable[c]; ok {
			if i, ok := byCode[target]; ok {
				return i, true
			}
		}
	}
	if depth > 0 {
		return 0, false
	}
	// An aliased three-letter language with a country: "deu_AT" -> "de_AT".
	for _, c := range codes {
		language, country, _ := strings.Cut(c, "_")
		target, ok := aliasTable[language]
		if country != "" && len(language) > 2 && ok && !strings.Contains(target, "_") {
			if i, ok := find(target+"_"+country, depth+1); ok {
				return i, true
			}
		}
	}
	return 0, false
}

var knownSuffixes = map[string]bool{"hant": true, "hans": true, "latn": true, "cyrl": true, "shaw": true}

// correctedCode mirrors parse_lang_country plus the "corrected code" step of
// fuzzy_get: language lower-case, region upper-case, scripts title-case and
// XLIFF-style variants ("sr_RS_latin") turned into "@" variants.
func correctedCode(code string) (lng, newcode string) {
	subtag, country := "", ""
	if pos := strings.Index(code, "-x-"); pos >= 0 {
		code, subtag = code[:pos], code[pos:]
	}
	hasCountry := true
	switch {
	case strings.Contains(code, "-"):
		lng, country, _ = strings.Cut(code, "-")
		if len(country) > 2 && country[0] == 'r' {
			country = country[1:]
		}
	case strings.Contains(code, "_"):
		lng, country, _ = strings.Cut(code, "_")
	case strings.Contains(code, "+"):
		lng, country, _ = strings.Cut(code, "+")
	default:
		lng, hasCountry = code, false
	}
	if !hasCountry {
		return lng, strings.ToLower(lng) + subtag
	}
	switch {
	case strings.Contains(country, "@"):
		region, variant, _ := strings.Cut(country, "@")
		country = strings.ToUpper(region) + "@" + strings.ToLower(variant)
	case strings.Contains(country, "_"):
		region, variant, _ := strings.Cut(country, "_")
		country = strings.ToUpper(region) + "@" + strings.ToLower(variant)
	case knownSuffixes[country]:
		country = strings.ToUpper(country[:1]) + country[1:]
	default:
		country = strings.ToUpper(country)
	}
	return lng, strings.ToLower(lng) + "_" + country + subtag
}
