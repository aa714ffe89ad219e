package xliff2

import (
	"testing"

	"github.com/tmsproject/tms/services/translation/formats/internal/formattest"
)

// The values depend on the unit's context only: files may repeat a
// unit id, and the units of one context then read back alike.
//
// seeds are small documents beside the test files: a BOM, a prefixed
// namespace, a self-closing root and segments without source or unit.
var seeds = []string{
	`<xliff version="2.0"><file id="f"><unit id="a"><segment><source> s </source><target/></segment></unit></file></xliff>`,
	"\ufeff<x:xliff xmlns:x=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.0\"><x:file id=\"f\"><x:unit id=\"u\"><x:segment id=\"s\"><x:source>a</x:source></x:segment><x:segment><x:source>b</x:source></x:segment></x:unit></x:file></x:xliff>",
	`<xliff version="2.0"/>`,
	`<xliff version="2.0"><segment><source>loose</source></segment></xliff>`,
}

// FuzzXLIFF2Placeables checks the placeables variant on arbitrary input:
// parsing either fails or renders the input byte-identical, and an edit
// of every unit (markup, escapes, spaces kept) renders a file that parses
// again with the edited values.
func FuzzXLIFF2Placeables(f *testing.F) {
	value := func(_, _ int, ctx string) string {
		return ` é &amp; "q" <pc id="1">x</pc><ph id="2"/> &lt;` + string(rune('a'+len(ctx)%26))
	}
	formattest.Fuzz(f, Placeables, "de", "testdata/*.xlf", value, seeds...)
}

// FuzzXLIFF2Plain is the same for the plain variant, whose written
// values are escaped text (and whitespace normalized when read, as the
// segment is not marked to preserve it).
func FuzzXLIFF2Plain(f *testing.F) {
	value := func(_, _ int, ctx string) string {
		return `é & "q" <pc id="1">x</pc> &lt;` + string(rune('a'+len(ctx)%26))
	}
	formattest.Fuzz(f, Plain, "de", "testdata/*.xlf", value, seeds...)
}
