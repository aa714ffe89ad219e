package lang

import (
	"embed"
	"encoding/csv"
	"strconv"
	"strings"
	"sync"
)

// Where a spelling of a plural rule comes from: Weblate's Plural sources.
const (
	SpellingGettext = 1 // gettext's own table (and the l10n guide's)
	SpellingCLDR    = 4 // the CLDR rule, written as a C expression
	SpellingQt      = 6 // Qt Linguist's table
)

//go:embed data/gettext.csv data/cldr.csv data/l10n-guide.csv data/qt.csv
var spellingFiles embed.FS

// Spelling is one way a language's plural rule is written.
type Spelling struct {
	Source  int
	Number  int
	Formula string
}

var (
	spellingsOnce sync.Once
	spellings     map[string][]Spelling // by language code
)

// loadSpellings reads the vendored tables (code,name,nplurals,formula).
func loadSpellings() {
	spellings = map[string][]Spelling{}
	for _, f := range []struct {
		name   string
		source int
	}{{"data/gettext.csv", SpellingGettext}, {"data/cldr.csv", SpellingCLDR}, {"data/l10n-guide.csv", SpellingGettext}, {"data/qt.csv", SpellingQt}} {
		data, err := spellingFiles.ReadFile(f.name)
		if err != nil {
			panic(err) // embedded: cannot happen
		}
		rows, err := csv.NewReader(strings.NewReader(string(data))).ReadAll()
		if err != nil {
			panic(f.name + ": " + err.Error())
		}
		for _, r := range rows[1:] {
			if len(r) < 4 {
				continue
			}
			n, err := strconv.Atoi(r[2])
			if err != nil {
				continue
			}
			spellings[r[0]] = append(spellings[r[0]], Spelling{Source: f.source, Number: n, Formula: r[3]})
		}
	}
}

// KnownSpelling reports whether formula, with number forms, is written
// exactly as one of the language's rules is spelled in gettext's, CLDR's,
// the localization guide's or Qt's tables, and that spelling's source. A PO
// file spelling its rule so keeps that spelling when it is written back,
// as Weblate keeps it (it stores each spelling as a plural of the
// language).
func KnownSpelling(code string, number int, formula string) (Spelling, bool) {
	spellingsOnce.Do(loadSpellings)
	formula = strings.TrimSpace(formula)
	for _, s := range spellings[code] {
		if s.Number == number && s.Formula == formula {
			return s, true
		}
	}
	return Spelling{}, false
}
