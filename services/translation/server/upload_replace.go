package server

import (
	"context"
	"errors"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// uploadReplace is Weblate's handle_replace: pending changes are committed,
// the file is replaced by the upload and committed as the uploader, and
// the translation re-read from it (string changes recorded).
func (s *Server) uploadReplace(ctx context.Context, up *upload) error {
	release, err := s.holdRepo(ctx, up.comp.GetId())
	if err != nil {
		return err
	}
	defer release()
	repo, err := s.openRepo(ctx, up.comp.GetId())
	if err != nil {
		return errs.New(errs.FailedPrecondition, "The repository is not available.")
	}
	if _, err = s.commitLocked(ctx, up.comp, repo, up.req.GetActor()); err != nil {
		return err
	}
	if err = repo.WriteFile(up.t.Filename, up.file.Bytes()); err != nil {
		return err
	}
	mc := s.newMessageContext(ctx, up.comp)
	author := mc.author(ctx, up.req.GetActor())
	msg := mc.render(ctx, up.comp.GetEffectiveCommitMessage(), up.t, signatureText(author))
	_, err = repo.Commit(msg, author, s.cfg.Git.committer())
	if errors.Is(err, workcopy.ErrNothingToCommit) {
		up.counts[2] = up.t.Total
		return nil
	}
	if err != nil {
		return err
	}
	if err = s.reimport(ctx, up.comp, repo, true); err != nil {
		return err
	}
	if err = s.cfg.Store.RecordChanges(ctx, committedChange(up.comp, up.t.LanguageCode, up.req.GetActor())); err != nil {
		return err
	}
	t, err := s.cfg.Store.GetTranslationByID(ctx, up.t.ID)
	if err != nil {
		return err
	}
	up.counts[2] = t.Total
	return nil
}
