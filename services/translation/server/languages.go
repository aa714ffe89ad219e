package server

import (
	"context"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/lang"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	"github.com/tmsproject/tms/services/translation/store"
)

// copyLanguages resolves language codes against the service's copy of
// the catalog's language table (store.LanguageTable), as the catalog's
// GetLanguage and EnsureLanguage do, so that an import asks the catalog
// nothing (importer.Languages). It reads and reports through st: the
// store of the transaction an import runs in, if any (a write outside it
// would wait for it on SQLite's one writer).
type copyLanguages struct {
	s  *Server
	st languageStore
}

// languageStore is where copyLanguages reads the table and reports what
// it lacks.
type languageStore interface {
	LanguageTable(ctx context.Context) (*store.Languages, error)
	RecordImportOutcome(ctx context.Context, o *catalogv1.ImportOutcome) error
}

// languages is copyLanguages over the server's store.
func (s *Server) languages() copyLanguages { return copyLanguages{s: s, st: s.cfg.Store} }

// GetLanguage is the language of code as the catalog finds it: a stored
// code (exact, then ignoring case), else the built-in table's (aliases,
// "pt-BR", "de_DE" ...), which the catalog stores on first sight and is
// told of; NotFound for any other.
func (c copyLanguages) GetLanguage(ctx context.Context, code string) (*catalogv1.Language, error) {
	l, isNew, err := c.lookup(ctx, code)
	if err == nil && isNew {
		c.report(ctx, &catalogv1.EnsureLanguageRequest{Code: l.GetCode()})
	}
	return l, err
}

// lookup is GetLanguage telling the catalog nothing (a language's name
// for display).
func (c copyLanguages) lookup(ctx context.Context, code string) (l *catalogv1.Language, isNew bool, err error) {
	table, err := c.st.LanguageTable(ctx)
	if err != nil {
		return nil, false, err
	}
	l, isNew, ok := find(table, code)
	if !ok {
		return nil, false, errs.NotFoundf("Not found.")
	}
	return l, isNew, nil
}

// find is the language of code in table, or the built-in table's entry
// the catalog stores on first sight (isNew).
func find(table *store.Languages, code string) (l *catalogv1.Language, isNew, ok bool) {
	if l, ok = table.Find(code); ok {
		return l, false, true
	}
	b, builtin := lang.Lookup(code)
	if !builtin {
		return nil, false, false
	}
	if l, ok = table.Find(b.Code); ok {
		return l, false, true
	}
	return &catalogv1.Language{Code: b.Code, Name: b.Name, Direction: b.Direction, PluralSource: lang.SourceDefault,
		PluralNumber: int32(b.PluralNumber), PluralFormula: b.PluralFormula, PluralType: int32(b.PluralType), //nolint:gosec // G115: a table entry, at most 6 forms; an enumeration
		Aliases: b.Aliases, Population: b.Population}, true, true
}

// EnsureLanguage answers what the catalog's EnsureLanguage would: the
// language of a file's code, made of the file's rule when unknown, and
// the plural the rule picks (lang.PickPlural). A language or a plural the
// copy lacks (its id 0 until the table comes back with it) goes to the
// catalog through the outbox of import outcomes, which stores it as
// EnsureLanguage would and sends the table again
// (store.ApplyLanguages then gives the translations read with it its id).
func (c copyLanguages) EnsureLanguage(ctx context.Context, req *catalogv1.EnsureLanguageRequest) (*catalogv1.EnsureLanguageResponse, error) {
	table, err := c.st.LanguageTable(ctx)
	if err != nil {
		return nil, err
	}
	l, newLanguage, ok := find(table, req.GetCode())
	if !ok {
		if l, err = fileLanguage(req); err != nil {
			return nil, err
		}
		newLanguage = true
	}
	var known []lang.Rule
	for _, p := range table.Plurals(l.GetId()) {
		known = append(known, lang.Rule{ID: p.GetId(), Source: p.GetSource(), Number: p.GetNumber(), Formula: p.GetFormula(), Type: p.GetType()})
	}
	def := lang.Rule{ID: l.GetId(), Source: l.GetPluralSource(), Number: l.GetPluralNumber(), Formula: l.GetPluralFormula(), Type: l.GetPluralType()}
	r, newPlural := lang.PickPlural(l.GetCode(), def, known, int(req.GetPluralNumber()), req.GetPluralFormula())
	if newLanguage || newPlural {
		c.report(ctx, req)
	}
	return &catalogv1.EnsureLanguageResponse{Language: l, Plural: &catalogv1.Plural{Id: r.ID, Source: r.Source,
		Number: r.Number, Formula: r.Formula, Type: r.Type, LanguageCode: l.GetCode()}}, nil
}

// fileLanguage is the language the catalog makes of an unknown code and
// a file's rule, refused as the catalog refuses it.
func fileLanguage(req *catalogv1.EnsureLanguageRequest) (*catalogv1.Language, error) {
	r, err := lang.FileLanguage(req.GetCode(), req.GetPluralNumber(), req.GetPluralFormula())
	if err != nil {
		return nil, err
	}
	return &catalogv1.Language{Code: req.GetCode(), Name: req.GetCode(), Direction: "ltr", Aliases: []string{},
		PluralSource: r.Source, PluralNumber: r.Number, PluralFormula: r.Formula, PluralType: r.Type}, nil
}

// report hands a file's code and rule to the catalog through the outbox
// of import outcomes; a failure costs the plural's id until the next
// import reports it.
func (c copyLanguages) report(ctx context.Context, req *catalogv1.EnsureLanguageRequest) {
	err := c.st.RecordImportOutcome(ctx, &catalogv1.ImportOutcome{Languages: []*catalogv1.EnsureLanguageRequest{req}})
	if err != nil {
		c.s.cfg.Log.Warn("report a language to the catalog", "code", req.GetCode(), "err", err)
		return
	}
	c.s.cfg.Outcome()
}
