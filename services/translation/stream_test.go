package translation_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/internal/fixture"
)

// TestFileStreams moves a file of several chunks both ways: DownloadFile
// gives GetFile's bytes in pieces, UploadFileStream merges pieces as
// UploadFile merges the whole.
func TestFileStreams(t *testing.T) {
	const n = 12_000 // about 1.5 MiB: two chunks of at most 1 MiB
	var b strings.Builder
	b.WriteString("msgid \"\"\nmsgstr \"\"\n\"Content-Type: text/plain; charset=UTF-8\\n\"\n\"Language: cs\\n\"\n" +
		"\"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n\"\n")
	for i := range n {
		fmt.Fprintf(&b, "\n#: src/long.c:%d\nmsgid \"A long string number %d that makes the file large enough to need chunks of its own\"\nmsgstr \"\"\n", i, i)
	}
	files := map[string]string{"po/cs.po": b.String(), "po/greeter.pot": strings.Replace(b.String(), "\"Language: cs\\n\"\n", "", 1)}
	e := newEnv(t, true)
	e.catalog.Set(greeter(1, fixture.Origin(t, files)), project)
	if task := e.importNow(t, 1); task.GetError() != "" {
		t.Fatal(task.GetError())
	}
	ctx := t.Context()
	whole, err := e.client.GetFile(ctx, &translationv1.GetFileRequest{ComponentId: 1, LanguageCode: "cs"})
	if err != nil {
		t.Fatal(err)
	}
	stream, err := e.client.DownloadFile(ctx, &translationv1.DownloadFileRequest{ComponentId: 1, LanguageCode: "cs"})
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	var msgs int
	for {
		msg, msgErr := stream.Recv()
		if errors.Is(msgErr, io.EOF) {
			break
		}
		if msgErr != nil {
			t.Fatal(msgErr)
		}
		if msgs == 0 && (msg.GetFilename() != "po/cs.po" || msg.GetCommitTime() == nil) {
			t.Errorf("first message: %q %v", msg.GetFilename(), msg.GetCommitTime())
		}
		msgs++
		got.Write(msg.GetChunk())
	}
	if want := (len(whole.GetContent()) + 1<<20 - 1) >> 20; msgs != want || msgs < 2 || !bytes.Equal(got.Bytes(), whole.GetContent()) {
		t.Fatalf("%d messages, %d bytes; GetFile gave %d", msgs, got.Len(), len(whole.GetContent()))
	}

	// Upload the file with every string translated, in 512 KiB pieces.
	translated := strings.ReplaceAll(got.String(), "chunks of its own\"\nmsgstr \"\"", "chunks of its own\"\nmsgstr \"Přeloženo\"")
	up, err := e.client.UploadFileStream(ctx)
	if err != nil {
		t.Fatal(err)
	}
	data := []byte(translated)
	first := &translationv1.UploadFileStreamRequest{Request: &translationv1.UploadFileRequest{ComponentId: 1, LanguageCode: "cs", Method: "translate", Actor: "ana"}}
	for i := 0; i == 0 || len(data) > 0; i++ {
		k := min(len(data), 512<<10)
		msg := &translationv1.UploadFileStreamRequest{Chunk: data[:k]}
		if i == 0 {
			msg = first
			msg.Chunk = data[:k]
		}
		if err = up.Send(msg); err != nil {
			t.Fatal(err)
		}
		data = data[k:]
	}
	res, err := up.CloseAndRecv()
	if err != nil {
		t.Fatal(err)
	}
	if r := res.GetResult(); r.GetAccepted() != n || r.GetTotal() != n {
		t.Errorf("upload: %+v", r)
	}
}
