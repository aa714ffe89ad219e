package server

import (
	"context"
	"errors"
	"fmt"

	"github.com/tmsproject/tms/pkg/errs"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/filemask"
	"github.com/tmsproject/tms/services/translation/formats"
	"github.com/tmsproject/tms/services/translation/store"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// actionSourceUpload is the record of each file a source upload re-read
// (the reference's ActionEvents.SOURCE_UPLOAD, passed to its rescan).
const actionSourceUpload = typev1.ChangeAction_CHANGE_ACTION_SOURCE_UPLOAD

// Refusals of method "source", in the reference's words (its upload
// serializer's check_perms).
const (
	errSourceUploadOnly  = "Source upload is supported only on source language."
	errMethodUnavailable = "This method is not available here. Check your permissions or use different translation object."
	errAddToSource       = "This method is not available here. Try adding to the source instead of the translation."
)

// checkSourceUpload is the reference's check of method "source" besides
// the permissions: the source-language translation of a component whose
// format can bring translation files up to a new template (PO: msgmerge).
func checkSourceUpload(t store.Translation, format formats.Format) (formats.BilingualUpdater, error) {
	if !t.IsSource {
		return nil, errs.Invalid("method", "invalid", errSourceUploadOnly)
	}
	updater, ok := format.(formats.BilingualUpdater)
	if !ok {
		return nil, errs.Invalid("method", "invalid", errMethodUnavailable)
	}
	return updater, nil
}

// sourceFile is a file a source upload writes.
type sourceFile struct {
	path string
	data []byte
}

// uploadSource is Weblate's handle_source: pending changes are committed;
// every translation file is merged with the uploaded template (msgmerge
// --previous: new strings empty, changed ones fuzzy with the previous
// source, removed ones obsolete); the component's new_base, if any, is
// replaced by the upload; all of it is one commit as the uploader, and the
// files are re-read with "Source updated" records. Every merge is computed
// before anything is written: a file that cannot be merged leaves the
// repository and the database as they were, and so does a failure later
// on (the writes are undone, or the commit reset and the re-read's
// transaction rolled back).
// The answer counts the source strings afterwards: (0, 0, n, n).
func (s *Server) uploadSource(ctx context.Context, up *upload) error {
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
	files, err := s.mergeSource(ctx, up, repo)
	if err != nil {
		return err
	}
	head, err := repo.Head()
	if err != nil {
		return err
	}
	committed, err := s.commitSource(ctx, up, repo, files)
	if err != nil {
		return err
	}
	if committed {
		if err = s.rescanSource(ctx, up, repo, head); err != nil {
			return err
		}
	}
	src, err := s.cfg.Store.GetTranslationByID(ctx, up.t.ID)
	if err != nil {
		return err
	}
	up.counts = [4]int64{0, 0, src.Total, src.Total}
	return nil
}

// mergeSource computes, without writing, the files the upload changes:
// each translation file merged with it, then the new_base replaced.
func (s *Server) mergeSource(ctx context.Context, up *upload, repo *workcopy.Repo) ([]sourceFile, error) {
	ts, _, err := s.cfg.Store.ListTranslations(ctx, []int64{up.comp.GetId()}, 0, 0, store.Hidden{})
	if err != nil {
		return nil, err
	}
	template := up.data
	var files []sourceFile
	for _, t := range ts {
		if t.IsSource || t.Filename == "" {
			continue
		}
		data, err := repo.ReadFile(t.Filename)
		if err != nil {
			return nil, errs.Wrap(errs.FailedPrecondition, err, fmt.Sprintf("Could not read %s.", t.Filename))
		}
		merged, err := up.updater.UpdateBilingual(data, template)
		if err != nil {
			return nil, errs.Invalid("file", "invalid", fmt.Sprintf("Could not update %s: %v", t.Filename, err))
		}
		files = append(files, sourceFile{path: t.Filename, data: merged})
	}
	if base := up.comp.GetNewBase(); base != "" {
		if _, err := filemask.SafePath(repo.Dir, base); err != nil {
			return nil, errs.New(errs.FailedPrecondition, "The component base file is not available.")
		}
		files = append(files, sourceFile{path: base, data: template})
	}
	return files, nil
}

// commitSource writes the files and commits them as the uploader with the
// component's commit message for the source translation; false when they
// were already so. A failure undoes the writes.
func (s *Server) commitSource(ctx context.Context, up *upload, repo *workcopy.Repo, files []sourceFile) (bool, error) {
	paths := make([]string, len(files))
	for i, f := range files {
		paths[i] = f.path
	}
	undo := func(err error) (bool, error) {
		if rerr := repo.Restore(paths); rerr != nil {
			return false, errors.Join(err, fmt.Errorf("undo the writes: %w", rerr))
		}
		return false, err
	}
	for _, f := range files {
		if err := repo.WriteFile(f.path, f.data); err != nil {
			return undo(err)
		}
	}
	mc := s.newMessageContext(ctx, up.comp)
	author := mc.author(ctx, up.req.GetActor())
	msg := mc.render(ctx, up.comp.GetEffectiveCommitMessage(), up.t, signatureText(author))
	_, err := repo.Commit(msg, author, s.cfg.Git.committer())
	if errors.Is(err, workcopy.ErrNothingToCommit) {
		return false, nil
	}
	if err != nil {
		return undo(err)
	}
	return true, nil
}

// rescanSource re-reads the committed files ("Source updated" for each)
// and records the commit, in one database transaction. On a failure the
// transaction leaves the database as it was and the commit is reset.
func (s *Server) rescanSource(ctx context.Context, up *upload, repo *workcopy.Repo, head string) error {
	err := s.cfg.Store.Atomic(ctx, func(tx *store.Store) error {
		if err := s.reimportIn(ctx, tx, up.comp, repo, true, actionSourceUpload); err != nil {
			return err
		}
		return tx.RecordChanges(ctx, committedChange(up.comp, up.t.LanguageCode, up.req.GetActor()))
	})
	if err == nil {
		return nil
	}
	if rerr := repo.ResetTo(head); rerr != nil {
		return errors.Join(err, fmt.Errorf("reset the source upload commit: %w", rerr))
	}
	return err
}
