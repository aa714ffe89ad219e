package server

import (
	"errors"
	"io"
	"os"

	"github.com/tmsproject/tms/pkg/errs"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// fileChunk is the size of each piece of a streamed file: well below any
// gRPC message limit, large enough that a big file takes few messages.
const fileChunk = 1 << 20

// maxUploadStream bounds what one UploadFileStream may send (far above any
// translation file; a bound keeps one caller from filling the memory).
const maxUploadStream = 1 << 30

// DownloadFile streams GetFile's answer in pieces, so that no file is too
// large for a gRPC message.
func (s *Server) DownloadFile(req *translationv1.DownloadFileRequest, stream translationv1.TranslationService_DownloadFileServer) error {
	f, err := s.GetFile(stream.Context(), &translationv1.GetFileRequest{ComponentId: req.GetComponentId(),
		LanguageCode: req.GetLanguageCode(), Format: req.GetFormat(), File: req.GetFile()})
	if err != nil {
		return errs.ToStatus(err)
	}
	first := &translationv1.DownloadFileResponse{Filename: f.GetFilename(), ContentType: f.GetContentType(),
		CommitTime: f.GetCommitTime()}
	content := f.GetContent()
	for {
		n := min(len(content), fileChunk)
		msg := first
		if msg == nil {
			msg = &translationv1.DownloadFileResponse{}
		}
		first, msg.Chunk, content = nil, content[:n], content[n:]
		if err := stream.Send(msg); err != nil {
			return err
		}
		if len(content) == 0 {
			return nil
		}
	}
}

// UploadFileStream gathers the pieces of an upload in a temporary file
// and merges it as UploadFile does: a file of any size waits on disk, not
// in memory, and is read from there (streamed, where its format allows).
func (s *Server) UploadFileStream(stream translationv1.TranslationService_UploadFileStreamServer) error {
	spool, err := os.CreateTemp("", "tms-upload-*")
	if err != nil {
		return errs.ToStatus(err)
	}
	defer func() { _ = spool.Close(); _ = os.Remove(spool.Name()) }()
	req, size, err := receiveUpload(stream, spool)
	if err != nil {
		return errs.ToStatus(err)
	}
	content := uploadContent{size: size, open: func() (io.ReadCloser, error) { return os.Open(spool.Name()) }}
	resp, err := s.uploadFile(stream.Context(), req, content)
	if err != nil {
		return errs.ToStatus(err)
	}
	return stream.SendAndClose(&translationv1.UploadFileStreamResponse{Result: resp})
}

// receiveUpload writes the pieces of an upload to w and returns its
// request (the first message's) and size.
func receiveUpload(stream translationv1.TranslationService_UploadFileStreamServer, w io.Writer) (*translationv1.UploadFileRequest, int64, error) {
	var req *translationv1.UploadFileRequest
	var size int64
	for {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, 0, err
		}
		chunk := msg.GetChunk()
		if req == nil {
			if req = msg.GetRequest(); req == nil {
				return nil, 0, errs.Invalid("request", "required", "The first message carries the request.")
			}
			chunk = append(req.GetContent(), chunk...)
			req.Content = nil
		}
		if size += int64(len(chunk)); size > maxUploadStream {
			return nil, 0, errs.Invalid("file", "max_size", "The file is too large.")
		}
		if _, err = w.Write(chunk); err != nil {
			return nil, 0, err
		}
	}
	if req == nil {
		return nil, 0, errs.Invalid("request", "required", "The first message carries the request.")
	}
	return req, size, nil
}
