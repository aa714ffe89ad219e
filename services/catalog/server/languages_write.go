package server

import (
	"context"
	"errors"
	"strings"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/lang"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// Weblate's limits of a language.
const (
	languageCodeLength = 50
	languageNameLength = 100
	maxPluralForms     = 10
)

// mayEditLanguages is language.edit, a site-wide permission (superusers).
func mayEditLanguages(ctx context.Context) error {
	if c, ok := policy.FromContext(ctx); ok && !c.CanGlobal("language.edit") {
		return errs.New(errs.PermissionDenied, "Can not manage languages")
	}
	return nil
}

// languageDuplicate is Weblate's message for a taken code.
func languageDuplicate(string) string { return "Language with this Language code already exists." }

// CreateLanguage adds a language with its default plural.
func (s *Server) CreateLanguage(ctx context.Context, req *catalogv1.CreateLanguageRequest) (*catalogv1.CreateLanguageResponse, error) {
	if err := mayEditLanguages(ctx); err != nil {
		return nil, err
	}
	in := req.GetLanguage()
	c := &checker{set: fieldSet{"code": true, "name": true}, create: true}
	if c.present("code", "code", in.GetCode()) && c.maxLen("code", in.GetCode(), languageCodeLength) && !lang.SaneCode(in.GetCode()) {
		c.add("code", "invalid", "Enter a valid language code.")
	}
	l := &store.Language{Code: in.GetCode(), Name: strings.TrimSpace(in.GetName()), Direction: or(in.GetDirection(), "ltr"),
		Population: in.GetPopulation(), Aliases: []string{}}
	if in.GetPluralNumber() == 0 && in.GetPluralFormula() == "" {
		c.add("plural", "required", "This field is required.")
	}
	checkLanguage(c, l, in.GetPluralNumber(), in.GetPluralFormula())
	if err := c.err(); err != nil {
		return nil, err
	}
	if err := s.st.AddLanguage(ctx, l); err != nil {
		return nil, storeErr(err, languageDuplicate)
	}
	return &catalogv1.CreateLanguageResponse{Language: languageProto(l)}, nil
}

// checkLanguage validates and sets l's name, direction and plural.
func checkLanguage(c *checker, l *store.Language, number int32, formula string) {
	if c.present("name", "name", l.Name) {
		c.maxLen("name", l.Name, languageNameLength)
	}
	c.choice("direction", l.Direction, "ltr", "rtl", "")
	if l.Population < 0 {
		c.add("population", "min_value", "Ensure this value is greater than or equal to 0.")
	}
	if number < 1 || number > maxPluralForms {
		c.add("plural", "invalid", "Invalid number of plurals.")
		return
	}
	if _, err := lang.CompilePlural(formula); err != nil {
		c.add("plural", "invalid", "Invalid plural formula.")
		return
	}
	l.PluralNumber, l.PluralFormula = number, formula
	l.PluralType = int32(lang.PluralTypeFor(lang.BaseCode(l.Code), formula)) //nolint:gosec // G115: an enumeration
}

// UpdateLanguage changes the named fields of a language.
func (s *Server) UpdateLanguage(ctx context.Context, req *catalogv1.UpdateLanguageRequest) (*catalogv1.UpdateLanguageResponse, error) {
	if err := mayEditLanguages(ctx); err != nil {
		return nil, err
	}
	l, err := s.findLanguage(ctx, req.GetCode())
	if err != nil {
		return nil, storeErr(err, nil)
	}
	in, set := req.GetLanguage(), fieldSet{}
	number, formula := l.PluralNumber, l.PluralFormula
	for _, f := range req.GetUpdateMask().GetPaths() {
		switch f {
		case "name":
			l.Name = strings.TrimSpace(in.GetName())
		case "direction":
			l.Direction = in.GetDirection()
		case "population":
			l.Population = in.GetPopulation()
		case "plural_number":
			number = in.GetPluralNumber()
		case "plural_formula":
			formula = in.GetPluralFormula()
		default:
			return nil, errs.Invalid(f, "invalid", "Unknown field.")
		}
		set[f] = true
	}
	c := &checker{set: set}
	checkLanguage(c, l, number, formula)
	if err := c.err(); err != nil {
		return nil, err
	}
	if set["plural_number"] || set["plural_formula"] {
		l.PluralSource = store.PluralSourceDefault
	}
	if err := s.st.SaveLanguage(ctx, l); err != nil {
		return nil, storeErr(err, nil)
	}
	return &catalogv1.UpdateLanguageResponse{Language: languageProto(l)}, nil
}

// DeleteLanguage removes a language and its plurals.
func (s *Server) DeleteLanguage(ctx context.Context, req *catalogv1.DeleteLanguageRequest) (*catalogv1.DeleteLanguageResponse, error) {
	if err := mayEditLanguages(ctx); err != nil {
		return nil, err
	}
	l, err := s.st.GetLanguage(ctx, req.GetCode())
	if errors.Is(err, store.ErrNotFound) || (err == nil && l.Code != req.GetCode()) {
		return nil, notFound()
	}
	if err != nil {
		return nil, storeErr(err, nil)
	}
	return &catalogv1.DeleteLanguageResponse{}, storeErr(s.st.DeleteLanguage(ctx, l.ID), nil)
}
