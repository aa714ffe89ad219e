package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/tmsproject/tms/pkg/obs"
	"github.com/tmsproject/tms/pkg/textstat"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/filemask"
	"github.com/tmsproject/tms/services/translation/formats"
	"github.com/tmsproject/tms/services/translation/store"
	"github.com/tmsproject/tms/services/translation/workcopy"
	"github.com/tmsproject/tms/services/translation/writeback"
)

// Repository change actions (COMPAT.md §7).
const (
	actionCommitted   = typev1.ChangeAction_CHANGE_ACTION_COMMIT
	actionPushed      = typev1.ChangeAction_CHANGE_ACTION_PUSH
	actionReset       = typev1.ChangeAction_CHANGE_ACTION_RESET
	actionMerged      = typev1.ChangeAction_CHANGE_ACTION_MERGE
	actionRebased     = typev1.ChangeAction_CHANGE_ACTION_REBASE
	actionMergeFailed = typev1.ChangeAction_CHANGE_ACTION_FAILED_MERGE
	actionRebaseFail  = typev1.ChangeAction_CHANGE_ACTION_FAILED_REBASE
	actionPushFailed  = typev1.ChangeAction_CHANGE_ACTION_FAILED_PUSH
	actionAlert       = typev1.ChangeAction_CHANGE_ACTION_ALERT
	actionCleanup     = typev1.ChangeAction_CHANGE_ACTION_REPO_CLEANUP
)

// written is one translation file written by a commit, with the edits it
// carries.
type written struct {
	t       store.Translation
	message string
	edits   []edit
}

// commitLocked writes the pending work of a component into its files and
// records it as ONE commit: the author of the most recent pending edit is
// the commit author, the other editors Co-authored-by trailers, the message
// the component's commit_message rendered per translation. The caller holds
// the lock and has opened repo.
// It reports whether a commit was made.
func (s *Server) commitLocked(ctx context.Context, comp *catalogv1.Component, repo *workcopy.Repo, actor string) (_ bool, err error) {
	defer observeSince(obs.CommitDuration, time.Now(), &err)
	work, err := s.cfg.Store.PendingWork(ctx, comp.GetId())
	if err != nil {
		return false, err
	}
	staged, err := stageTranslationFiles(repo, comp)
	if err != nil {
		return false, err
	}
	if len(work) == 0 && staged == 0 {
		return false, nil
	}
	mc := s.newMessageContext(ctx, comp)
	var done []store.Committed
	var files []written
	for _, p := range work {
		c, w, werr := s.writeTranslation(ctx, repo, comp, p, mc)
		if werr != nil {
			return false, werr
		}
		done = append(done, c)
		if w != nil {
			files = append(files, *w)
		}
	}
	committed, err := s.gitCommit(ctx, repo, files, mc)
	if err != nil {
		return false, err
	}
	var changes []*changelogv1.Change
	if committed {
		for _, w := range files {
			changes = append(changes, committedChange(comp, w.t.LanguageCode, actor))
		}
	}
	if err := s.cfg.Store.FinishCommit(ctx, comp.GetId(), done, changes); err != nil {
		return false, err
	}
	s.cfg.Notify()
	return committed, nil
}

// committedChange is the "Changes committed" record of a translation.
func committedChange(comp *catalogv1.Component, code, actor string) *changelogv1.Change {
	c := change(comp, actionCommitted, actor, nil)
	c.LanguageCode = code
	return c
}

// stageTranslationFiles stages translation files added or removed in the
// work tree since the last commit (AddTranslation, DeleteTranslation).
func stageTranslationFiles(repo *workcopy.Repo, comp *catalogv1.Component) (int, error) {
	mask, err := filemask.Parse(comp.GetFilemask())
	if err != nil {
		return 0, nil
	}
	return repo.StageMatching(func(path string) bool {
		_, ok := mask.Code(path)
		return ok
	})
}

// writeTranslation applies one translation's pending work to its file.
// The file is written (and staged) only when its content changes.
func (s *Server) writeTranslation(ctx context.Context, repo *workcopy.Repo, comp *catalogv1.Component, p store.Pending, mc *messageContext) (store.Committed, *written, error) {
	c := p.Committed()
	t := p.Translation
	mono := comp.GetTemplate() != ""
	// Bilingual source strings live in the template (or new_base), which
	// Weblate does not write; their pending flags are simply cleared. The
	// source strings of a monolingual component are the template's.
	if t.Filename == "" || (t.IsSource && !mono) {
		return c, nil, nil
	}
	format, err := formats.Lookup(comp.GetFileFormat())
	if err != nil {
		return c, nil, err
	}
	data, err := repo.ReadFile(t.Filename)
	if errors.Is(err, os.ErrNotExist) {
		return c, nil, nil
	}
	if err != nil {
		return c, nil, err
	}
	f, err := format.Parse(data, formats.Language{Code: fileLanguageCode(comp, t)})
	if err != nil {
		return c, nil, fmt.Errorf("%s: %w", t.Filename, err)
	}
	res, err := writeback.Apply(f, unitsOf(p.Units), removalsOf(p.Removals),
		writeback.Mode{Plurals: t.PluralNumber, Monolingual: mono})
	if err != nil {
		return c, nil, fmt.Errorf("%s: %w", t.Filename, err)
	}
	if !res.Changed() {
		return c, nil, nil
	}
	edits := pendingEdits(p)
	translator := mc.author(ctx, latest(edits).user)
	writeback.UpdateHeader(f, s.header(ctx, t, f, mc, translator))
	out := f.Bytes()
	if err := repo.WriteFile(t.Filename, out); err != nil {
		return c, nil, err
	}
	c.Revision = workcopy.BlobHash(out)
	msg := mc.render(ctx, comp.GetEffectiveCommitMessage(), t, signatureText(translator))
	return c, &written{t: t, message: msg, edits: edits}, nil
}

func unitsOf(units []store.Unit) []writeback.Unit {
	out := make([]writeback.Unit, len(units))
	for i, u := range units {
		out[i] = writeback.Unit{Context: u.Context, Source: store.Split(u.Source), Target: store.Split(u.Target), State: u.State}
	}
	return out
}

func removalsOf(rs []store.Removal) []writeback.Key {
	out := make([]writeback.Key, len(rs))
	for i, r := range rs {
		out[i] = writeback.Key{Context: r.Context, Source: store.Split(r.Source)}
	}
	return out
}

// header is what Weblate's update_units puts in the header of a saved
// file; translator is the author of the translation's latest pending edit.
func (s *Server) header(ctx context.Context, t store.Translation, f formats.File, mc *messageContext, translator workcopy.Signature) writeback.Header {
	h := writeback.Header{
		LastTranslator: signatureText(translator),
		Language:       fileLanguageCode(mc.comp, t), Revised: time.Now().UTC(), Generator: s.cfg.Git.Generator,
		ReportBugsTo: mc.comp.GetReportSourceBugs(),
	}
	lng := mc.language(ctx, t.LanguageCode)
	if hf, ok := f.(formats.HeaderFile); ok {
		h.PluralForms = headerPluralForms(hf.HeaderField("Plural-Forms"), t, lng)
	}
	if mc.project.GetSetLanguageTeam() {
		h.LanguageTeam = fmt.Sprintf("%s <%s>", lng.GetName(),
			s.cfg.Git.translationURL(t.ProjectSlug, t.ComponentSlug, t.LanguageCode))
	}
	return h
}

// fileLanguageCode is the language code as the file's name spells it
// (zh_TW where the service says zh_Hant): the reference writes the
// translation's own code into the Language header, which is the one of
// its file name.
func fileLanguageCode(comp *catalogv1.Component, t store.Translation) string {
	if mask, err := filemask.Parse(comp.GetFilemask()); err == nil {
		if code, ok := mask.Code(t.Filename); ok {
			return code
		}
	}
	return t.LanguageCode
}

// headerPluralForms is the translation's plural as the reference writes
// it: the language's rule in its own spelling when the file's rule was the
// same, else the file's own rule (a one-form file in a two-form language
// stays one-form). Rows imported before the plural was kept fall back to
// the file's header when its count agrees, else the language's rule.
func headerPluralForms(current string, t store.Translation, lng *catalogv1.Language) string {
	if t.PluralFormula != "" {
		return fmt.Sprintf("nplurals=%d; plural=%s;", t.PluralNumber, t.PluralFormula)
	}
	var have int
	if _, err := fmt.Sscanf(strings.TrimSpace(current), "nplurals=%d;", &have); err == nil && have == t.PluralNumber {
		return current
	}
	if lng.GetPluralFormula() == "" {
		return current
	}
	return fmt.Sprintf("nplurals=%d; plural=%s;", lng.GetPluralNumber(), lng.GetPluralFormula())
}

// gitCommit commits the staged files with one message per translation,
// credited to the editors of the pending work (credits).
func (s *Server) gitCommit(ctx context.Context, repo *workcopy.Repo, files []written, mc *messageContext) (bool, error) {
	slices.SortStableFunc(files, func(a, b written) int { return lastChange(a.t).Compare(lastChange(b.t)) })
	var parts []string
	var edits []edit
	for _, w := range files {
		parts = append(parts, strings.TrimRight(w.message, "\n"))
		edits = append(edits, w.edits...)
	}
	if len(parts) == 0 {
		parts = append(parts, mc.renderComponent(ctx))
	}
	msg := strings.Join(parts, "\n\n")
	author, trailers := mc.credits(ctx, edits)
	if len(trailers) > 0 {
		msg += "\n\n" + strings.Join(trailers, "\n")
	}
	author.When = time.Now()
	_, err := repo.Commit(msg+"\n", author, s.cfg.Git.committer())
	if errors.Is(err, workcopy.ErrNothingToCommit) {
		return false, nil
	}
	return err == nil, err
}

func lastChange(t store.Translation) time.Time {
	if t.LastChange == nil {
		return time.Time{}
	}
	return *t.LastChange
}

// percent is COMPAT.md §6 (textstat.Percent), but 100.0 for an empty
// translation.
func percent(n, total int64) float64 {
	if total == 0 {
		return 100
	}
	return textstat.Percent(n, total)
}
