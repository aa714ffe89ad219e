// Package base declares what every file format of the translation service
// implements: a parsed File of Units that can be edited and rendered back
// with everything not edited byte-identical, and the Format that parses
// files and creates new translation files from a template.
package base

import (
	"fmt"
	"io"
	"time"
)

// Unit is one translatable string of a parsed file.
//
// For bilingual formats (PO) Context is the msgctxt and Source the msgid
// (and msgid_plural). For monolingual formats (JSON and the like) Context
// is the unit's key, as Weblate gives it, and Source is empty: the source
// text is the template's Target.
type Unit struct {
	Context        string
	Source         []string
	Target         []string
	Note           string
	Flags          string // comma-separated, as Weblate lists them
	Location       string
	PreviousSource string
	Fuzzy          bool
	// Approved: the file marks the unit approved (XLIFF approved="yes");
	// formats without approval leave it false.
	Approved bool
	// ReadOnly: the file marks the unit untranslatable (XLIFF
	// translate="no"); the reference imports it read-only.
	ReadOnly bool
	// Ref is the format's own handle of the unit; callers pass the Unit
	// back to File methods and do not touch it.
	Ref any
}

// Plural reports whether the unit has plural forms.
func (u *Unit) Plural() bool { return len(u.Source) > 1 || len(u.Target) > 1 }

// File is a parsed translation file.
type File interface {
	// Units are the translatable units in file order.
	Units() []*Unit
	// SetTarget stores the forms of a unit of this file (and its fuzziness
	// where the format records it).
	SetTarget(u *Unit, forms []string, fuzzy bool) error
	// Add appends a unit built from Context, Source, Target and Fuzzy.
	Add(u *Unit) error
	// Remove drops a unit of this file; false when it is not there.
	Remove(u *Unit) bool
	// Bytes renders the file: untouched content as read, edited units as
	// the reference writes them.
	Bytes() []byte
	// RecordsFuzzy reports whether the format stores the fuzzy state (PO
	// does, JSON does not: there it lives in the database only).
	RecordsFuzzy() bool
}

// ApprovalFile is a File that records approval (XLIFF): SetTargetApproved
// is SetTarget that also stores whether the unit is approved.
type ApprovalFile interface {
	File
	SetTargetApproved(u *Unit, forms []string, fuzzy, approved bool) error
}

// Header holds the fields Weblate sets on every save of a file whose
// format has a header (PO): the last translator, plural forms, language,
// revision date, the generator, and optionally the language team and the
// bug report address.
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

// HeaderFile is a File with a header of fields (PO).
type HeaderFile interface {
	File
	HeaderField(name string) string
	UpdateHeader(h Header)
}

// Compiler is a File that compiles to a binary catalogue (PO to MO).
type Compiler interface {
	File
	// Compile returns the catalogue, its file extension and content type.
	Compile() (data []byte, ext, contentType string)
}

// Language is what a format needs to know of a file's language: its code
// (as the file mask names it) and its plural.
type Language struct {
	Code          string
	PluralNumber  int
	PluralFormula string
}

// Format parses and creates the files of one file format.
type Format interface {
	// ID is the reference's file_format identifier ("po", "json", ...).
	ID() string
	// Name is the human name of the format.
	Name() string
	// Monolingual reports whether files hold keys and targets only, the
	// source strings being the template's.
	Monolingual() bool
	// ContentType is the MIME type of a download.
	ContentType() string
	// Parse reads a file of the given language. Malformed input is an
	// error; nothing is parsed partially.
	Parse(data []byte, lang Language) (File, error)
	// NewTranslation renders a new translation file for lang from base
	// (the component's new_base or template), every target empty.
	NewTranslation(base []byte, lang Language) ([]byte, error)
}

// BilingualUpdater is a Format that can bring a translation file up to a
// new template (Weblate's BilingualUpdateMixin, msgmerge for PO): the
// source upload of a bilingual component needs it.
type BilingualUpdater interface {
	Format
	// UpdateBilingual returns translation merged with template: the
	// template's strings in its order, the translation's text kept for the
	// strings it had, strings it no longer has dropped. Malformed input is
	// an error.
	UpdateBilingual(translation, template []byte) ([]byte, error)
}

// AddForms checks a unit given to Add of a monolingual file (it needs a
// key the file does not have yet; exists says whether it has) and
// returns its forms, one empty form when it has none. format prefixes
// the errors.
func AddForms(format string, u *Unit, exists bool) ([]string, error) {
	if u.Context == "" {
		return nil, fmt.Errorf("%s: a key is required", format)
	}
	if exists {
		return nil, fmt.Errorf("%s: key %q exists", format, u.Context)
	}
	if len(u.Target) == 0 {
		return []string{""}, nil
	}
	return u.Target, nil
}

// Plural is a plural rule: its number of forms, formula and Weblate type.
type Plural struct {
	Number  int
	Formula string
	Type    int
}

// PluralOverride is a Format whose files use another plural than the
// language's own (stringsdict adds a form for zero). PluralFor returns
// the plural a translation in the format uses when the language's is p,
// and false when that is p itself. The translation service asks it
// wherever it decides a translation's plural.
type PluralOverride interface {
	PluralFor(p Plural) (Plural, bool)
}

// Streamer is a Format that can read a file of any size in bounded
// memory: Stream reads r in pieces of about piece bytes, cut between
// units, and calls each with every piece parsed as a file of its own (the
// header, where the format has one, in front of each). The pieces' units,
// in order, are the file's. A format whose variant cannot be cut so
// answers false to Streams and is read whole.
type Streamer interface {
	Format
	Streams() bool
	Stream(r io.Reader, lang Language, piece int, each func(File) error) error
}

// ErrUnitTooLarge is Stream's answer to one unit larger than the most a
// piece may hold (MaxStreamUnit).
var ErrUnitTooLarge = fmt.Errorf("a single string is larger than %d MiB", MaxStreamUnit>>20)

// MaxStreamUnit bounds one unit of a streamed file: far above any real
// string, it keeps one line of a hostile file from taking the memory.
const MaxStreamUnit = 32 << 20
