package po

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

func TestDumpMisses(t *testing.T) {
	out, _ := os.Create("/tmp/misses.txt")
	defer out.Close()
	n := 0
	for name, data := range corpusFiles(t) {
		f, _ := Parse(data)
		for _, e := range f.All() {
			want := string(e.raw)
			if !strings.HasSuffix(want, "\n") {
				want += f.Newline()
			}
			e.retarget = true
			got := e.render(f.Newline())
			e.retarget = false
			if got != want {
				n++
				fmt.Fprintf(out, "=== %s\n--- want\n%s--- got\n%s", name, want, got)
			}
		}
	}
	t.Log(n)
}
