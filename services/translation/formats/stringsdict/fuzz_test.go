package stringsdict

import (
	"strings"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
)

// FuzzStringsdict checks the format on arbitrary input: parsing either
// fails or renders the input byte-identical, and an edit of every form
// (entities, non-ASCII, an emptied form) parses again with its values.
func FuzzStringsdict(f *testing.F) {
	formattest.Fuzz(f, Format{}, "cs", "testdata/*.stringsdict", func(i, j int, _ string) string {
		if (i+j)%3 == 2 {
			return ""
		}
		return "x" + strings.Repeat("<&>\"é\n\t😀", i%3+1) + string(rune('a'+j%26))
	}, `<plist><dict><key>a</key><dict><key>b</key><dict/></dict></dict></plist>`)
}
