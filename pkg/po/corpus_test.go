package po

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tmsproject/tms/pkg/corpus"
)

// corpusFiles returns the PO files of shared/corpus/bleachbit by base
// name, or skips the test.
func corpusFiles(tb testing.TB) map[string][]byte {
	tb.Helper()
	return corpus.Files(tb, ".po")
}

func TestCorpusRoundTrip(t *testing.T) {
	for name, data := range corpusFiles(t) {
		f, err := Parse(data)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.Equal(f.Bytes(), data) {
			t.Errorf("%s: Bytes() differs from the input", name)
		}
	}
}

// TestCorpusRenderOracle re-renders every corpus entry from its parsed
// fields, every string re-wrapped, and compares it with the bytes it was read
// from.
//
// The reference service writes PO files two ways: translate-toolkit renders
// the entries a user edits (and the header, on every save), and its msgmerge
// add-on rewrites whole files with GNU gettext when the template changes. The
// corpus was last rewritten by msgmerge, and Weblate 2026.9 saved some files
// afterwards: the headers of nl, pl, bg and he.po only translate-toolkit's
// wrapping reproduces (they are also cases of TestToolkitWrapCases), Korean
// and Thai text only GNU gettext's. Every entry must match one of the two
// writers.
func TestCorpusRenderOracle(t *testing.T) {
	total, either, toolkit, gettext, kept := 0, 0, 0, 0, 0
	for name, data := range corpusFiles(t) {
		f, err := Parse(data)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, e := range f.All() {
			total++
			want := string(e.raw)
			if !strings.HasSuffix(want, "\n") {
				want += f.Newline() // the last entry of a file without final newline
			}
			if e.render(f.Newline()) == want {
				kept++
			}
			byToolkit := e.renderWrapped(f.Newline(), wrapToolkit, true) == want
			byGettext := e.renderWrapped(f.Newline(), wrapGettext, true) == want
			if !byToolkit && !byGettext {
				t.Errorf("%s: entry %q matches neither writer:\n%s", name, e.Msgid, want)
			}
			if byToolkit || byGettext {
				either++
			}
			if byToolkit {
				toolkit++
			}
			if byGettext {
				gettext++
			}
		}
	}
	t.Logf("%d of %d entries re-render identically (translate-toolkit %d, GNU gettext %d), %d with their lines kept",
		either, total, toolkit, gettext, kept)
	if kept != total {
		t.Errorf("%d entries differ even with their original lines kept", total-kept)
	}
}
