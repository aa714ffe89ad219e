package server

import (
	"context"
	"errors"

	"github.com/tmsproject/tms/pkg/errs"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// uploadReplace is Weblate's handle_replace: pending changes are committed,
// the file is replaced by the upload and committed as the uploader, and
// the translation re-read from it (string changes recorded).
func (s *Server) uploadReplace(ctx context.Context, up *upload) error {
	if up.t.Filename == "" || up.t.IsSource {
		return errs.Invalid("method", "invalid", "The source strings can not be replaced by an upload.")
	}
	unlock := s.cfg.Repos.Lock(up.comp.GetId())
	defer unlock()
	repo, err := s.cfg.Repos.Open(up.comp.GetId())
	if err != nil {
		return errs.New(errs.FailedPrecondition, "The repository is not available.")
	}
	if _, err := s.commitLocked(ctx, up.comp, up.req.GetActor()); err != nil {
		return err
	}
	if err := repo.WriteFile(up.t.Filename, up.file.Bytes()); err != nil {
		return err
	}
	mc := s.newMessageContext(ctx, up.comp)
	author := s.author(ctx, up.req.GetActor())
	_, err = repo.Commit(mc.render(ctx, up.comp.GetCommitMessage(), up.t), author, s.cfg.Git.committer())
	if errors.Is(err, workcopy.ErrNothingToCommit) {
		up.counts[2] = up.t.Total
		return nil
	}
	if err != nil {
		return err
	}
	if err := s.reimport(ctx, up.comp, repo, true); err != nil {
		return err
	}
	err = s.cfg.Store.RecordChanges(ctx, &changelogv1.Change{Action: actionCommitted, ProjectSlug: up.t.ProjectSlug,
		ComponentSlug: up.t.ComponentSlug, LanguageCode: up.t.LanguageCode, User: up.req.GetActor()})
	if err != nil {
		return err
	}
	t, err := s.cfg.Store.GetTranslationByID(ctx, up.t.ID)
	if err != nil {
		return err
	}
	up.counts[2] = t.Total
	return nil
}
