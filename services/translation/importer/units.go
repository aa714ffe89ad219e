package importer

import (
	"github.com/tmsproject/tms/pkg/po"
	"github.com/tmsproject/tms/pkg/textstat"
	"github.com/tmsproject/tms/services/translation/store"
)

// SourceForms are the msgid and, for plurals, the msgid_plural.
func SourceForms(e *po.Entry) []string {
	if e.HasPlural {
		return []string{e.Msgid, e.MsgidPlural}
	}
	return []string{e.Msgid}
}

// State is the unit state of a PO entry: fuzzy entries with some text need
// editing; entries with every form filled are translated; the rest empty.
func State(e *po.Entry) int {
	empty := true
	for _, s := range e.Msgstr {
		if s != "" {
			empty = false
		}
	}
	switch {
	case empty:
		return store.StateEmpty
	case e.Fuzzy():
		return store.StateFuzzy
	case e.Translated():
		return store.StateTranslated
	default:
		return store.StateEmpty
	}
}

// newUnit builds the unit of an entry; source units are read-only and carry
// their source as target.
func newUnit(e *po.Entry, cjk, source bool) store.Unit {
	src := SourceForms(e)
	u := store.Unit{
		Source:         store.Join(src),
		Target:         e.Target(),
		PreviousSource: e.PreviousSource(),
		Context:        e.Context,
		Location:       e.Location(),
		Note:           e.Note(),
		Flags:          e.FlagsWithoutFuzzy(),
		IDHash:         textstat.IDHash(src, e.Context),
		ContentHash:    textstat.ContentHash(src, e.Context),
		State:          State(e),
		NumWords:       int64(textstat.Words(src, cjk)),
		NumChars:       int64(textstat.Chars(src)),
		Priority:       100,
	}
	if len(e.Msgstr) == 0 {
		u.Target = ""
	}
	if source {
		u.Target, u.State, u.PreviousSource = u.Source, store.StateReadOnly, ""
	}
	return u
}

// NewUnit is the unit of a translation-file entry.
func NewUnit(e *po.Entry, cjk bool) store.Unit { return newUnit(e, cjk, false) }
