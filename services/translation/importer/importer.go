package importer

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"runtime/debug"
	"slices"

	"github.com/tmsproject/tms/pkg/changedetails"
	"github.com/tmsproject/tms/pkg/textstat"
	"github.com/tmsproject/tms/pkg/weblate"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
	"github.com/tmsproject/tms/services/translation/filemask"
	"github.com/tmsproject/tms/services/translation/formats"
	"github.com/tmsproject/tms/services/translation/store"
)

// Languages resolves a language code met in a file to the catalog's code
// and plural count, the language made of the file's rule if unknown (the
// translation service's copy of the language table).
type Languages interface {
	EnsureLanguage(ctx context.Context, in *catalogv1.EnsureLanguageRequest) (*catalogv1.EnsureLanguageResponse, error)
}

// Store is what an import reads and writes (*store.Store).
type Store interface {
	GetTranslation(ctx context.Context, componentID int64, code string) (store.Translation, error)
	ImportTranslation(ctx context.Context, spec store.ImportSpec) (store.ImportResult, error)
	DeleteTranslation(ctx context.Context, id int64, changes ...*changelogv1.Change) error
	LanguageCodes(ctx context.Context, componentID int64) ([]string, error)
}

// Importer imports working copies into the store.
type Importer struct {
	Store     Store
	Languages Languages
	Log       *slog.Logger
	// OnlyChanged skips translation files whose content matches the stored
	// revision (a repository update re-reads what changed only).
	OnlyChanged bool
	// UnitChanges records the strings each file adds, changes or removes.
	UnitChanges bool
	// Review reports whether the component's project reviews
	// translations: then a unit the file marks approved (XLIFF) is
	// imported approved, as Weblate does with reviews on. Nil: no review.
	Review func(ctx context.Context, comp *catalogv1.Component) (bool, error)
	// CheckRules returns the rules of the component's quality checks
	// (flags, enforced checks, names). Nil: none.
	CheckRules func(ctx context.Context, comp *catalogv1.Component) (store.CheckRules, error)
	// Action is the action of each re-read file's record: "Resource
	// updated" when zero; a source upload records "Source updated" (74).
	Action typev1.ChangeAction
}

// Progress receives a percentage and a log line.
type Progress func(percent int, line string)

// parsed is one file read and parsed.
type parsed struct {
	match filemask.Match
	// units are the file's, without their file's handles: the parsed file
	// itself, several times their size, is not kept (read.go).
	units    []*formats.Unit
	revision string // the content's git blob hash
	plurals  int    // of the header's Plural-Forms; 0 when none
	formula  string
	// What the format records of a unit's state (ImportSpec).
	recordsFuzzy, recordsApproval bool
	err                           error
}

// reader parses the files of one component.
type reader struct {
	realRoot, dir string
	format        formats.Format
	// mono: the component has a template, units are keyed (Weblate's
	// monolingual components).
	mono bool
	cjk  bool
	// review: approvals in the files count (the project reviews).
	review bool
	checks store.CheckRules // the component's (Importer.CheckRules)
}

// Import reads the component's files from dir and stores them. Every file
// is parsed before anything is written, so a parse error leaves the stored
// translations as they were. The files are parsed twice, one or two at a
// time, rather than all held at once: first to check them and collect the
// source strings that only translation files have, then to store each.
func (im *Importer) Import(ctx context.Context, comp *catalogv1.Component, dir string, progress Progress) error {
	mask, err := filemask.Parse(comp.GetFilemask())
	if err != nil {
		return fmt.Errorf("filemask %q: %w", comp.GetFilemask(), err)
	}
	format, err := formats.Lookup(comp.GetFileFormat())
	if err != nil {
		return err
	}
	if format.Monolingual() && comp.GetTemplate() == "" {
		return fmt.Errorf("file format %q needs a template: the monolingual base file of the source language", format.ID())
	}
	matches, err := mask.Glob(dir)
	if err != nil {
		return fmt.Errorf("scan working copy: %w", err)
	}
	realRoot, err := filemask.RealRoot(dir)
	if err != nil {
		return err
	}
	base := comp.GetTemplate()
	if base == "" {
		base = comp.GetNewBase()
	}
	srcCode := comp.GetSourceLanguageCode()
	if srcCode == "" {
		srcCode = "en"
	}
	r := &reader{realRoot: realRoot, dir: dir, format: format, mono: comp.GetTemplate() != "", cjk: textstat.IsCJK(srcCode)}
	if im.Review != nil {
		if r.review, err = im.Review(ctx, comp); err != nil {
			return err
		}
	}
	if im.CheckRules != nil {
		if r.checks, err = im.CheckRules(ctx, comp); err != nil {
			return err
		}
	}
	var baseFile *sourceBase
	if base != "" {
		if baseFile, err = r.readBase(base, comp.GetIntermediate(), srcCode); err != nil {
			return err
		}
	}
	paths := translationFiles(matches, srcCode, base, comp.GetIntermediate())
	extra, err := r.sourceOnlyInFiles(paths, baseFile)
	if err != nil {
		return err
	}
	progress(30, fmt.Sprintf("parsed %d files", len(paths)))
	releaseMemory()
	// A translation of a monolingual component takes its sources from the
	// template (and read-only strings from an intermediate file): when
	// that changed, every translation file is read again.
	rereadAll := !im.OnlyChanged
	if (r.mono || comp.GetIntermediate() != "") && baseFile != nil {
		prev, _ := im.Store.GetTranslation(ctx, comp.GetId(), srcCode)
		rereadAll = rereadAll || prev.Revision != baseFile.revision
	}
	sourceIDs, err := im.importSource(ctx, comp, r.format, srcCode, baseFile, extra)
	if err != nil {
		return err
	}
	if baseFile != nil {
		// Stored: the translations need the base's keys, not its units.
		baseFile.units = nil
	}
	seen := map[string]bool{srcCode: true}
	for i, m := range paths {
		f := r.parse(m)
		if f.err != nil {
			return f.err
		}
		code, err := im.importFile(ctx, comp, r, f, baseFile, sourceIDs, !rereadAll)
		if err != nil {
			return err
		}
		seen[code] = true
		progress(30+70*(i+1)/len(paths), "imported "+m.Path)
		releaseMemory()
	}
	return im.dropVanished(ctx, comp.GetId(), seen)
}

// releaseMemory hands the memory of a stored file back to the system.
// A file's parse and units take several times its size for a moment; the
// runtime keeps freed memory for reuse and returns it only slowly, so
// without this an import's resident size would be that of its garbage.
func releaseMemory() { debug.FreeOSMemory() }

// sourceBase is what an import keeps of the template (or new_base): its
// strings as source units and what the source translation records of it,
// not the parsed file, several times their size.
type sourceBase struct {
	units []store.Unit
	// keys are the strings of a monolingual component, without their
	// file's handles: the template's units, or the intermediate file's
	// when the component has one.
	keys []*formats.Unit
	// With an intermediate file: template holds the template's units by
	// key, and final the keys whose source string (the template's
	// value) is translated; translators wait for the others.
	template       map[string]*formats.Unit
	final          map[string]bool
	path, revision string
	plurals        int
	formula        string
	// What the template's format records of a unit's state (ImportSpec).
	recordsFuzzy, recordsApproval bool
}

// readBase reads the template (or new_base) at path and, for a monolingual
// component with one, the intermediate file.
func (r *reader) readBase(path, intermediate, srcCode string) (*sourceBase, error) {
	f := r.parse(filemask.Match{Path: path, Code: srcCode})
	if f.err != nil {
		return nil, f.err
	}
	b := &sourceBase{path: path, revision: f.revision, plurals: f.plurals, formula: f.formula,
		recordsFuzzy: f.recordsFuzzy, recordsApproval: f.recordsApproval}
	if !r.mono {
		for _, e := range f.units {
			b.units = append(b.units, newUnit(e, r.cjk, true))
		}
		return b, nil
	}
	b.keys = uniqueKeys(f.units)
	if intermediate == "" {
		for _, k := range b.keys {
			b.units = append(b.units, MonolingualUnit(k, k, len(k.Target), r.cjk))
		}
		return b, nil
	}
	im := r.parse(filemask.Match{Path: intermediate, Code: srcCode})
	if im.err != nil {
		return nil, fmt.Errorf("intermediate language file: %w", im.err)
	}
	// The source strings come from both files: a change of either is one
	// of the source translation (and of every other, see Import).
	b.revision += "," + im.revision
	b.template, b.final = make(map[string]*formats.Unit, len(b.keys)), make(map[string]bool, len(b.keys))
	for _, k := range b.keys {
		b.template[k.Context] = k
	}
	b.keys = uniqueKeys(im.units)
	for _, k := range b.keys {
		u := MonolingualUnit(k, b.template[k.Context], len(k.Target), r.cjk)
		b.final[k.Context] = u.State >= weblate.StateTranslated
		b.units = append(b.units, u)
	}
	return b, nil
}

// uniqueKeys copies a monolingual file's units without their file's
// handles; of a repeated key the first one counts, as in the reference.
func uniqueKeys(units []*formats.Unit) []*formats.Unit {
	have := map[string]bool{}
	out := make([]*formats.Unit, 0, len(units))
	for _, e := range units {
		if have[e.Context] {
			continue
		}
		have[e.Context] = true
		k := *e
		k.Ref = nil
		out = append(out, &k)
	}
	return out
}

// sourceOf is the unit a translation's string of key k takes its source,
// note and location from: k itself without an intermediate file. With one,
// Weblate reads every translation against the intermediate file's keys and
// looks each up in the template: a key the template lacks keeps the
// developers' string; a key the translation file has is the template's
// unit; a key only the template and the intermediate file have is the
// intermediate file's unit with the template's string as its source.
func (b *sourceBase) sourceOf(k *formats.Unit, inFile bool) *formats.Unit {
	if b.template == nil {
		return k
	}
	t := b.template[k.Context]
	switch {
	case t == nil:
		return k
	case inFile:
		return t
	}
	patched := *k
	patched.Target = t.Target
	return &patched
}

// sourceOnlyInFiles parses the translation files one at a time (a parsed
// file takes several times its size) and returns the source units of the
// strings the base file lacks, in file order, each once: Weblate creates a
// source unit for every translated string of a bilingual component (a
// monolingual one has the template's strings only). The first parse error
// is returned.
func (r *reader) sourceOnlyInFiles(matches []filemask.Match, base *sourceBase) ([]store.Unit, error) {
	have := map[int64]bool{}
	if base != nil {
		for _, u := range base.units {
			have[u.IDHash] = true
		}
	}
	var out []store.Unit
	for _, m := range matches {
		f := r.parse(m)
		if f.err != nil {
			return nil, f.err
		}
		if r.mono {
			continue
		}
		for _, e := range f.units {
			// The id alone first: a whole unit (its words and hashes)
			// only for the few strings the base lacks.
			if id := textstat.IDHash(e.Source, e.Context); !have[id] {
				have[id] = true
				out = append(out, newUnit(e, r.cjk, true))
			}
		}
	}
	return out, nil
}

// translationFiles drops the files that are not translations: the template
// itself, the intermediate file and a file for the source language.
func translationFiles(matches []filemask.Match, srcCode string, bases ...string) []filemask.Match {
	var out []filemask.Match
	for _, m := range matches {
		if m.Code != srcCode && !slices.Contains(bases, m.Path) {
			out = append(out, m)
		}
	}
	return out
}

// importSource stores the source translation: the strings of the template
// (or new_base), then any string found only in a translation file, as
// Weblate creates a source unit for every translated string.
func (im *Importer) importSource(ctx context.Context, comp *catalogv1.Component, format formats.Format, code string, base *sourceBase, extra []store.Unit) (map[int64]int64, error) {
	// The store keeps the first unit of a repeated string, and extra has
	// only strings the base lacks: the two lists are joined as they are,
	// without a copy of the base's units.
	var units []store.Unit
	spec := store.ImportSpec{Translation: im.translation(comp, code)}
	n, formula := 2, ""
	if base != nil {
		units = base.units
		n, formula = base.plurals, base.formula
		spec.Translation.Filename = base.path
		spec.Translation.Revision = base.revision
		spec.Translation.IsTemplate = comp.GetTemplate() != ""
		spec.RecordsFuzzy, spec.RecordsApproval = base.recordsFuzzy, base.recordsApproval
	}
	units = append(units, extra...)
	lng, err := im.ensure(ctx, format, code, n, formula)
	if err != nil {
		return nil, err
	}
	spec.Translation.LanguageCode = lng.GetLanguage().GetCode()
	setPlural(&spec.Translation, lng.GetPlural())
	spec.Translation.IsSource = true
	spec.Units = units
	if comp.GetTemplate() != "" {
		prev, _ := im.Store.GetTranslation(ctx, comp.GetId(), spec.Translation.LanguageCode)
		spec.Changes = []*changelogv1.Change{im.resourceUpdated(comp, spec.Translation.LanguageCode, base.path, reason(prev.Revision, spec.Translation.Revision))}
	}
	res, err := im.Store.ImportTranslation(ctx, spec)
	if err != nil {
		return nil, fmt.Errorf("store source strings: %w", err)
	}
	return res.IDs, nil
}

// importFile stores one translation file and returns its language code.
// Unless onlyChanged, a file whose content the store has is read again.
func (im *Importer) importFile(ctx context.Context, comp *catalogv1.Component, r *reader, f parsed, base *sourceBase, sourceIDs map[int64]int64, onlyChanged bool) (string, error) {
	lng, err := im.ensure(ctx, r.format, f.match.Code, f.plurals, f.formula)
	if err != nil {
		return "", err
	}
	code := lng.GetLanguage().GetCode()
	spec := store.ImportSpec{Translation: im.translation(comp, code), SourceIDs: sourceIDs, Monolingual: r.mono}
	setPlural(&spec.Translation, lng.GetPlural())
	spec.Translation.Filename = f.match.Path
	spec.Translation.Revision = f.revision
	spec.Units = r.units(f.units, base, spec.Translation.PluralNumber)
	spec.RecordsFuzzy, spec.RecordsApproval = f.recordsFuzzy, f.recordsApproval
	spec.Checks = r.checks
	f.units = nil // stored as spec.Units
	prev, _ := im.Store.GetTranslation(ctx, comp.GetId(), code)
	if onlyChanged && prev.Revision == spec.Translation.Revision {
		return code, nil
	}
	spec.UnitChanges = im.UnitChanges && prev.ID != 0
	spec.Changes = []*changelogv1.Change{im.resourceUpdated(comp, code, f.match.Path, reason(prev.Revision, spec.Translation.Revision))}
	if _, err := im.Store.ImportTranslation(ctx, spec); err != nil {
		return "", fmt.Errorf("store %s: %w", f.match.Path, err)
	}
	return code, nil
}

// units are the store's units of a translation file: its own units in a
// bilingual component, the template's keys with the file's targets in a
// monolingual one.
func (r *reader) units(entries []*formats.Unit, base *sourceBase, plurals int) []store.Unit {
	if !r.mono {
		out := make([]store.Unit, 0, len(entries))
		for _, e := range entries {
			u := newUnit(e, r.cjk, false)
			if r.review && e.Approved && u.State == weblate.StateTranslated {
				u.State = weblate.StateApproved
			}
			out = append(out, u)
		}
		return out
	}
	byKey := make(map[string]*formats.Unit, len(entries))
	for _, e := range entries {
		if byKey[e.Context] == nil {
			byKey[e.Context] = e
		}
	}
	out := make([]store.Unit, 0, len(base.keys))
	for _, k := range base.keys {
		target := byKey[k.Context]
		u := MonolingualUnit(base.sourceOf(k, target != nil), target, plurals, r.cjk)
		if base.final != nil && !base.final[k.Context] {
			// The reference's source quality gateway: a string whose
			// source is not translated in the source language is
			// read-only in the others.
			u.State = weblate.StateReadOnly
		}
		out = append(out, u)
	}
	return out
}

func (im *Importer) translation(comp *catalogv1.Component, code string) store.Translation {
	return store.Translation{ComponentID: comp.GetId(), ProjectSlug: comp.GetProjectSlug(),
		ComponentSlug: comp.GetSlug(), LanguageCode: code}
}

// ensure returns the language of a file's code and the plural its
// translation uses, which the catalog matches against the file's rule; a
// format with a plural of its own (formats.PluralOverride) turns that
// plural into its own, stored as the language's plural too.
func (im *Importer) ensure(ctx context.Context, format formats.Format, code string, n int, formula string) (*catalogv1.EnsureLanguageResponse, error) {
	resp, err := im.ensureRule(ctx, code, n, formula)
	if err != nil {
		return nil, err
	}
	p := resp.GetPlural()
	own := formats.PluralOf(format, formats.Plural{Number: int(p.GetNumber()), Formula: p.GetFormula(), Type: int(p.GetType())})
	if own.Number == int(p.GetNumber()) && own.Formula == p.GetFormula() {
		return resp, nil
	}
	return im.ensureRule(ctx, code, own.Number, own.Formula)
}

// ensureRule asks the catalog for the language of code and its plural of
// the rule n, formula.
func (im *Importer) ensureRule(ctx context.Context, code string, n int, formula string) (*catalogv1.EnsureLanguageResponse, error) {
	// A file may claim any number of forms; one past int32 is as invalid as
	// any above 10, for which the catalog keeps the language's own rule.
	n = min(n, math.MaxInt32)
	resp, err := im.Languages.EnsureLanguage(ctx, &catalogv1.EnsureLanguageRequest{
		Code: code, PluralNumber: int32(n), PluralFormula: formula}) //nolint:gosec // G115: clamped above; nplurals has no sign
	if err != nil {
		return nil, fmt.Errorf("language %q: %w", code, err)
	}
	return resp, nil
}

// setPlural makes p the translation's plural: its number of forms decides
// how many forms units have and are counted with, its formula is written
// back into the file's Plural-Forms.
func setPlural(t *store.Translation, p *catalogv1.Plural) {
	t.PluralNumber, t.PluralID, t.PluralSource = int(p.GetNumber()), p.GetId(), p.GetSource()
	t.PluralFormula, t.PluralType = p.GetFormula(), p.GetType()
}

// reason is Weblate's check_sync reason for re-reading a file.
func reason(stored, current string) string {
	switch {
	case stored == "":
		return "new file"
	case stored != current:
		return "content changed"
	default:
		return "check forced"
	}
}

// resourceUpdated is the change record of an imported file ("Resource
// updated", or the importer's Action).
func (im *Importer) resourceUpdated(comp *catalogv1.Component, code, filename, why string) *changelogv1.Change {
	details := changedetails.FromMap(map[string]string{"reason": why, "filename": filename})
	action := im.Action
	if action == typev1.ChangeAction_CHANGE_ACTION_UNSPECIFIED {
		action = typev1.ChangeAction_CHANGE_ACTION_UPDATE
	}
	return &changelogv1.Change{Action: action, ProjectSlug: comp.GetProjectSlug(), ComponentSlug: comp.GetSlug(),
		LanguageCode: code, Details: details}
}

// dropVanished deletes the translations whose files are gone.
func (im *Importer) dropVanished(ctx context.Context, componentID int64, seen map[string]bool) error {
	codes, err := im.Store.LanguageCodes(ctx, componentID)
	if err != nil {
		return err
	}
	for _, code := range codes {
		if seen[code] {
			continue
		}
		t, err := im.Store.GetTranslation(ctx, componentID, code)
		if err != nil {
			return err
		}
		if t.IsSource {
			continue
		}
		if err := im.Store.DeleteTranslation(ctx, t.ID); err != nil {
			return err
		}
	}
	return nil
}
