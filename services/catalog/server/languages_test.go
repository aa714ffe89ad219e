package server_test

import (
	"testing"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/lang"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
)

func TestGetAndListLanguages(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	cases := []struct {
		code, want string
		plurals    int32
	}{
		{"cs", "cs", 3},
		{"ces", "cs", 3},   // alias
		{"de_DE", "de", 2}, // default country
		{"pt-br", "pt_BR", 2},
		{"CS", "cs", 3},
	}
	var csID int64
	for _, c := range cases {
		resp, err := e.client.GetLanguage(ctx, &catalogv1.GetLanguageRequest{Code: c.code})
		if err != nil {
			t.Fatalf("%s: %v", c.code, err)
		}
		l := resp.GetLanguage()
		if l.GetCode() != c.want || l.GetPluralNumber() != c.plurals || l.GetPluralId() != l.GetId() || l.GetPluralSource() != 0 {
			t.Errorf("%s: %v", c.code, l)
		}
		if c.want == "cs" {
			if csID != 0 && l.GetId() != csID {
				t.Errorf("%s: id %d, want %d", c.code, l.GetId(), csID)
			}
			csID = l.GetId()
			if l.GetName() != "Czech" || l.GetDirection() != "ltr" || len(l.GetAliases()) == 0 || l.GetPopulation() == 0 || l.GetPluralType() == 0 {
				t.Errorf("cs fields: %v", l)
			}
		}
	}
	for _, code := range []string{"", "qqq_Nope", "../x"} {
		_, err := e.client.GetLanguage(ctx, &catalogv1.GetLanguageRequest{Code: code})
		wantKind(t, err, errs.NotFound, nil)
	}
	all := lang.All()
	list, err := e.client.ListLanguages(ctx, &catalogv1.ListLanguagesRequest{Offset: 2, Limit: 3})
	if err != nil || list.GetTotal() != int64(len(all)) || len(list.GetLanguages()) != 3 {
		t.Fatalf("list: %v %v", list, err)
	}
	ls := list.GetLanguages()
	if ls[0].GetCode() != all[2].Code || ls[0].GetId() >= ls[1].GetId() {
		t.Errorf("list order: %v", ls)
	}
	ar, err := e.client.GetLanguage(ctx, &catalogv1.GetLanguageRequest{Code: "ar"})
	if err != nil || ar.GetLanguage().GetDirection() != "rtl" || ar.GetLanguage().GetPluralNumber() != 6 {
		t.Errorf("ar: %v %v", ar, err)
	}
}

func TestEnsureLanguage(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	ensure := func(code string, n int32, formula string) (*catalogv1.Language, error) {
		resp, err := e.client.EnsureLanguage(ctx, &catalogv1.EnsureLanguageRequest{Code: code, PluralNumber: n, PluralFormula: formula})
		return resp.GetLanguage(), err
	}
	// Known codes come back unchanged, whatever the file says.
	cs, err := ensure("cs_CZ", 2, "n != 1")
	if err != nil || cs.GetCode() != "cs" || cs.GetPluralNumber() != 3 {
		t.Errorf("known: %v %v", cs, err)
	}
	// Unknown but plausible codes are created from the file's rule.
	x, err := ensure("xqz_Test", 3, "n==1 ? 0 : n==2 ? 1 : 2")
	if err != nil {
		t.Fatal(err)
	}
	if x.GetName() != "xqz_Test" || x.GetPluralNumber() != 3 || x.GetPluralSource() != 1 || x.GetDirection() != "ltr" || x.GetPluralId() != x.GetId() {
		t.Errorf("created: %v", x)
	}
	again, err := ensure("xqz_Test", 2, "n != 1")
	if err != nil || again.GetId() != x.GetId() || again.GetPluralNumber() != 3 {
		t.Errorf("again: %v %v", again, err)
	}
	got, err := e.client.GetLanguage(ctx, &catalogv1.GetLanguageRequest{Code: "xqz_test"})
	if err != nil || got.GetLanguage().GetId() != x.GetId() {
		t.Errorf("get created: %v %v", got, err)
	}
	// No rule in the file: two forms.
	y, err := ensure("yqz@fancy", 0, "")
	if err != nil || y.GetPluralNumber() != 2 || y.GetPluralFormula() != "n != 1" || y.GetPluralSource() != 0 {
		t.Errorf("default rule: %v %v", y, err)
	}
	bad := []struct {
		code, formula string
		n             int32
		field         string
	}{
		{"../etc", "n != 1", 2, "code"},
		{"", "n != 1", 2, "code"},
		{"x", "n != 1", 2, "code"},
		{"zqx_Ok", "n !=", 2, "plural_formula"},
		{"zqx_Ok", "n != 1", 0, "plural_number"},
	}
	for _, b := range bad {
		_, err := ensure(b.code, b.n, b.formula)
		wantKind(t, err, errs.InvalidArgument, &violation{b.field, "invalid", ""})
	}
}

// TestEnsureLanguagePlural: a file's rule is matched against the rules
// the language has, as Weblate's PoFormat.get_plural does; a rule spelled
// as one of the language's known spellings (gettext's, CLDR's, the
// localization guide's, Qt's) is that spelling's plural, so the file
// keeps it when written back.
func TestEnsureLanguagePlural(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	ensure := func(code string, n int32, formula string) *catalogv1.EnsureLanguageResponse {
		t.Helper()
		resp, err := e.client.EnsureLanguage(ctx, &catalogv1.EnsureLanguageRequest{Code: code, PluralNumber: n, PluralFormula: formula})
		if err != nil {
			t.Fatalf("ensure %s: %v", code, err)
		}
		return resp
	}
	beFile := "(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2)"
	cases := []struct {
		name        string
		code        string
		n           int32
		formula     string
		wantDefault bool
		wantNumber  int32
		wantFormula string // "" = the language's own formula
		wantSource  int32  // of a plural not the default
	}{
		{"no rule in the file", "tr", 0, "", true, 2, "", 0},
		{"default as spelled", "tr", 2, "n != 1", true, 2, "", 0},
		{"default spelled otherwise, unknown spelling", "tr", 2, "(n!=1)", true, 2, "", 0},
		{"default in the l10n guide's spelling", "tr", 2, "(n != 1)", false, 2, "(n != 1)", 1},
		{"be in gettext's spelling", "be", 3, beFile, false, 3, beFile, 1},
		{"ru in CLDR's spelling", "ru", 3, "(n % 10 == 1 && n % 100 != 11) ? 0 : ((n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14)) ? 1 : 2)",
			false, 3, "(n % 10 == 1 && n % 100 != 11) ? 0 : ((n % 10 >= 2 && n % 10 <= 4 && (n % 100 < 12 || n % 100 > 14)) ? 1 : 2)", 4},
		{"cs in Qt's spelling", "cs", 3, "((n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2)", false, 3, "((n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2)", 6},
		{"one form in a two-form language", "tr", 1, "0", false, 1, "0", 6},
		{"one form again, other spelling", "hu", 1, "0", false, 1, "0", 6},
		{"one form, a spelling no table has", "de", 1, "(0)", false, 1, "(0)", 1},
		{"broken rule is the default's", "tr", 2, "n !=", true, 2, "", 0},
	}
	seen := map[string]int64{}
	for _, c := range cases {
		resp := ensure(c.code, c.n, c.formula)
		l, p := resp.GetLanguage(), resp.GetPlural()
		want := c.wantFormula
		if want == "" {
			want = l.GetPluralFormula()
		}
		if (p.GetId() == l.GetId()) != c.wantDefault || p.GetNumber() != c.wantNumber || p.GetFormula() != want || p.GetLanguageCode() != l.GetCode() {
			t.Errorf("%s: plural %v of language %d", c.name, p, l.GetId())
		}
		if !c.wantDefault {
			if p.GetSource() != c.wantSource || p.GetId() < 1e9 {
				t.Errorf("%s: file plural %v, want source %d", c.name, p, c.wantSource)
			}
			key := c.code + "/" + c.formula
			if prev, ok := seen[key]; ok && prev != p.GetId() {
				t.Errorf("%s: second plural %d for one rule (first %d)", c.name, p.GetId(), prev)
			}
			seen[key] = p.GetId()
		}
		if again := ensure(c.code, c.n, c.formula).GetPlural(); again.GetId() != p.GetId() {
			t.Errorf("%s: a second file finds plural %d, the first %d", c.name, again.GetId(), p.GetId())
		}
	}
	// The same rule in a spelling no table has finds the stored plural,
	// not a new one.
	first := ensure("tr", 1, "0").GetPlural().GetId()
	if again := ensure("tr", 1, "(0)").GetPlural(); again.GetId() != first || again.GetFormula() != "0" {
		t.Errorf("stored plural spelled otherwise: %v, want id %d", again, first)
	}
	if seen["tr/0"] == seen["hu/0"] {
		t.Error("two languages share one plural")
	}
}

// TestEnsureLanguageZeroPlural: the language's plural with a form for zero
// (a stringsdict translation's) is stored as Weblate's "CLDR plural with
// zero" (source 3) and found again; another file rule is a gettext one.
func TestEnsureLanguageZeroPlural(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	for _, c := range []struct {
		name, code, formula string
		n, source           int32
	}{
		{"English with zero", "en", "n==0 ? 0 : n==1 ? 1 : 2", 3, 3},
		{"again, same plural", "en", "n == 0 ? 0 : n == 1 ? 1 : 2", 3, 3},
		{"Czech with zero", "cs", "n==0 ? 0 : (n==1) ? 1 : (n>=2 && n<=4) ? 2 : 3", 4, 3},
		{"a gettext rule", "de", "n==1 ? 0 : n==2 ? 1 : 2", 3, 1},
	} {
		t.Run(c.name, func(t *testing.T) {
			resp, err := e.client.EnsureLanguage(ctx, &catalogv1.EnsureLanguageRequest{Code: c.code, PluralNumber: c.n, PluralFormula: c.formula})
			if err != nil {
				t.Fatal(err)
			}
			if p := resp.GetPlural(); p.GetSource() != c.source || p.GetNumber() != c.n || p.GetId() == resp.GetLanguage().GetId() {
				t.Errorf("plural = %v", p)
			}
		})
	}
}
