package checks

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestRunNeverPanics runs every check, each switched on by its flags, on
// random strings made of the characters the checks parse (markup,
// placeholders, brackets, quotes, spaces, letters of several scripts):
// whatever a file or an edit holds, checking it must not fail.
func TestRunNeverPanics(t *testing.T) {
	const alphabet = "<>/&;![]()*_~`#@%$:{}.,?'\" \n\tabcXYZ019éـγ中\u00a0"
	runes := []rune(alphabet)
	flags := "md-text, bbcode-text, url, xml-text, c-format, python-format, python-brace-format, php-format, objc-format, " +
		"perl-brace-format, object-pascal-format, scheme-format, csharp-format, laravel-format, java-printf-format, java-format, " +
		"percent-placeholders, vue-format, i18next-interpolation, es-format, automattic-components-format, angularjs-format, " +
		`safe-html, auto-safe-html, icu-message-format, icu-flags:xml, qt-format, qt-plural-format, ruby-format, placeholders:"%s":r"\{\w+\}", regex:r"^\S", max-length:10, max-lines:2`
	r := rand.New(rand.NewPCG(1, 2))
	random := func() string {
		var sb strings.Builder
		for range r.IntN(40) {
			sb.WriteRune(runes[r.IntN(len(runes))])
		}
		return sb.String()
	}
	for i := range 5000 {
		lang := []string{"de", "fr", "cs", "kab", "ar", "ja"}[i%6]
		u := unit(random()+"|"+random(), random()+"|"+random(), lang, flags)
		if i%2 == 0 {
			u = unit(random(), random(), lang, flags)
		}
		func() {
			defer func() {
				if p := recover(); p != nil {
					t.Fatalf("%q → %q (%s): %v", u.Sources, u.Targets, lang, p)
				}
			}()
			Run(u)
		}()
	}
}
