package lang

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/tmsproject/tms/pkg/corpus"
)

func TestLookup(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"en", "en"},
		{"cs", "cs"},
		{"pt_BR", "pt_BR"},
		{"pt-BR", "pt_BR"},
		{"pt_br", "pt_BR"},
		{"PT-br", "pt_BR"},
		{"ptbr", "pt_BR"},
		{"pt-rBR", "pt_BR"},
		{"zh_Hans", "zh_Hans"},
		{"zh-hans", "zh_Hans"},
		{"zh_CN", "zh_Hans"},
		{"zh-TW", "zh_Hant"},
		{"nb", "nb_NO"},
		{"iw", "he"},
		{"de_DE", "de"},
		{"de-DE", "de"},
		{"b+sr+Latn", "sr_Latn"},
		{"sr@latin", "sr_Latn"},
		{"en_GB", "en_GB"},
		{"ca@valencia", "ca@valencia"},
		{"cs (2)", "cs"},
		{"German", "de"},
		{"eng", "en"},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, ok := Lookup(tt.in)
			if !ok || got.Code != tt.want {
				t.Errorf("Lookup(%q) = %q, %v; want %q", tt.in, got.Code, ok, tt.want)
			}
		})
	}
	for _, bad := range []string{"", "xx", "qqq_ZZ", "not a language"} {
		if got, ok := Lookup(bad); ok {
			t.Errorf("Lookup(%q) found %q", bad, got.Code)
		}
	}
}

func TestLanguageFields(t *testing.T) {
	tests := []struct {
		code, name, dir string
		nplurals, typ   int
		formula         string
	}{
		{"en", "English", "ltr", 2, PluralOneOther, "n != 1"},
		{"ar", "Arabic", "rtl", 6, PluralZeroOneTwoFewManyOther, ""},
		{"he", "Hebrew", "rtl", 4, PluralOneTwoFewOther, ""},
		{"cs", "Czech", "ltr", 3, PluralOneFewMany, "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2"},
		{"ja", "Japanese", "ltr", 1, PluralNone, "0"},
		{"fa", "Persian", "rtl", 2, PluralOneOther, ""},
		{"yi", "Yiddish", "rtl", 2, PluralOneOther, ""},
	}
	for _, tt := range tests {
		l, ok := Lookup(tt.code)
		if !ok {
			t.Fatalf("%s missing", tt.code)
		}
		if l.Name != tt.name || l.Direction != tt.dir || l.PluralNumber != tt.nplurals || l.PluralType != tt.typ {
			t.Errorf("%s = %+v", tt.code, l)
		}
		if tt.formula != "" && l.PluralFormula != tt.formula {
			t.Errorf("%s formula %q, want %q", tt.code, l.PluralFormula, tt.formula)
		}
	}
	en, _ := Lookup("en")
	if en.Population < 1_000_000_000 {
		t.Errorf("English population %d looks wrong", en.Population)
	}
	if !contains(en.Aliases, "eng") || !contains(en.Aliases, "en_us") {
		t.Errorf("English aliases %v", en.Aliases)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func TestAll(t *testing.T) {
	all := All()
	if len(all) < 100 {
		t.Fatalf("only %d languages", len(all))
	}
	if !sort.SliceIsSorted(all, func(i, j int) bool { return all[i].Code < all[j].Code }) {
		t.Error("All is not sorted by code")
	}
	seen := map[string]bool{}
	unknown := 0
	for _, l := range all {
		if seen[strings.ToLower(l.Code)] {
			t.Errorf("duplicate code %s", l.Code)
		}
		seen[strings.ToLower(l.Code)] = true
		if l.Name == "" || (l.Direction != "ltr" && l.Direction != "rtl") || l.PluralNumber < 1 {
			t.Errorf("bad entry %+v", l)
		}
		if _, err := CompilePlural(l.PluralFormula); err != nil {
			t.Errorf("%s: formula %q: %v", l.Code, l.PluralFormula, err)
		}
		if l.PluralType == PluralUnknown {
			unknown++
		}
	}
	// Weblate itself cannot classify Samogitian's formula; nothing else.
	if unknown > 1 {
		t.Errorf("%d languages with unknown plural type", unknown)
	}
	all[0].Aliases = append(all[0].Aliases, "mutated")
	if contains(All()[0].Aliases, "mutated") {
		t.Error("All exposes the table")
	}
}

// corpusLanguages are the PO files of the bleachbit corpus; the list is fixed
// here so the test does not depend on /work/shared.
var corpusLanguages = strings.Fields(`af ar ast be bg bn bs ca cs da de el en en_AU en_CA en_GB
	eo es et eu fa fi fr ga gl he hi hr hu id it ja ka kk ko lt lv ms my nb nl pl pt pt_BR ro ru
	si sk sl sq sr sv ta te th tr uk uz vi yi zh_CN zh_TW`)

func TestCorpusLanguagesPresent(t *testing.T) {
	for _, code := range corpusLanguages {
		if _, ok := Lookup(code); !ok {
			t.Errorf("corpus language %s not found", code)
		}
	}
}

// poHeader returns the decoded msgstr of the PO header entry.
func poHeader(data string) string {
	var b strings.Builder
	in := false
	for _, line := range strings.Split(data, "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == `msgstr ""`:
			in = true
		case in && strings.HasPrefix(line, `"`):
			b.WriteString(strings.TrimSuffix(strings.TrimPrefix(line, `"`), `"`))
		case in:
			return strings.ReplaceAll(b.String(), `\n`, "\n")
		}
	}
	return strings.ReplaceAll(b.String(), `\n`, "\n")
}

func TestCorpusFiles(t *testing.T) {
	dir := corpus.Dir(t)
	files, err := filepath.Glob(filepath.Join(dir, "*.po"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no PO files in %s: %v", dir, err)
	}
	for _, f := range files {
		code := strings.TrimSuffix(filepath.Base(f), ".po")
		if _, ok := Lookup(code); !ok {
			t.Errorf("%s: language not found", code)
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, h := range strings.Split(poHeader(string(data)), "\n") {
			value, ok := strings.CutPrefix(h, "Plural-Forms:")
			if !ok {
				continue
			}
			if n, formula, err := ParsePluralForms(value); err != nil || n < 1 || formula == "" {
				t.Errorf("%s: ParsePluralForms(%q) = %d, %q, %v", code, value, n, formula, err)
			}
		}
	}
}
