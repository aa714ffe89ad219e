package lang

import "fmt"

// zeroPluralTypes are the plural types that already have a form for zero
// (Weblate's ZERO_PLURAL_TYPES): a format that needs one uses them as they
// are.
var zeroPluralTypes = map[int]bool{PluralArabic: true, PluralZeroOneOther: true, PluralZeroOneTwoFewManyOther: true}

// WithZero is the plural a format that needs a form for zero (Apple's
// stringsdict) uses for a language whose plural is n forms by formula of
// type typ, as Weblate's StringsdictFormat.get_plural gives it: the same
// when the type has a zero form, else one more form, zero first, with the
// formula of Weblate's FORMULA_WITH_ZERO. A formula that table lacks (the
// reference fails on it) gets "n==0 ? 0 : (formula) + 1". changed reports
// whether the plural differs from the one given.
func WithZero(n int, formula string, typ int) (number int, zeroFormula string, changed bool) {
	if zeroPluralTypes[typ] {
		return n, formula, false
	}
	if f, ok := formulaWithZero[formula]; ok {
		return n + 1, f, true
	}
	return n + 1, fmt.Sprintf("n==0 ? 0 : (%s) + 1", formula), true
}

// formulaWithZero is Weblate's FORMULA_WITH_ZERO (weblate/lang/data.py):
// a formula and the same rule with a form for zero before its forms.
var formulaWithZero = map[string]string{
	"0":      "n==0 ? 0 : 1",
	"n > 1":  "n==0 ? 0 : n==1 ? 1 : 2",
	"n != 1": "n==0 ? 0 : n==1 ? 1 : 2",
	"(n == 0 || n == 1) ? 0 : ((n >= 2 && n <= 10) ? 1 : 2)":                                                                         "n == 0 ? 0 : n == 1 ? 1 : ((n >= 2 && n <= 10) ? 2 : 3)",
	"n == 1 ? 0 : n == 2 ? 1 : 2":                                                                                                    "n == 0 ? 0 : n == 1 ? 1 : n == 2 ? 2 : 3",
	"n==1 || n%10==1 ? 0 : 1":                                                                                                        "n == 0 ? 0 : n==1 || n%10==1 ? 1 : 2",
	"n==1 ? 0 : n==2 ? 1 : 2":                                                                                                        "n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : 3",
	"(n==1 || n==11) ? 0 : (n==2 || n==12) ? 1 : (n > 2 && n < 20) ? 2 : 3":                                                          "n==0 ? 0 : (n==1 || n==11) ? 1 : (n==2 || n==12) ? 2 : (n > 2 && n < 20) ? 3 : 4",
	"n != 1 && n != 2 && n != 3 && (n % 10 == 4 || n % 10 == 6 || n % 10 == 9)":                                                      "n==0 ? 0 : n != 1 && n != 2 && n != 3 && (n % 10 == 4 || n % 10 == 6 || n % 10 == 9) ? 1: 2",
	"n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2":                                                                         "n==0 ? 0 : n==1 ? 1 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 2 : 3",
	"(n == 1) ? 0 : ((n == 0 || n % 100 >= 2 && n % 100 <= 19) ? 1 : 2)":                                                             "n==0 ? 0 : (n == 1) ? 1 : ((n == 0 || n % 100 >= 2 && n % 100 <= 19) ? 2 : 3)",
	"n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2":                                                               "n==0 ? 0 : n==1 ? 1 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 2 : 3",
	"(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2":                                                                                            "n==0 ? 0 : (n==1) ? 1 : (n>=2 && n<=4) ? 2 : 3",
	"(n == 1) ? 0 : ((n == 2) ? 1 : 2)":                                                                                              "n==0 ? 0 : (n == 1) ? 1 : ((n == 2) ? 2 : 3)",
	"n==1 ? 0 : n==0 || ( n%100>1 && n%100<11) ? 1 : (n%100>10 && n%100<20 ) ? 2 : 3":                                                "n==0 ? 0 : n==1 ? 1 : ( n%100>1 && n%100<11) ? 2 : (n%100>10 && n%100<20 ) ? 3 : 4",
	"n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2":                                               "n==0 ? 0 : n%10==1 && n%100!=11 ? 1 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 2 : 3",
	"(n == 1) ? 0 : ((n == 2) ? 1 : ((n > 10 && n % 10 == 0) ? 2 : 3))":                                                              "n==0 ? 0 : (n == 1) ? 1 : ((n == 2) ? 2 : ((n > 10 && n % 10 == 0) ? 3 : 4))",
	"n==1 ? 0 : n==2 ? 1 : (n>2 && n<7) ? 2 :(n>6 && n<11) ? 3 : 4":                                                                  "n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : (n>2 && n<7) ? 3 :(n>6 && n<11) ? 4 : 5",
	"(n % 100 == 1) ? 0 : ((n % 100 == 2) ? 1 : ((n % 100 == 3 || n % 100 == 4) ? 2 : 3))":                                           "n==0 ? 0 : (n % 100 == 1) ? 1 : ((n % 100 == 2) ? 2 : ((n % 100 == 3 || n % 100 == 4) ? 3 : 4))",
	"n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3":                                                                     "n==0 ? 0 : n%100==1 ? 1 : n%100==2 ? 2 : n%100==3 || n%100==4 ? 3 : 4",
	"n % 10 != 1 || n % 100 == 11":                                                                                                   "n==0 ? 0 : n % 10 != 1 || n % 100 == 11 ? 1 :2",
	"(n % 10 == 1 && (n % 100 < 11 || n % 100 > 19)) ? 0 : ((n % 10 >= 2 && n % 10 <= 9 && (n % 100 < 11 || n % 100 > 19)) ? 1 : 2)": "n==0 ? 0 : (n % 10 == 1 && (n % 100 < 11 || n % 100 > 19)) ? 1 : ((n % 10 >= 2 && n % 10 <= 9 && (n % 100 < 11 || n % 100 > 19)) ? 2 : 3)",
	"n >= 2 && (n < 11 || n > 99)":                                                                                                   "n==0 ? 0 : n >= 2 && (n < 11 || n > 99) ? 1 : 2",
	"(n % 10 == 1) ? 0 : ((n % 10 == 2) ? 1 : ((n % 100 == 0 || n % 100 == 20 || n % 100 == 40 || n % 100 == 60 || n % 100 == 80) ? 2 : 3))": "n==0 ? 0 : (n % 10 == 1) ? 1 : ((n % 10 == 2) ? 2 : ((n % 100 == 0 || n % 100 == 20 || n % 100 == 40 || n % 100 == 60 || n % 100 == 80) ? 3 : 4))",
	"(n % 10 == 1 && n % 100 != 11 && n % 100 != 71 && n % 100 != 91) ? 0 : ((n % 10 == 2 && n % 100 != 12 && n % 100 != 72 && n % 100 != 92) ? 1 : ((((n % 10 == 3 || n % 10 == 4) || n % 10 == 9) && (n % 100 < 10 || n % 100 > 19) && (n % 100 < 70 || n % 100 > 79) && (n % 100 < 90 || n % 100 > 99)) ? 2 : ((n != 0 && n % 1000000 == 0) ? 3 : 4)))": "n==0 ? 0 : (n % 10 == 1 && n % 100 != 11 && n % 100 != 71 && n % 100 != 91) ? 1 : ((n % 10 == 2 && n % 100 != 12 && n % 100 != 72 && n % 100 != 92) ? 2 : ((((n % 10 == 3 || n % 10 == 4) || n % 10 == 9) && (n % 100 < 10 || n % 100 > 19) && (n % 100 < 70 || n % 100 > 79) && (n % 100 < 90 || n % 100 > 99)) ? 3 : ((n != 0 && n % 1000000 == 0) ? 4 : 5)))",
	"n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2":                                                                                    "n==0 ? 0 : n%10==1 && n%100!=11 ? 1 : 2",
	"(n == 1) ? 0 : ((n != 0 && n % 1000000 == 0) ? 1 : 2)":                                                                        "(n == 0) ? 0 : (n == 1) ? 1 : ((n != 0 && n % 1000000 == 0) ? 2 : 3)",
	"(n == 0 || n == 1) ? 0 : ((n != 0 && n % 1000000 == 0) ? 1 : 2)":                                                              "(n == 0) ? 0 : (n == 1) ? 1 : ((n != 0 && n % 1000000 == 0) ? 2 : 3)",
	"(n == 1) ? 0 : ((n == 2) ? 1 : ((n == 0 || n % 100 >= 3 && n % 100 <= 10) ? 2 : ((n % 100 >= 11 && n % 100 <= 19) ? 3 : 4)))": "(n == 0) ? 0 : (n == 1) ? 1 : ((n == 2) ? 2 : ((n == 0 || n % 100 >= 3 && n % 100 <= 10) ? 3 : ((n % 100 >= 11 && n % 100 <= 19) ? 4 : 5)))",
}
