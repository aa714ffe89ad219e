package server

import (
	"context"
	"errors"

	"github.com/tmsproject/tms/pkg/lang"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

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

// filePlural is the language's plural that a file's rule is
// (lang.PickPlural over the language's stored plurals), stored when new.
func (s *Server) filePlural(ctx context.Context, l *store.Language, number int, formula string) (*catalogv1.Plural, error) {
	def := defaultPlural(l)
	if number == 0 && formula == "" {
		return def, nil
	}
	stored, err := s.st.ListPlurals(ctx, l.ID)
	if err != nil {
		return nil, storeErr(err, nil)
	}
	known := make([]lang.Rule, len(stored))
	for i, p := range stored {
		known[i] = lang.Rule{ID: p.ID, Source: p.Source, Number: p.Number, Formula: p.Formula, Type: p.Type}
	}
	r, isNew := lang.PickPlural(l.Code, lang.Rule{ID: l.ID, Source: l.PluralSource, Number: l.PluralNumber,
		Formula: l.PluralFormula, Type: l.PluralType}, known, number, formula)
	if !isNew {
		return &catalogv1.Plural{Id: r.ID, Source: r.Source, Number: r.Number, Formula: r.Formula, Type: r.Type,
			LanguageCode: l.Code}, nil
	}
	p, err := s.st.CreatePlural(ctx, store.Plural{LanguageID: l.ID, Source: r.Source, Number: r.Number,
		Formula: r.Formula, Type: r.Type})
	if err != nil {
		return nil, storeErr(err, nil)
	}
	return pluralProto(l, p), nil
}

// fileLanguage builds an unknown language named by its code with the
// plural rule read from a file (lang.FileLanguage).
func fileLanguage(code string, number int32, formula string) (store.Language, error) {
	r, err := lang.FileLanguage(code, number, formula)
	if err != nil {
		return store.Language{}, err
	}
	return store.Language{Code: code, Name: code, Direction: "ltr", Aliases: []string{}, PluralSource: r.Source,
		PluralNumber: r.Number, PluralFormula: r.Formula, PluralType: r.Type}, nil
}
