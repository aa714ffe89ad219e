package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"

	"github.com/tmsproject/tms/pkg/changedetails"
	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/lang"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/formats"
	"github.com/tmsproject/tms/services/translation/store"
)

// Upload change actions (Weblate's ActionEvents).
const (
	actionUploaded     = typev1.ChangeAction_CHANGE_ACTION_UPLOAD
	actionFileUploaded = typev1.ChangeAction_CHANGE_ACTION_FILE_UPLOAD
)

// upload is one UploadFile call being processed.
type upload struct {
	req     *translationv1.UploadFileRequest
	method  string
	comp    *catalogv1.Component
	t       store.Translation
	content uploadContent
	format  formats.Format
	// file is the upload read whole; nil when it streams (stream).
	file   formats.File
	data   []byte // the bytes of file
	stream formats.Streamer
	mono   bool // units matched by key (a component with a template)
	// updater merges translation files with a source upload's template.
	updater formats.BilingualUpdater
	review  bool // approving is possible (review on and the reviewer role)
	counts  [4]int64
	// checks are the rules of the component's quality checks.
	checks store.CheckRules
	// propagate decides the edits of the copies of an uploaded string
	// in the project's other components, as Weblate's upload propagates.
	propagate func(store.UnitView, string, int) (store.Edit, bool)
}

// uploadContent is the uploaded file: the request's bytes, or the file
// UploadFileStream gathered on disk.
type uploadContent struct {
	size int64
	open func() (io.ReadCloser, error)
}

func contentOf(data []byte) uploadContent {
	return uploadContent{size: int64(len(data)), open: func() (io.ReadCloser, error) {
		return io.NopCloser(bytes.NewReader(data)), nil
	}}
}

var uploadMethods = []string{"translate", "approve", "suggest", "fuzzy", "replace", "source", "add"}

// UploadFile merges an uploaded PO file into a translation the way
// Weblate's handle_upload does, and records "File uploaded" (78) with the
// counts. Per-string edits record "Translation uploaded" (9).
func (s *Server) UploadFile(ctx context.Context, req *translationv1.UploadFileRequest) (*translationv1.UploadFileResponse, error) {
	return s.uploadFile(ctx, req, contentOf(req.GetContent()))
}

func (s *Server) uploadFile(ctx context.Context, req *translationv1.UploadFileRequest, content uploadContent) (*translationv1.UploadFileResponse, error) {
	up, err := s.newUpload(ctx, req, content)
	if err != nil {
		return nil, err
	}
	switch up.method {
	case "replace":
		err = s.uploadReplace(ctx, up)
	case "add":
		err = s.uploadAdd(ctx, up)
	case "suggest":
		err = s.uploadSuggest(ctx, up)
	case "source":
		err = s.uploadSource(ctx, up)
	default:
		err = s.uploadMerge(ctx, up)
	}
	if err != nil {
		return nil, err
	}
	n := up.counts
	details := changedetails.FromMap(map[string]any{"method": up.method, "not_found": n[0], "skipped": n[1], "accepted": n[2], "total": n[3]})
	rec := &changelogv1.Change{Action: actionFileUploaded, ProjectSlug: up.t.ProjectSlug, ComponentSlug: up.t.ComponentSlug,
		LanguageCode: up.t.LanguageCode, User: req.GetActor(), Author: req.GetActor(), Details: details}
	if err := s.cfg.Store.RecordChanges(ctx, rec); err != nil {
		return nil, err
	}
	s.cfg.Notify()
	return &translationv1.UploadFileResponse{NotFound: n[0], Skipped: n[1], Accepted: n[2], Total: n[3],
		Result: true, Count: n[3]}, nil
}

// newUpload validates the request and reads the file (or readies it to
// be streamed).
func (s *Server) newUpload(ctx context.Context, req *translationv1.UploadFileRequest, content uploadContent) (*upload, error) {
	comp, t, err := s.componentTranslation(ctx, req.GetComponentId(), req.GetLanguageCode())
	if err != nil {
		return nil, err
	}
	up := &upload{req: req, method: or(req.GetMethod(), "translate"), comp: comp, t: t, content: content,
		mono: comp.GetTemplate() != "", propagate: s.propagation(ctx, req.GetActor(), false)}
	if !slices.Contains(uploadMethods, up.method) {
		return nil, errs.Invalid("method", "invalid_choice", fmt.Sprintf("%q is not a valid choice.", up.method))
	}
	if !slices.Contains([]string{"", "ignore", "replace-translated", "replace-approved"}, req.GetConflicts()) {
		return nil, errs.Invalid("conflicts", "invalid_choice", fmt.Sprintf("%q is not a valid choice.", req.GetConflicts()))
	}
	if !slices.Contains([]string{"", "process", "approve"}, req.GetFuzzy()) {
		return nil, errs.Invalid("fuzzy", "invalid_choice", fmt.Sprintf("%q is not a valid choice.", req.GetFuzzy()))
	}
	if content.size == 0 {
		return nil, errs.Invalid("file", "required", "No file was submitted.")
	}
	format, err := formats.Lookup(comp.GetFileFormat())
	if err != nil {
		return nil, errs.Wrap(errs.FailedPrecondition, err, "The file format of the component is not supported.")
	}
	if comp.GetLocked() {
		return nil, errs.New(errs.Locked, "The component is locked.")
	}
	if err = s.checkMethod(ctx, up, format); err != nil {
		return nil, err
	}
	if err = s.mayUpload(ctx, comp, req); err != nil {
		return nil, err
	}
	up.format = format
	if err = up.read(s.cfg.Upload); err != nil {
		return nil, err
	}
	return up, nil
}

// mayUpload checks upload.perform and what the method needs.
func (s *Server) mayUpload(ctx context.Context, comp *catalogv1.Component, req *translationv1.UploadFileRequest) error {
	method := req.GetMethod()
	if method == "" {
		method = "translate"
	}
	for _, perm := range []string{"upload.perform", uploadPerms[method]} {
		ok, err := s.may(ctx, perm, comp, req.GetLanguageCode(), true)
		if err != nil {
			return err
		}
		if !ok && method == "approve" && perm == "unit.review" {
			return nil // answered below, with the reference's reason
		}
		if !ok {
			return errs.New(errs.PermissionDenied, "You do not have permission to upload with method %q.", method)
		}
	}
	return nil
}

// checkMethod is the reference's check of what the method needs of the
// translation besides permissions (its check_upload_method_permissions):
// a method it cannot take is refused as the reference's upload serializer
// refuses it, before the file is read.
func (s *Server) checkMethod(ctx context.Context, up *upload, format formats.Format) error {
	comp, t := up.comp, up.t
	switch up.method {
	case "source":
		updater, err := checkSourceUpload(t, format)
		up.updater = updater
		return err
	case "add":
		if comp.GetTemplate() != "" && (!t.IsSource || !comp.GetEditTemplate()) || !comp.GetManageUnits() {
			return methodUnavailable(t, up.method)
		}
	case "replace": // the source translation of a bilingual component has no file
		if t.Filename == "" || t.IsSource && comp.GetTemplate() == "" {
			return methodUnavailable(t, up.method)
		}
	case "suggest":
		if !comp.GetEnableSuggestions() {
			return methodUnavailable(t, up.method)
		}
	}
	enabled, err := s.reviewEnabled(ctx, comp, t)
	if err != nil {
		return err
	}
	if enabled {
		up.review, err = s.may(ctx, "unit.review", comp, up.req.GetLanguageCode(), up.req.GetActorCanReview())
		if err != nil {
			return err
		}
	}
	switch {
	case up.method == "approve" && !enabled:
		return methodUnavailable(t, up.method)
	case up.method == "approve" && !up.review:
		return errs.New(errs.PermissionDenied, "Insufficient privileges for approving translations.")
	}
	return nil
}

// methodUnavailable is the reference's answer to a method the translation
// cannot take, with its hint for adding to a translation.
func methodUnavailable(t store.Translation, method string) error {
	if method == "add" && !t.IsSource {
		return errs.Invalid("method", "invalid", errAddToSource)
	}
	return errs.Invalid("method", "invalid", errMethodUnavailable)
}

// reviewEnabled is the reference's Translation.enable_review: the
// project's source review for the source translation, its translation
// review for the others.
func (s *Server) reviewEnabled(ctx context.Context, comp *catalogv1.Component, t store.Translation) (bool, error) {
	project, err := s.project(ctx, comp)
	if err != nil {
		return false, err
	}
	if t.IsSource {
		return project.GetSourceReview(), nil
	}
	return project.GetTranslationReview(), nil
}

// mergeEntry is an uploaded unit selected by iterate_merge.
type mergeEntry struct {
	e        *formats.Unit
	setFuzzy bool
}

// eachEntry is Weblate's iterate_merge over the file's units: fuzzy
// entries only when the fuzzy option asks for them (process keeps them
// fuzzy), and, when onlyTranslated, only entries with every form filled.
func (up *upload) eachEntry(onlyTranslated bool, fn func(mergeEntry) error) error {
	return up.each(func(e *formats.Unit) error {
		filled := !slices.Contains(e.Target, "") && len(e.Target) > 0
		switch {
		case e.Fuzzy && filled:
			if up.req.GetFuzzy() == "" {
				return nil
			}
		case onlyTranslated && !filled:
			return nil
		}
		return fn(mergeEntry{e: e, setFuzzy: e.Fuzzy && filled && up.req.GetFuzzy() == "process"})
	})
}

// unitIndex maps the key of each unit of the translation (up.key) to it.
func (s *Server) unitIndex(ctx context.Context, up *upload) (map[string]store.UnitView, error) {
	units, _, err := s.cfg.Store.ListUnits(ctx, up.t.ID, 0, 0, store.Hidden{})
	if err != nil {
		return nil, err
	}
	out := make(map[string]store.UnitView, len(units))
	for _, u := range units {
		out[up.key(u.Context, u.Source)] = u
	}
	return out, nil
}

// unitKeys maps the key of each unit of the translation to its id.
func (s *Server) unitKeys(ctx context.Context, up *upload) (map[string]int64, error) {
	if up.mono {
		return s.cfg.Store.ContextKeys(ctx, up.t.ID)
	}
	return s.cfg.Store.UnitKeys(ctx, up.t.ID)
}

// key is how an uploaded unit finds its string: by context and source, or
// by key (context) alone in a monolingual component.
func (up *upload) key(context, source string) string {
	if up.mono {
		source = ""
	}
	return store.UnitKey(context, source)
}

func (up *upload) entryKey(e *formats.Unit) string { return up.key(e.Context, store.Join(e.Source)) }

// samePlural is the reference's check of an uploaded file's rule against
// the translation's plural: the same number of forms and, when the
// translation's formula is known, the same forms for every count.
func samePlural(t store.Translation, n int, formula string) bool {
	if t.PluralFormula == "" {
		return n == t.PluralNumber
	}
	return lang.SamePlural(t.PluralNumber, t.PluralFormula, n, formula)
}
