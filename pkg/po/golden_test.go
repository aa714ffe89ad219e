package po

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func mustParseFile(t *testing.T, path string) (*File, []byte) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return f, data
}

func findEntry(t *testing.T, f *File, ctx, msgid string) *Entry {
	t.Helper()
	for _, e := range f.Entries() {
		if e.Msgid == msgid && e.Context == ctx {
			return e
		}
	}
	t.Fatalf("no entry %q/%q", ctx, msgid)
	return nil
}

// applyGoldenEdits makes the edits of testdata/gen_golden.py.
func applyGoldenEdits(t *testing.T, f *File) {
	t.Helper()
	set := func(ctx, msgid string, forms []string, fuzzy bool) {
		if err := findEntry(t, f, ctx, msgid).SetTarget(forms, fuzzy); err != nil {
			t.Fatal(err)
		}
	}
	set("", "Hello", []string{"Bonjour"}, false)
	set("", "Read the manual at https://docs.example.org/en/latest/user-guide/getting-started.html before you continue with %(name)s",
		[]string{"Lisez le manuel sur https://docs.example.org/fr/latest/user-guide/getting-started.html avant de continuer avec %(name)s — c'est-à-dire « maintenant »"}, false)
	set("", "Delete %d files now", []string{"Supprimer %d fichiers maintenant"}, true)
	set("", "New text", []string{"Nouveau texte"}, false)
	set("", "One file was removed", []string{"Un fichier a été supprimé", "%d fichiers ont été supprimés\nVoir le journal"}, false)
	set("menu", "Open", []string{"Ouvrir \"vite\"\tavec \\ barre"}, false)
	set("", "A long sentence that will be translated into Japanese for the width test.",
		[]string{"これは幅のテストのために日本語に翻訳される長い文章です。全角文字は二桁として数えられます。"}, false)
	f.SetHeaderField("Last_Translator", "Jane Doe <jane@example.org>")
	f.SetHeaderField("PO_Revision_Date", "2024-06-01 12:00+0000")
	f.SetHeaderField("X_Custom_Field", "yes")
	f.AddEntry(&Entry{Context: "new", HasContext: true, Msgid: "Brand new string", Msgstr: []string{"Toute nouvelle chaîne"}})
}

// TestGolden compares the output after edits with translate-toolkit's output
// for the same edits (testdata/golden_output.po, from gen_golden.py).
func TestGolden(t *testing.T) {
	f, input := mustParseFile(t, "testdata/input.po")
	if got := f.Bytes(); !bytes.Equal(got, input) {
		t.Fatalf("unedited round trip differs:\n%s", got)
	}
	applyGoldenEdits(t, f)
	want, err := os.ReadFile("testdata/golden_output.po")
	if err != nil {
		t.Fatal(err)
	}
	if got := f.Bytes(); !bytes.Equal(got, want) {
		t.Errorf("edited output differs from translate-toolkit's:\n--- got\n%s\n--- want\n%s", got, want)
	}
}

// TestMsgfmtAcceptsOutput checks the edited output with `msgfmt -c`.
func TestMsgfmtAcceptsOutput(t *testing.T) {
	msgfmt, err := exec.LookPath("msgfmt")
	if err != nil {
		t.Skip("msgfmt not installed")
	}
	f, _ := mustParseFile(t, "testdata/input.po")
	applyGoldenEdits(t, f)
	path := filepath.Join(t.TempDir(), "out.po")
	if err := os.WriteFile(path, f.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(msgfmt, "-c", "-o", os.DevNull, path)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("msgfmt -c: %v\n%s", err, out)
	}
}
