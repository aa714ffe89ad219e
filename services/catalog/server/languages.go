package server

import (
	"context"
	"errors"
	"regexp"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/lang"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// saneCode is what a language code met in a file name must look like to be
// created on the fly: a two- or three-letter base, then suffixes joined by
// "_", "-" or "@" ("sr_Latn", "ca@valencia").
var saneCode = regexp.MustCompile(`^[A-Za-z]{2,3}([_@-][A-Za-z0-9]+)*$`)

// builtinRow converts an entry of the built-in table.
func builtinRow(l lang.Language) store.Language {
	return store.Language{
		Code: l.Code, Name: l.Name, Direction: l.Direction,
		PluralSource: store.PluralSourceDefault, PluralNumber: int32(l.PluralNumber), //nolint:gosec // G115: a table entry, at most 6 forms
		PluralFormula: l.PluralFormula, PluralType: int32(l.PluralType), //nolint:gosec // G115: an enumeration
		Aliases: l.Aliases, Population: l.Population,
	}
}

// BuiltinLanguages is the built-in table as store rows, for seeding.
func BuiltinLanguages() []store.Language {
	all := lang.All()
	out := make([]store.Language, len(all))
	for i, l := range all {
		out[i] = builtinRow(l)
	}
	return out
}

// findLanguage resolves a code the way Weblate does: a stored code (exact,
// then ignoring case), else the built-in lookup (aliases, "pt-BR",
// "de_DE" -> de ...), inserting a built-in language missing from the store.
func (s *Server) findLanguage(ctx context.Context, code string) (*store.Language, error) {
	l, err := s.st.GetLanguage(ctx, code)
	if !errors.Is(err, store.ErrNotFound) {
		return l, err
	}
	b, ok := lang.Lookup(code)
	if !ok {
		return nil, store.ErrNotFound
	}
	l, err = s.st.GetLanguage(ctx, b.Code)
	if errors.Is(err, store.ErrNotFound) {
		return s.st.CreateLanguage(ctx, builtinRow(b))
	}
	return l, err
}

// GetLanguage returns a language by code or alias.
func (s *Server) GetLanguage(ctx context.Context, req *catalogv1.GetLanguageRequest) (*catalogv1.GetLanguageResponse, error) {
	if req.GetCode() == "" {
		return nil, notFound()
	}
	l, err := s.findLanguage(ctx, req.GetCode())
	if err != nil {
		return nil, storeErr(err, nil)
	}
	return &catalogv1.GetLanguageResponse{Language: languageProto(l)}, nil
}

// ListLanguages pages through the languages by id.
func (s *Server) ListLanguages(ctx context.Context, req *catalogv1.ListLanguagesRequest) (*catalogv1.ListLanguagesResponse, error) {
	p, tp, err := listPage(req)
	if err != nil {
		return nil, err
	}
	ls, total, err := s.st.ListLanguages(ctx, p, store.LanguageFilter{Only: req.GetOnlyCodes(), Codes: req.GetCodes()})
	if err != nil {
		return nil, storeErr(err, nil)
	}
	resp := &catalogv1.ListLanguagesResponse{Total: total, NextPageToken: tp.Next(total)}
	for i := range ls {
		resp.Languages = append(resp.Languages, languageProto(&ls[i]))
	}
	return resp, nil
}

// EnsureLanguage returns the language of a code met in a file, creating it
// when needed: from the built-in table, or, for an unknown but plausible
// code, from the plural rule of the file (default: two forms, n != 1). It
// also returns the plural of the language that the file's rule is, as
// Weblate's PoFormat.get_plural picks it.
func (s *Server) EnsureLanguage(ctx context.Context, req *catalogv1.EnsureLanguageRequest) (*catalogv1.EnsureLanguageResponse, error) {
	l, err := s.ensureLanguage(ctx, req)
	if err != nil {
		return nil, err
	}
	p, err := s.filePlural(ctx, l, int(req.GetPluralNumber()), req.GetPluralFormula())
	if err != nil {
		return nil, err
	}
	return &catalogv1.EnsureLanguageResponse{Language: languageProto(l), Plural: p}, nil
}

func (s *Server) ensureLanguage(ctx context.Context, req *catalogv1.EnsureLanguageRequest) (*store.Language, error) {
	code := req.GetCode()
	l, err := s.findLanguage(ctx, code)
	if err == nil {
		return l, nil
	}
	if !errors.Is(err, store.ErrNotFound) {
		return nil, storeErr(err, nil)
	}
	if !saneCode.MatchString(code) || len(code) > 50 {
		return nil, errs.Invalid("code", "invalid", "Invalid language code.")
	}
	row, err := fileLanguage(code, req.GetPluralNumber(), req.GetPluralFormula())
	if err != nil {
		return nil, err
	}
	l, err = s.st.CreateLanguage(ctx, row)
	if err != nil {
		return nil, storeErr(err, nil)
	}
	return l, nil
}

// filePlural is the language's plural that a file's rule is: a rule
// spelled as one of the language's known spellings (gettext's, CLDR's,
// the localization guide's, Qt's) is that spelling's plural, so the file
// keeps it; else the default when the file has none or the same one
// however spelled (so the default's spelling is written back), else the
// first stored rule that is the same, else the file's rule stored as the
// language's new plural (written back as the file spells it). A rule that
// does not compile is the default's business: the file is read with the
// language's rule.
func (s *Server) filePlural(ctx context.Context, l *store.Language, number int, formula string) (*catalogv1.Plural, error) {
	def := defaultPlural(l)
	if number == 0 && formula == "" {
		return def, nil
	}
	if _, err := lang.CompilePlural(formula); err != nil || number < 1 || number > 10 {
		return def, nil
	}
	spelling, spelled := lang.KnownSpelling(l.Code, number, formula)
	if formula == l.PluralFormula || !spelled && lang.SamePlural(int(l.PluralNumber), l.PluralFormula, number, formula) {
		return def, nil
	}
	known, err := s.st.ListPlurals(ctx, l.ID)
	if err != nil {
		return nil, storeErr(err, nil)
	}
	for i := range known { // the file's own spelling first
		if known[i].Formula == formula && int(known[i].Number) == number {
			return pluralProto(l, &known[i]), nil
		}
	}
	for i := range known {
		if !spelled && lang.SamePlural(int(known[i].Number), known[i].Formula, number, formula) {
			return pluralProto(l, &known[i]), nil
		}
	}
	source := pluralSource(l, number, formula)
	if spelled {
		source = int32(spelling.Source) //nolint:gosec // G115: a Weblate plural source, 1 to 6
	}
	p, err := s.st.CreatePlural(ctx, store.Plural{LanguageID: l.ID, Source: source,
		Number: int32(number), Formula: formula, Type: int32(lang.PluralTypeFor(lang.BaseCode(l.Code), formula))}) //nolint:gosec // G115: a count checked above (1 to 10), an enumeration
	if err != nil {
		return nil, storeErr(err, nil)
	}
	return pluralProto(l, p), nil
}

// pluralSource is the source of a new plural of l: Weblate's "CLDR plural
// with zero" when the rule is l's default with a form for zero (as a
// stringsdict translation asks for it), else a file's gettext rule.
func pluralSource(l *store.Language, number int, formula string) int32 {
	n, f, changed := lang.WithZero(int(l.PluralNumber), l.PluralFormula, int(l.PluralType))
	if changed && lang.SamePlural(n, f, number, formula) {
		return store.PluralSourceCLDRZero
	}
	return store.PluralSourceGettext
}

// fileLanguage builds an unknown language named by its code with the
// plural rule read from a file.
func fileLanguage(code string, number int32, formula string) (store.Language, error) {
	row := store.Language{Code: code, Name: code, Direction: "ltr", Aliases: []string{},
		PluralSource: store.PluralSourceDefault, PluralNumber: 2, PluralFormula: "n != 1"}
	if number != 0 || formula != "" {
		if number < 1 || number > 10 {
			return row, errs.Invalid("plural_number", "invalid", "Invalid number of plurals.")
		}
		if _, err := lang.CompilePlural(formula); err != nil {
			return row, errs.Invalid("plural_formula", "invalid", "Invalid plural formula.")
		}
		row.PluralSource, row.PluralNumber, row.PluralFormula = store.PluralSourceGettext, number, formula
	}
	row.PluralType = int32(lang.PluralTypeFor(lang.BaseCode(code), row.PluralFormula)) //nolint:gosec // G115: an enumeration
	return row, nil
}
