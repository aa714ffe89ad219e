package po

import (
	"testing"
	"strings"
)

func TestDumpMisses(t *testing.T) {
	n, total, tt, gg := 0, 0, 0, 0
	for _, data := range corpusFiles(t) {
		f, _ := Parse(data)
		for _, e := range f.All() {
			total++
			want := string(e.raw)
			if !strings.HasSuffix(want, "\n") {
				want += f.Newline()
			}
			a := e.renderWrapped(f.Newline(), wrapToolkit, true) == want
			b := e.renderWrapped(f.Newline(), wrapGettext, true) == want
			if a { tt++ }
			if b { gg++ }
			if a || b { n++ }
		}
	}
	t.Log("either", n, "of", total, "toolkit", tt, "gettext", gg)
}
