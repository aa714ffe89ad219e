package properties

import (
	"strings"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
)

// FuzzProperties checks the ISO-8859-1 variant on arbitrary input:
// parsing either fails or renders the input byte-identical, and an edit of
// every unit (escapes, non-ASCII, a continuation-like backslash) renders a
// file that parses again with the edited values.
func FuzzProperties(f *testing.F) {
	formattest.Fuzz(f, ISO, "de", "testdata/*.properties", fuzzValue, fuzzSeeds...)
}

// FuzzPropertiesUTF8 is FuzzProperties for the UTF-8 variant.
func FuzzPropertiesUTF8(f *testing.F) {
	formattest.Fuzz(f, UTF8, "de", "testdata/*.properties", fuzzValue, fuzzSeeds...)
}

// fuzzValue is the edited value of a unit: escapes, non-ASCII, a
// continuation-like trailing backslash (no leading space, which the UTF-8
// variant does not escape, as in the reference).
func fuzzValue(i, j int, _ string) string {
	return "x" + strings.Repeat("é\\ \n\t=:#☕😀\\", i%3+1) + string(rune('a'+j%26))
}

var fuzzSeeds = []string{"a=b\\\n", "k\\\n  v\r\n", "\ufeff# h\n\n!n\nk:v", " = x\n:\n\\=\\ k v", "/*\n\n*/\nk=\\u12\\N\n"}

// FuzzPropertiesUTF16 is FuzzProperties for the UTF-16 variant.
func FuzzPropertiesUTF16(f *testing.F) {
	formattest.Fuzz(f, UTF16, "de", "testdata/*.properties", fuzzValue, fuzzSeeds...)
}
