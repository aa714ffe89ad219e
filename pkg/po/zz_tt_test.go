package po

import (
	"fmt"
	"os"
	"reflect"
	"testing"
)

func TestZZCompare(t *testing.T) {
	out, _ := os.Create("/tmp/tt_misses.txt")
	defer out.Close()
	gnuOK, ttOK, both, total := 0, 0, 0, 0
	for name, data := range corpusFiles(t) {
		f, _ := Parse(data)
		for _, e := range f.All() {
			if e.Obsolete || e.orig == nil {
				continue
			}
			for i, q := range e.orig.msgstr {
				total++
				kw := "msgstr"
				if e.HasPlural {
					kw = fmt.Sprintf("msgstr[%d]", i)
				}
				g := reflect.DeepEqual(gettextQuoteLines(q.value, "", kw, entryFormat(e.Flags)), q.lines) || (len(q.lines) == 1 && q.lines[0] == `""` && q.value == "")
				tt := reflect.DeepEqual(toolkitQuoteLines(q.value), q.lines) || (len(q.lines) == 1 && q.lines[0] == `""` && q.value == "")
				if g { gnuOK++ }
				if tt { ttOK++ }
				if g && tt { both++ }
				if tt && !g || !tt && !g {
					fmt.Fprintf(out, "=== %s gnu=%v tt=%v\n%q\n%q\n", name, g, tt, q.lines, toolkitQuoteLines(q.value))
				}
			}
		}
	}
	t.Log("total", total, "gnu", gnuOK, "toolkit", ttOK, "both", both)
}
