package filemask

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	tests := []struct {
		mask string
		ok   bool
	}{
		{"po/*.po", true},
		{"*/LC_MESSAGES/app.po", true},
		{"locale/*/LC_MESSAGES/*.po", true},
		{"", false},
		{"po/cs.po", false},
		{"/etc/*.po", false},
		{"../*.po", false},
		{"po/../../*.po", false},
		{"po/./*.po", false},
		{"po//*.po", false},
		{"po/**.po", false},
		{".git/*", false},
		{"po\\*.po", false},
	}
	for _, tt := range tests {
		_, err := Parse(tt.mask)
		if (err == nil) != tt.ok {
			t.Errorf("Parse(%q) error = %v, want ok=%v", tt.mask, err, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrInvalid) {
			t.Errorf("Parse(%q) error %v does not wrap ErrInvalid", tt.mask, err)
		}
	}
}

func TestCode(t *testing.T) {
	m, err := Parse("locale/*/LC_MESSAGES/*.po")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		rel, code string
		ok        bool
	}{
		{"locale/cs/LC_MESSAGES/cs.po", "cs", true},
		{"locale/cs/LC_MESSAGES/de.po", "", false},
		{"locale/pt_BR/LC_MESSAGES/pt_BR.po", "pt_BR", true},
		{"locale/../LC_MESSAGES/...po", "", false},
		{"locale/cs/x/LC_MESSAGES/cs.po", "", false},
	}
	for _, tt := range tests {
		code, ok := m.Code(tt.rel)
		if code != tt.code || ok != tt.ok {
			t.Errorf("Code(%q) = %q, %v; want %q, %v", tt.rel, code, ok, tt.code, tt.ok)
		}
	}
	if p, _ := m.Path("sr@latin"); p != "locale/sr@latin/LC_MESSAGES/sr@latin.po" {
		t.Errorf("Path = %q", p)
	}
	if _, err := m.Path("../x"); err == nil {
		t.Error("Path accepted a code with a slash")
	}
}

// tree builds a working copy with a symlink escaping it and returns its root.
func tree(t testing.TB) string {
	base := t.TempDir()
	root := filepath.Join(base, "wc")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{"wc/po/sub", "wc/.git", "outside"} {
		if err := os.MkdirAll(filepath.Join(base, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"wc/po/cs.po", "wc/po/de.po", "wc/po/greeter.pot", "wc/po/sub/x.po",
		"wc/.git/config", "outside/secret.po", "outside/evil.po"} {
		if err := os.WriteFile(filepath.Join(base, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"wc/po/evil.po":   filepath.Join(outside, "evil.po"),
		"wc/po/rel.po":    "../../outside/secret.po",
		"wc/po/inside.po": "cs.po",
		"wc/out":          outside,
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(base, name)); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestGlob(t *testing.T) {
	root := tree(t)
	tests := []struct {
		mask string
		want []string
	}{
		{"po/*.po", []string{"cs:po/cs.po", "de:po/de.po", "inside:po/inside.po"}},
		{"out/*.po", nil},
		{"*/cs.po", []string{"po:po/cs.po"}},
		{"*/config", nil},
		{"po/*/x.po", []string{"sub:po/sub/x.po"}},
	}
	for _, tt := range tests {
		m, err := Parse(tt.mask)
		if err != nil {
			t.Fatal(err)
		}
		got, err := m.Glob(root)
		if err != nil {
			t.Fatal(err)
		}
		var s []string
		for _, g := range got {
			s = append(s, g.Code+":"+g.Path)
		}
		if strings.Join(s, ",") != strings.Join(tt.want, ",") {
			t.Errorf("Glob(%q) = %v, want %v", tt.mask, s, tt.want)
		}
	}
}

func TestSafePath(t *testing.T) {
	root := tree(t)
	for rel, ok := range map[string]bool{
		"po/fr.po": true, "po/new/fr.po": true, "out/fr.po": false, "po/evil.po": false,
		"../x.po": false, "/etc/passwd": false, "po/../../x": false,
	} {
		_, err := SafePath(root, rel)
		if (err == nil) != ok {
			t.Errorf("SafePath(%q) error = %v, want ok=%v", rel, err, ok)
		}
	}
}

// FuzzFilemask checks that no mask makes Glob return a path outside the
// working copy, and that Parse, Code and Path never panic and agree.
func FuzzFilemask(f *testing.F) {
	for _, s := range []string{"po/*.po", "*/*.po", "out/*.po", "../*", "po/*/x.po", "*", "*/config", "po/*"} {
		f.Add(s, "po/cs.po")
	}
	root := tree(f)
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, mask, rel string) {
		m, err := Parse(mask)
		if err != nil {
			return
		}
		if code, ok := m.Code(rel); ok {
			if p, pErr := m.Path(code); pErr != nil || p != rel {
				t.Fatalf("Code(%q) = %q but Path gives %q, %v", rel, code, p, pErr)
			}
		}
		got, err := m.Glob(root)
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range got {
			resolved, err := filepath.EvalSymlinks(filepath.Join(root, g.Path))
			if err != nil || !Within(realRoot, resolved) {
				t.Fatalf("mask %q matched %q outside the root (%q)", mask, g.Path, resolved)
			}
			if strings.Contains(g.Path, ".git/") || strings.HasPrefix(g.Code, ".") {
				t.Fatalf("mask %q matched %q (code %q)", mask, g.Path, g.Code)
			}
			if code, ok := m.Code(g.Path); !ok || code != g.Code {
				t.Fatalf("Glob match %v disagrees with Code: %q %v", g, code, ok)
			}
		}
	})
}
