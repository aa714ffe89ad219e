package server

import (
	"context"
	"errors"
	"os"
	"path"
	"strings"

	"google.golang.org/protobuf/types/known/timestamppb"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/formats"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// GetFile answers a translation file as in the repository, after
// committing the component's pending changes (as the reference does before
// a download): format "" or the component's file format gives the file,
// mo the compiled catalogue of a PO file, any other format the translation
// converted by an exporter (exportFile). A translation without a file (a
// bilingual source) answers no content.
func (s *Server) GetFile(ctx context.Context, req *translationv1.GetFileRequest) (*translationv1.GetFileResponse, error) {
	if req.GetFile() != translationv1.ComponentFile_COMPONENT_FILE_UNSPECIFIED {
		return s.componentFile(ctx, req.GetComponentId(), req.GetFile())
	}
	comp, t, err := s.componentTranslation(ctx, req.GetComponentId(), req.GetLanguageCode())
	if err != nil {
		return nil, err
	}
	fileFormat, err := formats.Lookup(comp.GetFileFormat())
	if err != nil {
		return nil, errs.Wrap(errs.FailedPrecondition, err, "The file format of the component is not supported.")
	}
	format := req.GetFormat()
	if format != "" && format != fileFormat.ID() && format != "mo" {
		return s.exportFile(ctx, comp, t, format)
	}
	repo, release, err := s.committedRepo(ctx, comp)
	if err != nil {
		return nil, err
	}
	defer release()
	if t.Filename == "" {
		return &translationv1.GetFileResponse{ContentType: fileFormat.ContentType()}, nil
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
	out := &translationv1.GetFileResponse{Content: data, Filename: t.Filename, ContentType: fileFormat.ContentType(),
		CommitTime: timestamppb.New(when.UTC())}
	if format != "mo" {
		return out, nil
	}
	f, err := fileFormat.Parse(data, formats.Language{Code: t.LanguageCode})
	if err != nil {
		return nil, errs.Wrap(errs.FailedPrecondition, err, "The translation file can not be parsed.")
	}
	c, ok := f.(formats.Compiler)
	if !ok {
		return nil, errs.NotFoundf("Not found.")
	}
	var ext string
	out.Content, ext, out.ContentType = c.Compile()
	out.Filename = strings.TrimSuffix(t.Filename, path.Ext(t.Filename)) + ext
	return out, nil
}

// componentFile reads a component's template or new-translation base as
// committed (pending changes are committed first, as for a translation's
// file, since an edited template is one of them). The answers follow
// Weblate's monolingual_base and new_template: the template in its
// format's type, the base as application/binary.
func (s *Server) componentFile(ctx context.Context, componentID int64, which translationv1.ComponentFile) (*translationv1.GetFileResponse, error) {
	comp, err := s.component(ctx, componentID)
	if err != nil {
		return nil, err
	}
	path, missing, contentType := comp.GetTemplate(), "No template found!", ""
	if which == translationv1.ComponentFile_COMPONENT_FILE_NEW_BASE {
		path, missing, contentType = comp.GetNewBase(), "No file found!", "application/binary"
	}
	if path == "" {
		return nil, errs.NotFoundf("%s", missing)
	}
	if contentType == "" {
		fileFormat, lookupErr := formats.Lookup(comp.GetFileFormat())
		if lookupErr != nil {
			return nil, errs.Wrap(errs.FailedPrecondition, lookupErr, "The file format of the component is not supported.")
		}
		contentType = fileFormat.ContentType()
	}
	repo, release, err := s.committedRepo(ctx, comp)
	if err != nil {
		return nil, err
	}
	defer release()
	data, err := repo.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, errs.NotFoundf("%s", missing)
	}
	if err != nil {
		return nil, err
	}
	when, err := repo.HeadTime()
	if err != nil {
		return nil, err
	}
	return &translationv1.GetFileResponse{Content: data, Filename: path, ContentType: contentType,
		CommitTime: timestamppb.New(when.UTC())}, nil
}

// committedRepo holds comp's repository with its pending changes
// committed, so that a file read from it is what a pull would get; release
// lets the repository go.
func (s *Server) committedRepo(ctx context.Context, comp *catalogv1.Component) (*workcopy.Repo, func(), error) {
	release, err := s.holdRepo(ctx, comp.GetId())
	if err != nil {
		return nil, nil, err
	}
	repo, err := s.openRepo(ctx, comp.GetId())
	if err != nil {
		release()
		return nil, nil, errs.New(errs.FailedPrecondition, "The repository is not available.")
	}
	if _, err = s.opCommit(ctx, comp, repo, ""); err != nil {
		release()
		return nil, nil, err
	}
	return repo, release, nil
}
