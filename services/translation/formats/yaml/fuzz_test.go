package yaml

import (
	"strings"
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
)

// FuzzYAML checks the yaml format on arbitrary input: parsing either
// fails or renders the input byte-identical, and an edit of every unit
// (quotes, indicators, line breaks, long text) renders a file that parses
// again with the edited values.
func FuzzYAML(f *testing.F) {
	formattest.Fuzz(f, YAML, "en", "testdata/*.yml", fuzzValue, fuzzSeeds...)
}

// FuzzRubyYAML is FuzzYAML for ruby-yaml, with Czech plurals.
func FuzzRubyYAML(f *testing.F) {
	formattest.Fuzz(f, Ruby, "cs", "testdata/*.yml", fuzzValue, fuzzSeeds...)
}

func fuzzValue(i, j int, _ string) string {
	v := []string{"plain", "it's: \"x\" #1", "a\nb  \n", "", " lead", "%{n} ☕😀\t", "123", strings.Repeat("word ", 25)}
	return v[(i+j)%len(v)]
}

var fuzzSeeds = []string{
	"a: b\n", "k: |+\n  x\n\n\nz: 1\n", "k: >2\n   x\n  y\n", "- a\n- [b, {c: d}]\n", "k: \"a\\\n  b\"\n",
	"en:\n  x:\n    one: a\n    other:\n", "k: 'a''b\n\n  c'\n", "? a\n: b\n", "k: &a !t v # c\nl: *a\n",
}
