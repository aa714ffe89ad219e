package writeback

import (
	"strings"
	"time"

	"github.com/tmsproject/tms/pkg/po"
)

// Header holds the fields Weblate sets on every save of a PO file
// (Translation.update_units, then BasePoFormat.update_header): the last
// translator, plural forms, language, revision date, the generator, and
// optionally the language team and the bug report address.
type Header struct {
	// LastTranslator is "Full Name <email>".
	LastTranslator string
	// PluralForms is "nplurals=N; plural=EXPR;".
	PluralForms string
	Language    string
	Revised     time.Time
	// Generator is the X-Generator value ("Weblate 5.x").
	Generator string
	// LanguageTeam is set when the project sets language teams.
	LanguageTeam string
	// ReportBugsTo is the component's report_source_bugs, when set.
	ReportBugsTo string
}

// UpdateHeader sets the fields of h on f, in the order Weblate passes them
// to translate-toolkit (whose header_order decides the final layout).
func UpdateHeader(f *po.File, h Header) {
	f.SetHeaderField("Last-Translator", h.LastTranslator)
	if h.PluralForms != "" {
		f.SetHeaderField("Plural-Forms", h.PluralForms)
	}
	f.SetHeaderField("Language", h.Language)
	f.SetHeaderField("PO-Revision-Date", h.Revised.Format("2006-01-02 15:04-0700"))
	if h.LanguageTeam != "" {
		f.SetHeaderField("Language-Team", h.LanguageTeam)
	}
	if h.ReportBugsTo != "" {
		f.SetHeaderField("Report-Msgid-Bugs-To", h.ReportBugsTo)
	}
	f.SetHeaderField("X-Generator", h.Generator)
	ct := f.HeaderField("Content-Type")
	if ct == "" || strings.Contains(ct, "charset=CHARSET") || strings.Contains(ct, "charset=ASCII") {
		f.SetHeaderField("Content-Type", "text/plain; charset=UTF-8")
	}
}
