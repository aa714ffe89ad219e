package lang

import "testing"

func TestWithZero(t *testing.T) {
	for _, c := range []struct {
		name       string
		n          int
		formula    string
		typ        int
		wantN      int
		wantF      string
		wantChange bool
	}{
		{"English", 2, "n != 1", PluralOneOther, 3, "n==0 ? 0 : n==1 ? 1 : 2", true},
		{"Czech", 3, "(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2", PluralOneFewMany, 4, "n==0 ? 0 : (n==1) ? 1 : (n>=2 && n<=4) ? 2 : 3", true},
		{"Arabic has zero", 6, "whatever", PluralArabic, 6, "whatever", false},
		{"unlisted formula", 2, "n%7 != 1", PluralUnknown, 3, "n==0 ? 0 : (n%7 != 1) + 1", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			n, f, changed := WithZero(c.n, c.formula, c.typ)
			if n != c.wantN || f != c.wantF || changed != c.wantChange {
				t.Errorf("WithZero = %d %q %v", n, f, changed)
			}
		})
	}
	// Every formula of the table, and the fallback, is one the catalog
	// accepts, with form 0 for zero.
	for from, to := range formulaWithZero {
		_, fallback, _ := WithZero(2, from+" ", PluralUnknown)
		for _, f := range []string{to, fallback} {
			e, err := CompilePlural(f)
			if err != nil {
				t.Errorf("%q: %v", f, err)
				continue
			}
			if v, err := e.Eval(0); err != nil || v != 0 {
				t.Errorf("%q(0) = %d %v", f, v, err)
			}
		}
	}
}
