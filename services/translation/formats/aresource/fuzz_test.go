package aresource

import (
	"strings"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
)

// FuzzAResource checks the parser on arbitrary input: parsing either
// fails or renders the input byte-identical, and an edit of every unit
// (escapes, markup, a leading @) renders a file that parses again with
// the edited values.
func FuzzAResource(f *testing.F) {
	value := func(i, j int, _ string) string {
		return strings.Repeat("é\"\n\\'?@ <b>x</b>", j+1) + string(rune('a'+i%26))
	}
	formattest.Fuzz(f, Format{}, "ru", "testdata/*.xml", value,
		`<resources><string name="a">"  x "\u00e9\n</string><plurals name="p"><item quantity="few">\'</item></plurals></resources>`,
		"\ufeff<resources/>")
}
