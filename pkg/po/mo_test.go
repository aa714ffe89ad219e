package po

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func readTestdata(name string) ([]byte, error) { return os.ReadFile(filepath.Join("testdata", name)) }

// decodeMO reads back the pairs of a little-endian .mo file.
func decodeMO(t *testing.T, data []byte) map[string]string {
	t.Helper()
	u32 := func(off uint32) uint32 { return binary.LittleEndian.Uint32(data[off:]) }
	if u32(0) != 0x950412de {
		t.Fatalf("bad magic %x", u32(0))
	}
	n, ids, strs := u32(8), u32(12), u32(16)
	out := make(map[string]string, n)
	prev := ""
	for i := range n {
		idLen, idOff := u32(ids+8*i), u32(ids+8*i+4)
		sLen, sOff := u32(strs+8*i), u32(strs+8*i+4)
		id := string(data[idOff : idOff+idLen])
		if i > 0 && id <= prev {
			t.Errorf("ids not sorted: %q after %q", id, prev)
		}
		prev = id
		out[id] = string(data[sOff : sOff+sLen])
	}
	return out
}

func TestMO(t *testing.T) {
	data, err := readTestdata("golden_output.po")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	got := decodeMO(t, f.MO())
	want := map[string]string{
		"Hello":                   "Bonjour",
		"New text":                "Nouveau texte",
		"menu\x04Open":            "Ouvrir \"vite\"\tavec \\ barre",
		"\x04Empty context":       "Contexte vide",
		"new\x04Brand new string": "Toute nouvelle chaîne",
		"One file was removed\x00%d files were removed": "Un fichier a été supprimé\x00%d fichiers ont été supprimés\nVoir le journal",
	}
	for id, str := range want {
		if got[id] != str {
			t.Errorf("MO[%q] = %q, want %q", id, got[id], str)
		}
	}
	if !strings.Contains(got[""], "Language: fr\n") {
		t.Errorf("header = %q", got[""])
	}
	for _, absent := range []string{"Delete %d files now", "Obsolete entry", "Another obsolete"} {
		if s, ok := got[absent]; ok {
			t.Errorf("fuzzy or obsolete %q is in the catalogue as %q", absent, s)
		}
	}
	if len(got) != 10 {
		t.Errorf("catalogue has %d messages, want 10 (header and 9 translations)", len(got))
	}
}

// TestMOWithMsgunfmt decodes the catalogue with GNU msgunfmt when present.
func TestMOWithMsgunfmt(t *testing.T) {
	msgunfmt, err := exec.LookPath("msgunfmt")
	if err != nil {
		t.Skip("msgunfmt not installed")
	}
	data, err := readTestdata("golden_output.po")
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "out.mo")
	if err = os.WriteFile(path, f.MO(), 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(msgunfmt, path).CombinedOutput()
	if err != nil {
		t.Fatalf("msgunfmt: %v\n%s", err, out)
	}
	back, err := Parse(out)
	if err != nil {
		t.Fatalf("msgunfmt output does not parse: %v\n%s", err, out)
	}
	if n, want := len(back.Entries()), len(decodeMO(t, f.MO()))-1; n != want {
		t.Errorf("msgunfmt lists %d entries, want %d:\n%s", n, want, out)
	}
}

func BenchmarkParseCorpus(b *testing.B) {
	files := corpusFiles(b)
	size := 0
	for _, data := range files {
		size += len(data)
	}
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		for name, data := range files {
			if _, err := Parse(data); err != nil {
				b.Fatalf("%s: %v", name, err)
			}
		}
	}
}
