package rest

import (
	"context"
	"errors"
	"io"
	"net/http"

	"google.golang.org/grpc"

	"github.com/tmsproject/tms/pkg/grpcx"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

type uploadJSON struct {
	NotFound int64 `json:"not_found"`
	Skipped  int64 `json:"skipped"`
	Accepted int64 `json:"accepted"`
	Total    int64 `json:"total"`
	Result   bool  `json:"result"`
	Count    int64 `json:"count"`
}

// uploadTranslationFile merges a multipart upload (file, method, conflicts,
// fuzzy) into a translation (COMPAT.md §5). The file streams to the
// service in chunks, whatever its size up to maxUpload.
func (g *gateway) uploadTranslationFile(c *call) error {
	comp, t, err := c.pathTranslation()
	if err != nil {
		return err
	}
	if err = c.authorizePath("upload.perform"); err != nil {
		return err
	}
	b, done, err := c.readUploadBody()
	if err != nil {
		return err
	}
	defer done()
	f := b.requiredFile("file")
	method, _ := b.str("method")
	conflicts, _ := b.str("conflicts")
	fuzzy, _ := b.str("fuzzy")
	if err = b.err(); err != nil {
		return err
	}
	if f.hdr.Size == 0 {
		b.errs.Add("file", "empty", "The submitted file is empty.")
		return b.err()
	}
	resp, err := g.streamUpload(c, f, &translationv1.UploadFileRequest{
		ComponentId: comp.GetId(), LanguageCode: t.GetLanguageCode(),
		Method: method, Conflicts: conflicts, Fuzzy: fuzzy, Actor: c.actor()})
	if err != nil {
		return err
	}
	return c.write(http.StatusOK, uploadJSON{NotFound: resp.GetNotFound(), Skipped: resp.GetSkipped(),
		Accepted: resp.GetAccepted(), Total: resp.GetTotal(), Result: resp.GetResult(), Count: resp.GetCount()})
}

// streamUpload sends the file of req to the service in chunks: req first
// (with no content), then the file.
func (g *gateway) streamUpload(c *call, f uploadedFile, req *translationv1.UploadFileRequest) (*translationv1.UploadFileResponse, error) {
	file, err := f.hdr.Open()
	if err != nil {
		return nil, err
	}
	defer func() { _ = file.Close() }() // read only
	ctx, cancel := context.WithTimeout(c.ctx, grpcx.LongTimeout)
	defer cancel()
	stream, err := g.cfg.Translation.UploadFileStream(ctx)
	if err != nil {
		return nil, err
	}
	if err = stream.Send(&translationv1.UploadFileStreamRequest{Request: req}); err != nil {
		return nil, streamError(stream, err)
	}
	err = sendChunks(file, func(chunk []byte) error {
		return stream.Send(&translationv1.UploadFileStreamRequest{Chunk: chunk})
	})
	if err != nil {
		return nil, streamError(stream, err)
	}
	resp, err := stream.CloseAndRecv()
	if err != nil {
		return nil, err
	}
	return resp.GetResult(), nil
}

// streamError is the service's answer when a send failed because the
// stream ended (io.EOF): the status comes with CloseAndRecv.
func streamError(stream grpc.ClientStreamingClient[translationv1.UploadFileStreamRequest, translationv1.UploadFileStreamResponse], err error) error {
	if errors.Is(err, io.EOF) {
		_, err = stream.CloseAndRecv()
	}
	return err
}
