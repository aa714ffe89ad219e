// Package formats is the registry of the file formats the translation
// service reads and writes, under the reference's file_format identifiers.
// Each format is one package implementing base.Format; the importer, the
// write-back and the file download and upload paths find it here.
//
// Adding a format: write its package (parse losslessly into base.Units,
// render edits with everything else byte-identical, add and remove units,
// create a new translation file from a template) and list it below.
package formats

import (
	"fmt"
	"slices"

	"github.com/tmsproject/tms/services/translation/formats/applestrings"
	"github.com/tmsproject/tms/services/translation/formats/aresource"
	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/json"
	"github.com/tmsproject/tms/services/translation/formats/po"
	"github.com/tmsproject/tms/services/translation/formats/properties"
	"github.com/tmsproject/tms/services/translation/formats/stringsdict"
	"github.com/tmsproject/tms/services/translation/formats/xliff"
	"github.com/tmsproject/tms/services/translation/formats/xliff2"
	"github.com/tmsproject/tms/services/translation/formats/yaml"
)

// Format is a file format (base.Format), for callers of the registry.
type Format = base.Format

// File is a parsed file (base.File).
type File = base.File

// Unit is a string of a file (base.Unit).
type Unit = base.Unit

// Header is a file's metadata (base.Header).
type Header = base.Header

// HeaderFile is a File with a header (base.HeaderFile).
type HeaderFile = base.HeaderFile

// ApprovalFile is a File that records approval (base.ApprovalFile).
type ApprovalFile = base.ApprovalFile

// BilingualUpdater is a format that merges a translation with a new
// template (base.BilingualUpdater).
type BilingualUpdater = base.BilingualUpdater

// Streamer is a format that reads files in pieces (base.Streamer).
type Streamer = base.Streamer

// Compiler is a format with a compiled form (base.Compiler).
type Compiler = base.Compiler

// Language is what a format needs of a language (base.Language).
type Language = base.Language

// Plural is a plural rule (base.Plural).
type Plural = base.Plural

// PluralOverride is a format with its own plural (base.PluralOverride).
type PluralOverride = base.PluralOverride

// PluralOf is the plural the translations of format use for a language
// whose plural is p: p, unless the format overrides it.
func PluralOf(format Format, p Plural) Plural {
	if po, ok := format.(PluralOverride); ok {
		if q, changed := po.PluralFor(p); changed {
			return q
		}
	}
	return p
}

// registry lists every format, in the order IDs answers.
var registry = []Format{
	po.Format{},
	json.JSON,
	json.Nested,
	json.I18next,
	json.I18nextV4,
	json.GoI18nJSON,
	json.ARB,
	aresource.Format{},
	properties.ISO,
	properties.UTF8,
	properties.UTF16,
	xliff.Format{},
	xliff2.Plain,
	xliff2.Placeables,
	applestrings.UTF16,
	applestrings.UTF8,
	yaml.YAML,
	yaml.Ruby,
	stringsdict.Format{},
}

// Lookup returns the format of a file_format identifier; "" is PO, the
// format of components created before the field was checked.
func Lookup(id string) (Format, error) {
	if id == "" {
		id = "po"
	}
	for _, f := range registry {
		if f.ID() == id {
			return f, nil
		}
	}
	return nil, fmt.Errorf("unsupported file format %q", id)
}

// IDs are the identifiers of every registered format.
func IDs() []string {
	out := make([]string, len(registry))
	for i, f := range registry {
		out[i] = f.ID()
	}
	return out
}

// Supported reports whether id names a registered format.
func Supported(id string) bool { return slices.Contains(IDs(), id) }
