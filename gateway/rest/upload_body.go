package rest

import (
	"errors"
	"fmt"
	"io"
	"mime"
	"mime/multipart"
	"net/http"
)

// Uploaded files may be far larger than other bodies: a translation of
// 200k strings is tens of MiB. Parts above uploadMemory wait on disk, not
// in memory, and reach the service in chunks (UploadFileStream).
const (
	maxUpload    = 512 << 20
	uploadMemory = 8 << 20
	uploadChunk  = 1 << 20
)

// uploadedFile is the file part of a multipart upload, still on disk or
// in memory.
type uploadedFile struct{ hdr *multipart.FileHeader }

// readUploadBody is readBody for routes that take a file: a multipart
// body may be up to maxUpload (413 beyond) and its file stays a part to
// open; other bodies go through readBody. done releases the parts.
func (c *call) readUploadBody() (b *body, done func(), err error) {
	mt, _, _ := mime.ParseMediaType(c.r.Header.Get("Content-Type"))
	if mt != "multipart/form-data" {
		b, err = c.readBody()
		return b, func() {}, err
	}
	c.r.Body = http.MaxBytesReader(c.w, c.r.Body, maxUpload)
	if err := c.r.ParseMultipartForm(uploadMemory); err != nil {
		if tooLarge := (*http.MaxBytesError)(nil); errors.As(err, &tooLarge) {
			return nil, func() {}, clientError(http.StatusRequestEntityTooLarge, "request_too_large",
				fmt.Sprintf("Request body exceeds %d MiB.", maxUpload>>20))
		}
		return nil, func() {}, clientError(http.StatusBadRequest, "parse_error", "Multipart form parse error - "+err.Error())
	}
	form := c.r.MultipartForm
	b = &body{fields: map[string]any{}}
	if err := b.setForm(form.Value); err != nil {
		_ = form.RemoveAll()
		return nil, func() {}, err
	}
	for name, files := range form.File {
		if len(files) > 0 && badText(files[0].Filename) {
			_ = form.RemoveAll()
			return nil, func() {}, invalidText(name)
		}
		if len(files) > 0 {
			b.fields[name] = uploadedFile{hdr: files[0]}
		}
	}
	return b, func() { _ = form.RemoveAll() }, nil
}

// sendChunks reads f to its end in uploadChunk pieces; send gets each.
func sendChunks(f io.Reader, send func([]byte) error) error {
	buf := make([]byte, uploadChunk)
	for {
		n, err := io.ReadFull(f, buf)
		if n > 0 {
			if serr := send(buf[:n]); serr != nil {
				return serr
			}
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
