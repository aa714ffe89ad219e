package workcopy

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/packfile"
	"github.com/go-git/go-git/v5/storage/memory"
)

// TestWritePackReadsBack writes objects of sizes around the header's
// boundaries (4 bits, then 7 per byte) and reads the pack back with
// go-git's parser: every object comes back with its type and content.
func TestWritePackReadsBack(t *testing.T) {
	src := memory.NewStorage()
	want := map[plumbing.Hash]string{}
	for _, n := range []int{0, 1, 15, 16, 127, 128, 2047, 2048, 1 << 20} {
		obj := src.NewEncodedObject()
		obj.SetType(plumbing.BlobObject)
		content := strings.Repeat("msgid \"x\"\n", n/10+1)[:n]
		w, err := obj.Writer()
		if err != nil {
			t.Fatal(err)
		}
		if _, err = io.WriteString(w, content); err != nil {
			t.Fatal(err)
		}
		if err = w.Close(); err != nil {
			t.Fatal(err)
		}
		h, err := src.SetEncodedObject(obj)
		if err != nil {
			t.Fatal(err)
		}
		want[h] = content
	}
	var hashes []plumbing.Hash
	for h := range want {
		hashes = append(hashes, h)
	}
	var pack bytes.Buffer
	if err := writePack(context.Background(), &pack, src, hashes); err != nil {
		t.Fatalf("writePack: %v", err)
	}
	dst := memory.NewStorage()
	if err := packfile.UpdateObjectStorage(dst, &pack); err != nil {
		t.Fatalf("read the pack back: %v", err)
	}
	for h, content := range want {
		obj, err := dst.EncodedObject(plumbing.BlobObject, h)
		if err != nil {
			t.Errorf("object %s (%d bytes): %v", h, len(content), err)
			continue
		}
		r, err := obj.Reader()
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		if string(got) != content {
			t.Errorf("object %s: %d bytes back, want %d", h, len(got), len(content))
		}
	}
}
