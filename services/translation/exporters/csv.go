package exporters

import (
	"strings"
)

func init() { register(csvExporter{}) }

// csvExporter is the reference's CSVExporter: translate-toolkit's csvfile
// with its default columns, written with Python's "excel" dialect (commas,
// fields quoted only when needed, CRLF line ends).
type csvExporter struct{}

func (csvExporter) Name() string        { return "csv" }
func (csvExporter) ContentType() string { return "text/csv; charset=utf-8" }
func (csvExporter) Extension() string   { return "csv" }
func (csvExporter) Supports(Meta) bool  { return true }

// csvColumns are csvfile's default fieldnames.
var csvColumns = []string{"location", "source", "target", "id", "fuzzy", "context",
	"translator_comments", "developer_comments"}

func (csvExporter) Export(m Meta, units []Unit) []byte {
	var b strings.Builder
	csvRow(&b, csvColumns)
	for _, u := range units {
		csvRow(&b, csvFields(m, u))
	}
	return []byte(b.String())
}

// csvFields are the columns of a csvunit. A multistring is written as its
// first form, so a plural unit keeps its first source and target form; a
// unit keeps its last location (addlocation replaces it); the id column
// stays empty (the CSV exporter sets none).
func csvFields(m Meta, u Unit) []string {
	fuzzy := "False"
	if u.fuzzy() {
		fuzzy = "True"
	}
	var location string
	if ls := u.locations(); len(ls) > 0 {
		location = ls[len(ls)-1]
	}
	return []string{location, csvEscape(u.source()[0]), csvEscape(u.targets(m.PluralNumber)[0]), "", fuzzy,
		csvEscape(u.Context), strings.Join(u.translatorNotes(), "\n"),
		strings.Join(u.developerNotes(csvEscape), "\n")}
}

// csvEscape is the exporter's guard against spreadsheet formulas: text
// starting with = + - @ | or % is wrapped in apostrophes, its pipes
// backslash-escaped (the reference's CSV importer undoes it).
func csvEscape(s string) string {
	if s != "" && strings.IndexByte("=+-@|%", s[0]) >= 0 {
		return "'" + strings.ReplaceAll(s, "|", `\|`) + "'"
	}
	return s
}

// csvRow writes one row as Python's csv writer does with the excel
// dialect: a field is quoted when it holds a comma, a quote, CR or LF,
// quotes inside doubled; rows end with CRLF.
func csvRow(b *strings.Builder, fields []string) {
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		if strings.ContainsAny(f, ",\"\r\n") {
			b.WriteString(`"` + strings.ReplaceAll(f, `"`, `""`) + `"`)
		} else {
			b.WriteString(f)
		}
	}
	b.WriteString("\r\n")
}
