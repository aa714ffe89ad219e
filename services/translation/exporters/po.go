package exporters

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tmsproject/tms/pkg/po"
)

func init() { register(poExporter{}) }

// poExporter is the reference's PoExporter: a new translate-toolkit pofile
// whose header the exporter updates, one entry per unit.
type poExporter struct{}

func (poExporter) Name() string        { return "po" }
func (poExporter) ContentType() string { return "text/x-po; charset=utf-8" }
func (poExporter) Extension() string   { return "po" }
func (poExporter) Supports(Meta) bool  { return true }

func (poExporter) Export(m Meta, units []Unit) []byte {
	f := po.New()
	f.AddEntry(&po.Entry{Msgstr: []string{poHeader(m)}})
	for _, u := range units {
		f.AddEntry(poEntry(m, u))
	}
	return f.Bytes()
}

// poHeader is the header of a new pofile (init_headers: the defaults of
// makeheaderdict) after the exporter's updateheader(add=True, language,
// x_generator, project_id_version, plural_forms, language_team): the known
// fields in translate-toolkit's header_order, the header no longer fuzzy.
func poHeader(m Meta) string {
	fields := [][2]string{
		{"Project-Id-Version", fmt.Sprintf("%s (%s)", m.LanguageName, m.ProjectName)},
		{"Report-Msgid-Bugs-To", ""},
		{"POT-Creation-Date", m.Now.Format("2006-01-02 15:04-0700")},
		{"PO-Revision-Date", "YEAR-MO-DA HO:MI+ZONE"},
		{"Last-Translator", "FULL NAME <EMAIL@ADDRESS>"},
		{"Language-Team", fmt.Sprintf("%s <%s>", m.LanguageName, m.URL)},
		{"Language", m.LanguageCode},
		{"MIME-Version", "1.0"},
		{"Content-Type", "text/plain; charset=UTF-8"},
		{"Content-Transfer-Encoding", "8bit"},
		{"Plural-Forms", fmt.Sprintf("nplurals=%d; plural=%s;", m.PluralNumber, m.PluralFormula)},
		{"X-Generator", m.Generator},
	}
	var b strings.Builder
	for _, f := range fields {
		b.WriteString(f[0] + ": " + f[1] + "\n")
	}
	return b.String()
}

// poEntry is the unit as pounit: msgid (and msgid_plural), the target
// forms, "#:" per location, msgctxt, "#." developer and "# " translator
// notes, and the flags with fuzzy, sorted, on one "#," line.
func poEntry(m Meta, u Unit) *po.Entry {
	e := &po.Entry{Msgid: u.source()[0], Msgstr: u.targets(m.PluralNumber)}
	if u.plural() {
		e.MsgidPlural, e.HasPlural = u.Source[1], true
	}
	for _, l := range u.locations() {
		e.References = append(e.References, quotePlus(l))
	}
	if u.Context != "" {
		e.Context, e.HasContext = u.Context, true
	}
	for _, n := range u.developerNotes(identity) {
		e.ExtractedComments = append(e.ExtractedComments, noteLines(n)...)
	}
	for _, n := range u.translatorNotes() {
		e.TranslatorComments = append(e.TranslatorComments, noteLines(n)...)
	}
	flags := u.flags()
	if u.fuzzy() && !slices.Contains(flags, "fuzzy") {
		flags = append(flags, "fuzzy")
	}
	slices.Sort(flags)
	e.Flags = flags
	return e
}

// noteLines is pypo's addnote: nothing for a blank note, else one comment
// line per line of the note.
func noteLines(note string) []string {
	if strings.TrimSpace(note) == "" {
		return nil
	}
	return strings.Split(note, "\n")
}

// quotePlus is Python's urllib.parse.quote_plus with safe "[]()/:,@", as
// pypo writes a location: a space becomes "+", other bytes outside the
// unreserved and safe characters %XX.
func quotePlus(s string) string {
	const safe = "[]()/:,@_.-~"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte(safe, c) >= 0:
			b.WriteByte(c)
		case c == ' ':
			b.WriteByte('+')
		default:
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
