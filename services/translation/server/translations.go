package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"google.golang.org/protobuf/proto"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/textstat"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/filemask"
	"github.com/tmsproject/tms/services/translation/formats"
	"github.com/tmsproject/tms/services/translation/importer"
	"github.com/tmsproject/tms/services/translation/store"
	"github.com/tmsproject/tms/services/translation/workcopy"
)

// AddTranslation creates a language file from new_base in the working copy
// (committed with the next commit) and its translation; a caller acting
// for a user needs translation.add on the component.
func (s *Server) AddTranslation(ctx context.Context, req *translationv1.AddTranslationRequest) (*translationv1.AddTranslationResponse, error) {
	comp, err := s.component(ctx, req.GetComponentId())
	if err != nil {
		return nil, err
	}
	if err = s.require(ctx, "translation.add", comp, ""); err != nil {
		return nil, err
	}
	if err = s.newLanguagePolicy(ctx, comp); err != nil {
		return nil, err
	}
	if req.GetLanguageCode() == "" {
		return nil, errs.Invalid("language_code", "required", "This field is required.")
	}
	lng, err := s.languages().GetLanguage(ctx, req.GetLanguageCode())
	if err != nil {
		if errs.FromStatus(err).Kind == errs.NotFound {
			return nil, errs.Invalid("language_code", "invalid", fmt.Sprintf("No language code %q found!", req.GetLanguageCode()))
		}
		return nil, err
	}
	if _, err = s.cfg.Store.GetTranslation(ctx, comp.GetId(), lng.GetCode()); err == nil {
		return nil, errs.Invalid("language_code", "invalid", "Translation already exists.")
	}
	if comp.GetNewBase() == "" && comp.GetTemplate() == "" {
		return nil, errs.New(errs.FailedPrecondition, "Adding new translations is not possible: the component has no base file for them.")
	}
	unlock, err := s.lockLive(ctx, comp)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if rerr := s.refreshRepo(ctx, comp.GetId()); rerr != nil {
		return nil, rerr
	}
	t, err := s.addTranslation(ctx, comp, lng, req.GetActor())
	if err != nil {
		return nil, err
	}
	s.cfg.Notify()
	return &translationv1.AddTranslationResponse{Translation: translationProto(t)}, nil
}

// errNewLanguageRefused is Weblate's refusal of a new language the
// component's policy does not let the caller add.
const errNewLanguageRefused = "You do not have permissions to add new translation file."

// newLanguagePolicy applies the component's effective new-language policy
// as Weblate's can_add_new_language does: unless it is "add", only those
// who may edit the component add languages (contact, url and none leave
// it to them).
func (s *Server) newLanguagePolicy(ctx context.Context, comp *catalogv1.Component) error {
	if comp.GetEffectiveNewLang() == "add" {
		return nil
	}
	ok, err := s.may(ctx, "component.edit", comp, "", true)
	return orDeniedIf(ok, err, errNewLanguageRefused)
}

func (s *Server) addTranslation(ctx context.Context, comp *catalogv1.Component, lng *catalogv1.Language, actor string) (store.Translation, error) {
	f, err := s.newLanguageFilePath(comp, lng)
	if err != nil {
		return store.Translation{}, err
	}
	if lng, err = s.formatPlural(ctx, comp, lng); err != nil {
		return store.Translation{}, err
	}
	content, units, err := s.renderNewBase(ctx, comp, lng)
	if err != nil {
		return store.Translation{}, err
	}
	if err = os.MkdirAll(filepath.Dir(f.full), 0o755); err != nil {
		return store.Translation{}, err
	}
	if err = os.WriteFile(f.full, content, 0o644); err != nil {
		return store.Translation{}, err
	}
	t, err := s.storeNewLanguage(ctx, comp, lng, actor, f.rel, content, units)
	if err != nil {
		_ = os.Remove(f.full) // no translation, no file
	}
	return t, err
}

// formatPlural is lng with the plural its translation uses in the
// component's format: the language's own, or the format's plural for it
// (formats.PluralOverride), which the catalog stores as a plural of the
// language (copyLanguages.EnsureLanguage).
func (s *Server) formatPlural(ctx context.Context, comp *catalogv1.Component, lng *catalogv1.Language) (*catalogv1.Language, error) {
	format, err := formats.Lookup(comp.GetFileFormat())
	if err != nil {
		return lng, nil // renderNewBase answers the unsupported format
	}
	own := formats.PluralOf(format, formats.Plural{Number: int(lng.GetPluralNumber()), Formula: lng.GetPluralFormula(), Type: int(lng.GetPluralType())})
	if own.Number == int(lng.GetPluralNumber()) && own.Formula == lng.GetPluralFormula() {
		return lng, nil
	}
	resp, err := s.languages().EnsureLanguage(ctx, &catalogv1.EnsureLanguageRequest{Code: lng.GetCode(),
		PluralNumber: int32(own.Number), PluralFormula: own.Formula}) //nolint:gosec // G115: a plural count, at most a few forms
	if err != nil {
		return nil, err
	}
	p := resp.GetPlural()
	out := proto.CloneOf(lng)
	out.PluralId, out.PluralSource, out.PluralNumber = p.GetId(), p.GetSource(), p.GetNumber()
	out.PluralFormula, out.PluralType = p.GetFormula(), p.GetType()
	return out, nil
}

// languageFile is where a new language's file goes: its path in the
// repository and on disk.
type languageFile struct{ rel, full string }

// newLanguageFilePath places a language's file by the component's file
// mask, its code written in the component's language code style (the
// format's own unless set), refusing a path outside the working copy or an
// existing file.
func (s *Server) newLanguageFilePath(comp *catalogv1.Component, lng *catalogv1.Language) (languageFile, error) {
	mask, err := filemask.Parse(comp.GetFilemask())
	if err != nil {
		return languageFile{}, errs.New(errs.FailedPrecondition, "The component file mask is invalid.")
	}
	rel, err := mask.Path(formats.FileLanguageCode(comp.GetFileFormat(), comp.GetEffectiveLanguageCodeStyle(), lng.GetCode()))
	if err != nil {
		return languageFile{}, errs.Invalid("language_code", "invalid", "The language code can not be used in a file name.")
	}
	full, err := filemask.SafePath(s.cfg.Repos.Dir(comp.GetId()), rel)
	if err != nil {
		return languageFile{}, errs.New(errs.FailedPrecondition, "The component repository is not available.")
	}
	if _, err := os.Lstat(full); err == nil {
		return languageFile{}, errs.Invalid("language_code", "invalid", "Translation file already exists.")
	}
	return languageFile{rel: rel, full: full}, nil
}

// renderNewBase reads the component's new_base and renders it for lng
// (newLanguageFile). A monolingual component without a new_base starts
// from the format's empty file.
func (s *Server) renderNewBase(ctx context.Context, comp *catalogv1.Component, lng *catalogv1.Language) ([]byte, []store.Unit, error) {
	format, err := formats.Lookup(comp.GetFileFormat())
	if err != nil {
		return nil, nil, errs.Wrap(errs.FailedPrecondition, err, "The file format of the component is not supported.")
	}
	var data []byte
	if comp.GetNewBase() != "" {
		basePath, perr := filemask.SafePath(s.cfg.Repos.Dir(comp.GetId()), comp.GetNewBase())
		if perr != nil {
			return nil, nil, errs.New(errs.FailedPrecondition, "The component base file is not available.")
		}
		if data, err = os.ReadFile(basePath); err != nil { //nolint:gosec // G304: filemask.SafePath kept it inside the working copy
			return nil, nil, errs.Wrap(errs.FailedPrecondition, err, "The component base file is not available.")
		}
	}
	lang := formats.Language{Code: lng.GetCode(), PluralNumber: int(lng.GetPluralNumber()), PluralFormula: lng.GetPluralFormula()}
	if mask, merr := filemask.Parse(comp.GetFilemask()); merr == nil {
		if rel, rerr := mask.Path(lng.GetCode()); rerr == nil {
			lang.Code, _ = mask.Code(rel)
		}
	}
	content, err := format.NewTranslation(data, lang)
	if err != nil {
		return nil, nil, errs.Wrap(errs.FailedPrecondition, err, "The component base file can not be parsed.")
	}
	if comp.GetTemplate() != "" {
		units, uerr := s.emptyUnits(ctx, comp, int(lng.GetPluralNumber()))
		return content, units, uerr
	}
	f, err := format.Parse(content, lang)
	if err != nil {
		return nil, nil, errs.Wrap(errs.FailedPrecondition, err, "The component base file can not be parsed.")
	}
	cjk := textstat.IsCJK(comp.GetSourceLanguageCode())
	var units []store.Unit
	for _, e := range f.Units() {
		units = append(units, importer.NewUnit(e, cjk))
	}
	return content, units, nil
}

// emptyUnits are the units of a new translation of a monolingual
// component: every key of the source translation, untranslated.
func (s *Server) emptyUnits(ctx context.Context, comp *catalogv1.Component, plurals int) ([]store.Unit, error) {
	src, err := s.cfg.Store.SourceTranslation(ctx, comp.GetId())
	if err != nil {
		return nil, err
	}
	views, _, err := s.cfg.Store.ListUnits(ctx, src.ID, 0, 0, store.Hidden{})
	if err != nil {
		return nil, err
	}
	cjk := textstat.IsCJK(comp.GetSourceLanguageCode())
	units := make([]store.Unit, len(views))
	for i, v := range views {
		u, state := v.Unit, weblate.StateEmpty
		if comp.GetIntermediate() != "" {
			u, state = finalSource(u, cjk)
		}
		forms := 1
		if len(store.Split(u.Source)) > 1 {
			forms = max(plurals, 1)
		}
		units[i] = store.Unit{Source: u.Source, Context: u.Context, Location: u.Location, Note: u.Note, Flags: u.Flags,
			IDHash: u.IDHash, ContentHash: u.ContentHash, NumWords: u.NumWords, NumChars: u.NumChars, Priority: u.Priority,
			Target: store.Join(make([]string, forms)), State: state}
	}
	return units, nil
}

// finalSource is what a translation of a component with an intermediate
// file makes of a source unit: its source is the template's string (the
// source translation's target) where the template has one, else the
// developers' string; it stays read-only until that string is translated
// (the reference's source quality gateway), empty otherwise: the state
// returned.
func finalSource(u store.Unit, cjk bool) (store.Unit, int) {
	state := weblate.StateEmpty
	if u.State < weblate.StateTranslated {
		state = weblate.StateReadOnly
	}
	if forms := store.Split(u.Target); slices.ContainsFunc(forms, nonEmpty) {
		u.Source = u.Target
		u.ContentHash = textstat.ContentHash(forms, u.Context)
		u.NumWords, u.NumChars = int64(textstat.Words(forms, cjk)), int64(textstat.Chars(forms))
	}
	return u, state
}

// storeNewLanguage stores the translation of a new language file, linked
// to the source strings, recording "Added new language" and flagging the
// working copy for commit.
func (s *Server) storeNewLanguage(ctx context.Context, comp *catalogv1.Component, lng *catalogv1.Language, actor, rel string, content []byte, units []store.Unit) (store.Translation, error) {
	src, err := s.cfg.Store.SourceTranslation(ctx, comp.GetId())
	if err != nil {
		return store.Translation{}, err
	}
	sourceIDs, err := s.sourceIDs(ctx, src.ID)
	if err != nil {
		return store.Translation{}, err
	}
	rules, err := s.checkRules(ctx, comp)
	if err != nil {
		return store.Translation{}, err
	}
	res, err := s.cfg.Store.ImportTranslation(ctx, store.ImportSpec{Checks: rules,
		Translation: store.Translation{ComponentID: comp.GetId(), ProjectSlug: comp.GetProjectSlug(),
			ComponentSlug: comp.GetSlug(), LanguageCode: lng.GetCode(), PluralNumber: int(lng.GetPluralNumber()),
			PluralID: lng.GetPluralId(), PluralSource: lng.GetPluralSource(), PluralFormula: lng.GetPluralFormula(),
			PluralType: lng.GetPluralType(), Filename: rel, Revision: workcopy.BlobHash(content)},
		Units: units, SourceIDs: sourceIDs, NeedsCommit: true,
		Changes: []*changelogv1.Change{{Action: actionLangAdded, ProjectSlug: comp.GetProjectSlug(),
			ComponentSlug: comp.GetSlug(), LanguageCode: lng.GetCode(), User: actor, Author: actor}},
	})
	return res.Translation, err
}

// sourceIDs maps id_hash to unit id in the source translation.
func (s *Server) sourceIDs(ctx context.Context, sourceID int64) (map[int64]int64, error) {
	units, _, err := s.cfg.Store.ListUnits(ctx, sourceID, 0, 0, store.Hidden{})
	if err != nil {
		return nil, err
	}
	ids := make(map[int64]int64, len(units))
	for _, u := range units {
		ids[u.IDHash] = u.ID
	}
	return ids, nil
}

// DeleteTranslation removes a translation and its file from the working
// copy; a caller acting for a user needs translation.delete on it, which
// is checked before the translation is looked up, as the REST API does.
func (s *Server) DeleteTranslation(ctx context.Context, req *translationv1.DeleteTranslationRequest) (*translationv1.DeleteTranslationResponse, error) {
	comp, err := s.component(ctx, req.GetComponentId())
	if err != nil {
		return nil, err
	}
	if err = s.require(ctx, "translation.delete", comp, req.GetLanguageCode()); err != nil {
		return nil, err
	}
	t, err := s.cfg.Store.GetTranslation(ctx, comp.GetId(), req.GetLanguageCode())
	if err != nil {
		return nil, err
	}
	if t.IsSource {
		return nil, errs.New(errs.PermissionDenied, "The source translation can not be removed.")
	}
	release, err := s.holdRepo(ctx, t.ComponentID)
	if err != nil {
		return nil, err
	}
	defer release()
	if rerr := s.refreshRepo(ctx, t.ComponentID); rerr != nil {
		return nil, rerr
	}
	if t.Filename != "" {
		full, perr := filemask.SafePath(s.cfg.Repos.Dir(t.ComponentID), t.Filename)
		if perr == nil {
			if err = os.Remove(full); err != nil && !errors.Is(err, os.ErrNotExist) {
				return nil, errs.Wrap(errs.Internal, err, "remove translation file")
			}
		}
	}
	err = s.cfg.Store.DeleteTranslation(ctx, t.ID, &changelogv1.Change{Action: actionRemoved,
		ProjectSlug: t.ProjectSlug, ComponentSlug: t.ComponentSlug, LanguageCode: t.LanguageCode,
		User: req.GetActor(), Author: req.GetActor(), Target: t.Filename})
	if err != nil {
		return nil, err
	}
	s.cfg.Notify()
	return &translationv1.DeleteTranslationResponse{}, nil
}
