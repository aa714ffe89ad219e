package xliff

import (
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
)

// FuzzXLIFF checks the parser on arbitrary input: parsing either fails
// or renders the input byte-identical, and an edit of every unit (markup,
// escapes, spaces kept) renders a file that parses again with the edited
// values.
func FuzzXLIFF(f *testing.F) {
	value := func(i, _ int, _ string) string {
		return ` é &amp; "q" <g id="1">x</g><x id="2"/> &lt;` + string(rune('a'+i%26))
	}
	formattest.Fuzz(f, Format{}, "de", "testdata/*.xliff", value,
		`<xliff><file original="o"><body><trans-unit id="a"><source> s </source><target/></trans-unit></body></file></xliff>`,
		"\ufeff<xliff><file><body/></file></xliff>")
}
