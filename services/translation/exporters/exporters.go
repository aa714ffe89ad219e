// Package exporters renders a translation in another file format on
// download (GET …/file/?format=…), the way the reference's exporters
// (weblate/formats/exporters.py, over translate-toolkit's writers) do: a
// fresh file built from the translation's units in the database, not the
// file in the repository. Each exporter fills the unit fields its
// translate-toolkit store keeps (source, target, context, notes, locations,
// flags, fuzziness) and serializes them as that store does.
package exporters

import (
	"sort"
	"strings"
	"time"

	"github.com/tmsproject/tms/pkg/weblate"
)

// Unit is one string of the translation, in file order.
type Unit struct {
	Context string
	// Source and Target are the plural forms (one form when not plural).
	Source []string
	Target []string
	// Location lists the unit's locations separated by commas, as the
	// reference stores them ("a.c:1, b.c:2").
	Location string
	// Note is the developer note of the file; Explanation the one set in
	// the service on the source string.
	Note        string
	Explanation string
	// Flags are the unit's flags, comma-separated.
	Flags string
	State int
	// IDHash is the unit's id_hash; its checksum names a unit without
	// context in the XLIFF exports.
	IDHash int64
	// Comments are the unresolved comments and Suggestions the suggested
	// targets (each a list of plural forms): translator notes on export.
	Comments    []string
	Suggestions [][]string
}

// Meta describes the translation being exported.
type Meta struct {
	ProjectSlug, ProjectName string
	ComponentSlug            string
	LanguageCode             string
	LanguageName             string
	SourceLanguage           string
	PluralNumber             int
	PluralFormula            string
	// URL is the translation's web page (the PO Language-Team address).
	URL string
	// Generator is the X-Generator value of a PO header.
	Generator string
	// Now stamps POT-Creation-Date.
	Now time.Time
	// Monolingual is true when the component has a template (the key
	// formats, JSON, export only those).
	Monolingual bool
}

// Exporter renders units in one format.
type Exporter interface {
	// Name is the format parameter ("po", "csv", ...).
	Name() string
	// ContentType is the media type of the download.
	ContentType() string
	// Extension is the file name extension, without the dot.
	Extension() string
	// Supports tells whether the translation can be exported this way.
	Supports(m Meta) bool
	// Export renders the units.
	Export(m Meta, units []Unit) []byte
}

var registry = map[string]Exporter{}

func register(e Exporter) { registry[e.Name()] = e }

// Lookup finds the exporter of a format parameter.
func Lookup(name string) (Exporter, bool) {
	e, ok := registry[name]
	return e, ok
}

// Names lists the formats, sorted.
func Names() []string {
	out := make([]string, 0, len(registry))
	for n := range registry {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// Filename is the download's name as the reference gives it:
// <project>-<component>-<language>.<extension>.
func Filename(e Exporter, m Meta) string {
	return m.ProjectSlug + "-" + m.ComponentSlug + "-" + m.LanguageCode + "." + e.Extension()
}

// plural reports whether the unit has plural forms (its source has).
func (u Unit) plural() bool { return len(u.Source) > 1 }

// source is the source forms, one empty form when there are none.
func (u Unit) source() []string {
	if len(u.Source) == 0 {
		return []string{""}
	}
	return u.Source
}

// targets are the target forms as the reference gives them: one for a
// singular unit, else exactly the language's number of forms (padded with
// empty ones or cut).
func (u Unit) targets(n int) []string {
	if !u.plural() {
		if len(u.Target) == 0 {
			return []string{""}
		}
		return u.Target[:1]
	}
	if n < 1 {
		n = len(u.Target)
	}
	out := make([]string, n)
	copy(out, u.Target)
	return out
}

// fuzzy is the reference's unit.fuzzy.
func (u Unit) fuzzy() bool { return u.State == weblate.StateFuzzy }

// locations splits Location as the reference does (on commas, trimmed).
func (u Unit) locations() []string {
	var out []string
	for _, l := range strings.Split(u.Location, ",") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// flags lists the unit's flags, each once, in order.
func (u Unit) flags() []string {
	var out []string
	seen := map[string]bool{}
	for _, f := range strings.Split(u.Flags, ",") {
		if f = strings.TrimSpace(f); f != "" && !seen[f] {
			seen[f] = true
			out = append(out, f)
		}
	}
	return out
}

// developerNotes are the notes the reference adds with origin
// "developer": the file's note, then the explanation.
func (u Unit) developerNotes(filter func(string) string) []string {
	var out []string
	for _, n := range []string{u.Note, u.Explanation} {
		if n = filter(n); n != "" {
			out = append(out, n)
		}
	}
	return out
}

// translatorNotes are the notes with origin "translator": the unresolved
// comments, then one "Suggested in Weblate: …" per suggestion (the
// reference's wording, which its importers recognise).
func (u Unit) translatorNotes() []string {
	out := append([]string(nil), u.Comments...)
	for _, s := range u.Suggestions {
		out = append(out, "Suggested in Weblate: "+strings.Join(s, ", "))
	}
	return out
}

func identity(s string) string { return s }
