package server

import (
	"context"
	"errors"
	"google.golang.org/protobuf/types/known/timestamppb"
	"os"
	"path"
	"strings"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/po"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
)

// GetFile answers a translation file as in the repository, after
// committing the component's pending changes (as the reference does before
// a download): format "" or po gives the file, mo the compiled catalogue.
// A translation without a file (a bilingual source) answers no content.
func (s *Server) GetFile(ctx context.Context, req *translationv1.GetFileRequest) (*translationv1.GetFileResponse, error) {
	format := req.GetFormat()
	if format != "" && format != "po" && format != "mo" {
		return nil, errs.NotFoundf("Not found.")
	}
	comp, t, err := s.componentTranslation(ctx, req.GetComponentId(), req.GetLanguageCode())
	if err != nil {
		return nil, err
	}
	unlock := s.cfg.Repos.Lock(comp.GetId())
	defer unlock()
	repo, err := s.cfg.Repos.Open(comp.GetId())
	if err != nil {
		return nil, errs.New(errs.FailedPrecondition, "The repository is not available.")
	}
	if _, err = s.opCommit(ctx, comp, repo, ""); err != nil {
		return nil, err
	}
	if t.Filename == "" {
		return &translationv1.GetFileResponse{ContentType: "text/x-po"}, nil
	}
	data, err := repo.ReadFile(t.Filename)
	if errors.Is(err, os.ErrNotExist) {
		return nil, errs.NotFoundf("Not found.")
	}
	if err != nil {
		return nil, err
	}
	when, err := repo.HeadTime()
	if err != nil {
		return nil, err
	}
	out := &translationv1.GetFileResponse{Content: data, Filename: t.Filename, ContentType: "text/x-po",
		CommitTime: timestamppb.New(when.UTC())}
	if format != "mo" {
		return out, nil
	}
	f, err := po.Parse(data)
	if err != nil {
		return nil, errs.Wrap(errs.FailedPrecondition, err, "The translation file can not be parsed.")
	}
	out.Content, out.ContentType = f.MO(), "application/x-gettext-catalog"
	out.Filename = strings.TrimSuffix(t.Filename, path.Ext(t.Filename)) + ".mo"
	return out, nil
}
