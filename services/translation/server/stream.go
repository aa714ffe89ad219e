package server

import (
	"bytes"
	"errors"
	"io"

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
		LanguageCode: req.GetLanguageCode(), Format: req.GetFormat()})
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

// UploadFileStream gathers the pieces of an upload and merges it as
// UploadFile does.
func (s *Server) UploadFileStream(stream translationv1.TranslationService_UploadFileStreamServer) error {
	var req *translationv1.UploadFileRequest
	var content bytes.Buffer
	for {
		msg, err := stream.Recv()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if req == nil {
			if req = msg.GetRequest(); req == nil {
				return errs.ToStatus(errs.Invalid("request", "required", "The first message carries the request."))
			}
			content.Write(req.GetContent())
		}
		if content.Len()+len(msg.GetChunk()) > maxUploadStream {
			return errs.ToStatus(errs.Invalid("file", "max_size", "The file is too large."))
		}
		content.Write(msg.GetChunk())
	}
	if req == nil {
		return errs.ToStatus(errs.Invalid("request", "required", "The first message carries the request."))
	}
	req.Content = content.Bytes()
	resp, err := s.UploadFile(stream.Context(), req)
	if err != nil {
		return errs.ToStatus(err)
	}
	return stream.SendAndClose(&translationv1.UploadFileStreamResponse{Result: resp})
}
