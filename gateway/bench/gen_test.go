package bench

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tmsproject/tms/pkg/po"
)

func TestGenerateShape(t *testing.T) {
	g := Generate(2000, 7)
	if !bytes.Equal(g.Template(), Generate(2000, 7).Template()) {
		t.Fatal("same seed gave different templates")
	}
	tests := []struct {
		code  string
		forms int
	}{{"", 2}, {"cs", 3}, {"ja", 1}, {"de", 2}}
	for _, tt := range tests {
		f, err := po.Parse(g.PO(tt.code, 0, 80))
		if err != nil {
			t.Fatalf("%q: %v", tt.code, err)
		}
		es := f.Entries()
		if len(es) != 2000 {
			t.Fatalf("%q: %d entries, want 2000", tt.code, len(es))
		}
		var plurals, ctxs, translated, fuzzy, long int
		keys := map[string]bool{}
		for _, e := range es {
			keys[e.Context+"\x04"+e.Msgid] = true
			if e.HasPlural {
				plurals++
				if len(e.Msgstr) != tt.forms {
					t.Fatalf("%q: %d plural forms, want %d", tt.code, len(e.Msgstr), tt.forms)
				}
			}
			if e.HasContext {
				ctxs++
			}
			if len(e.Msgid) > 120 {
				long++
			}
			if slices.Contains(e.Flags, "fuzzy") {
				fuzzy++
			} else if e.Msgstr[0] != "" {
				translated++
			}
		}
		if len(keys) != 2000 || plurals < 40 || ctxs < 40 || long < 100 {
			t.Errorf("%q: %d keys, %d plurals, %d contexts, %d long", tt.code, len(keys), plurals, ctxs, long)
		}
		if tt.code == "" && translated+fuzzy != 0 {
			t.Errorf("template has %d translated, %d fuzzy", translated, fuzzy)
		}
		if tt.code != "" && (translated < 1500 || translated > 1700 || fuzzy == 0) {
			t.Errorf("%q: %d translated, %d fuzzy of 2000 at 80%%", tt.code, translated, fuzzy)
		}
	}
}

func TestVariantsDiffer(t *testing.T) {
	g := Generate(50, 1)
	if bytes.Equal(g.PO("de", 0, 100), g.PO("de", 1, 100)) {
		t.Error("variants 0 and 1 render the same translations")
	}
}

// TestMsgfmtAccepts validates generated files with GNU msgfmt when the
// machine has it.
func TestMsgfmtAccepts(t *testing.T) {
	if _, err := exec.LookPath("msgfmt"); err != nil {
		t.Skip("msgfmt not installed (Debian package gettext)")
	}
	g := Generate(500, 3)
	for _, code := range []string{"", "cs", "ja", "fr"} {
		p := filepath.Join(t.TempDir(), "x.po")
		if err := os.WriteFile(p, g.PO(code, 2, 90), 0o644); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command("msgfmt", "-c", "-o", os.DevNull, p).CombinedOutput(); err != nil {
			t.Errorf("msgfmt -c %q: %v\n%s", code, err, out)
		}
	}
}
