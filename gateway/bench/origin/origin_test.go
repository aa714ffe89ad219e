package origin

import (
	"testing"

	git "github.com/go-git/go-git/v5"
)

func TestCreate(t *testing.T) {
	files := map[string][]byte{"po/app.pot": []byte("msgid \"\"\nmsgstr \"\"\n"), "po/de.po": []byte("x\n")}
	bare, err := Create(t.TempDir(), files)
	if err != nil {
		t.Fatal(err)
	}
	r, err := git.PlainOpen(bare)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := r.Reference("refs/heads/"+Branch, true)
	if err != nil {
		t.Fatal(err)
	}
	c, err := r.CommitObject(ref.Hash())
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		f, err := c.File(name)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got, _ := f.Contents(); got != string(want) {
			t.Errorf("%s = %q, want %q", name, got, want)
		}
	}
}

func TestCommitAndRead(t *testing.T) {
	bare, err := Create(t.TempDir(), map[string][]byte{"a.txt": []byte("one\n")})
	if err != nil {
		t.Fatal(err)
	}
	if err := Commit(bare, t.TempDir(), map[string][]byte{"a.txt": []byte("two\n"), "b/c.txt": []byte("c\n")}, "Second"); err != nil {
		t.Fatal(err)
	}
	tests := []struct{ name, want string }{{"a.txt", "two\n"}, {"b/c.txt", "c\n"}}
	for _, tt := range tests {
		got, msg, err := Read(bare, tt.name)
		if err != nil || got != tt.want || msg != "Second" {
			t.Errorf("Read %s = %q, %q, %v; want %q, Second", tt.name, got, msg, err, tt.want)
		}
	}
	if _, _, err := Read(bare, "missing"); err == nil {
		t.Error("Read of a missing file succeeded")
	}
}
