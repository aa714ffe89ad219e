package server

import (
	"cmp"
	"context"
	"slices"
	"time"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/translation/exporters"
	"github.com/tmsproject/tms/services/translation/store"
)

// exportFile answers a translation converted to another format, as the
// reference's download with ?format= does: rendered from the units in the
// database (pending edits included, nothing committed), in file order.
// A format with no exporter, or one the translation can not be written
// in (JSON of a bilingual component), is the reference's validation error
// on "format". A translation without a file (a bilingual source) is not
// found, as there.
func (s *Server) exportFile(ctx context.Context, comp *catalogv1.Component, t store.Translation, format string) (*translationv1.GetFileResponse, error) {
	if t.Filename == "" {
		return nil, errs.NotFoundf("Not found.")
	}
	exp, ok := exporters.Lookup(format)
	if !ok {
		return nil, errs.Invalid("format", "invalid", "Conversion to "+format+" is not supported")
	}
	m := s.exportMeta(ctx, comp, t)
	if !exp.Supports(m) {
		return nil, errs.Invalid("format", "invalid", "File format is not compatible with this translation")
	}
	units, err := s.exportUnits(ctx, t)
	if err != nil {
		return nil, err
	}
	return &translationv1.GetFileResponse{Content: exp.Export(m, units), Filename: exporters.Filename(exp, m),
		ContentType: exp.ContentType()}, nil
}

// exportMeta gathers what the exporters write besides the units.
func (s *Server) exportMeta(ctx context.Context, comp *catalogv1.Component, t store.Translation) exporters.Meta {
	mc := s.newMessageContext(ctx, comp)
	lng := mc.language(ctx, t.LanguageCode)
	m := exporters.Meta{ProjectSlug: t.ProjectSlug, ProjectName: mc.project.GetName(), ComponentSlug: t.ComponentSlug,
		LanguageCode: t.LanguageCode, LanguageName: lng.GetName(), SourceLanguage: comp.GetSourceLanguageCode(),
		PluralNumber: t.PluralNumber, PluralFormula: t.PluralFormula,
		URL:       s.cfg.Git.translationURL(t.ProjectSlug, t.ComponentSlug, t.LanguageCode),
		Generator: s.cfg.Git.Generator, Now: time.Now().UTC(), Monolingual: comp.GetTemplate() != ""}
	if m.PluralFormula == "" { // rows imported before plurals were kept
		m.PluralNumber, m.PluralFormula = int(lng.GetPluralNumber()), lng.GetPluralFormula()
	}
	return m
}

// exportUnits lists the translation's units in file order with their
// unresolved comments and suggestions.
func (s *Server) exportUnits(ctx context.Context, t store.Translation) ([]exporters.Unit, error) {
	views, _, err := s.cfg.Store.UnitsOf(ctx, t, 0, 0)
	if err != nil {
		return nil, err
	}
	slices.SortStableFunc(views, func(a, b store.UnitView) int {
		return cmp.Or(cmp.Compare(a.Position, b.Position), cmp.Compare(a.ID, b.ID))
	})
	out := make([]exporters.Unit, len(views))
	for i, v := range views {
		u := exporters.Unit{Context: v.Context, Source: store.Split(v.Source), Target: store.Split(v.Target),
			Location: v.Location, Note: v.Note, Explanation: v.Explanation, Flags: joinFlags(v.Flags, v.ExtraFlags),
			State: v.State, IDHash: v.IDHash}
		if u.Comments, u.Suggestions, err = s.exportNotes(ctx, v.Unit); err != nil {
			return nil, err
		}
		out[i] = u
	}
	return out, nil
}

// exportNotes are a unit's unresolved comments (its own and its source
// string's) and its suggestions, looked up only for units that have them.
func (s *Server) exportNotes(ctx context.Context, u store.Unit) (comments []string, suggestions [][]string, err error) {
	if u.HasComment {
		list, _, err := s.cfg.Store.ListComments(ctx, u.ID, 0, 0)
		if err != nil {
			return nil, nil, err
		}
		for _, c := range list {
			if !c.Resolved {
				comments = append(comments, c.Comment.Comment)
			}
		}
	}
	if u.HasSuggestion {
		list, _, err := s.cfg.Store.ListSuggestions(ctx, u.ID, 0, 0, store.Hidden{})
		if err != nil {
			return nil, nil, err
		}
		for _, sg := range list {
			suggestions = append(suggestions, store.Split(sg.Target))
		}
	}
	return comments, suggestions, nil
}

// joinFlags is the unit's flags from its file, then those added in the
// service.
func joinFlags(flags, extra string) string {
	switch {
	case flags == "":
		return extra
	case extra == "":
		return flags
	}
	return flags + ", " + extra
}
