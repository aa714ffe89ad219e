package importer

import (
	"github.com/tmsproject/tms/pkg/textstat"
	"github.com/tmsproject/tms/pkg/weblate"
	"github.com/tmsproject/tms/services/translation/formats"
	"github.com/tmsproject/tms/services/translation/store"
)

// State is the unit state of a file's unit: fuzzy units with some text
// need editing; units with every form filled are translated; the rest
// empty.
func State(u *formats.Unit) int {
	empty, full := true, len(u.Target) > 0
	for _, s := range u.Target {
		if s != "" {
			empty = false
		} else {
			full = false
		}
	}
	switch {
	case empty:
		return weblate.StateEmpty
	case u.Fuzzy:
		return weblate.StateFuzzy
	case full:
		return weblate.StateTranslated
	default:
		return weblate.StateEmpty
	}
}

// newUnit builds the unit of a bilingual file's unit; source units are
// read-only and carry their source as target.
func newUnit(e *formats.Unit, cjk, source bool) store.Unit {
	src := e.Source
	u := store.Unit{
		Source:         store.Join(src),
		Target:         store.Join(e.Target),
		PreviousSource: e.PreviousSource,
		Context:        e.Context,
		Location:       e.Location,
		Note:           e.Note,
		Flags:          e.Flags,
		IDHash:         textstat.IDHash(src, e.Context),
		ContentHash:    textstat.ContentHash(src, e.Context),
		State:          State(e),
		NumWords:       int64(textstat.Words(src, cjk)),
		NumChars:       int64(textstat.Chars(src)),
		Priority:       100,
	}
	if readOnly(e) {
		u.State = weblate.StateReadOnly
	}
	if source {
		u.Target, u.State, u.PreviousSource = u.Source, weblate.StateReadOnly, ""
	}
	return u
}

// readOnly tells a unit the reference imports read-only whatever its
// target: the file marks it untranslatable (XLIFF translate="no"), or its
// flags hold read-only (a PO "#, read-only", an XLIFF weblate-flags).
func readOnly(e *formats.Unit) bool { return e.ReadOnly || e.HasFlag("read-only") }

// monolingualNote is the note of a key as Weblate's TTKitUnit.notes
// gives it: the translation file's note, preceded by the template's and a
// line break when the two differ (so a template note followed by "\n"
// when the translation file has no note or no unit of the key).
func monolingualNote(tmpl, target *formats.Unit) string {
	note := ""
	if target != nil {
		note = target.Note
	}
	if tmpl.Note != note {
		note = tmpl.Note + "\n" + note
	}
	return note
}

// NewUnit is the unit of a bilingual translation file's unit.
func NewUnit(e *formats.Unit, cjk bool) store.Unit { return newUnit(e, cjk, false) }

// MonolingualUnit is the unit of a key of a monolingual component, as
// Weblate builds it: the key is the context and its hash the id_hash, the
// template's text the source; target is the translation file's unit of the
// key (nil when the file lacks it: the unit is then empty, with plurals
// forms when the source has plurals). For the source translation target is
// the template unit itself, and the unit an editable source string.
func MonolingualUnit(tmpl, target *formats.Unit, plurals int, cjk bool) store.Unit {
	src := tmpl.Target
	if len(src) == 0 {
		src = []string{""}
	}
	u := store.Unit{
		Source:      store.Join(src),
		Context:     tmpl.Context,
		Location:    tmpl.Location,
		Note:        monolingualNote(tmpl, target),
		Flags:       tmpl.Flags,
		IDHash:      textstat.Hash(tmpl.Context),
		ContentHash: textstat.ContentHash(src, tmpl.Context),
		NumWords:    int64(textstat.Words(src, cjk)),
		NumChars:    int64(textstat.Chars(src)),
		Priority:    100,
	}
	if target == nil {
		n := 1
		if len(src) > 1 {
			n = max(plurals, 1)
		}
		u.Target = store.Join(make([]string, n))
	} else {
		u.Target, u.State = store.Join(target.Target), State(target)
	}
	// The template's unit decides, as the reference's is_readonly asks
	// its main unit; a translation file's own flags add to it.
	if readOnly(tmpl) || (target != nil && target.HasFlag("read-only")) {
		u.State = weblate.StateReadOnly
	}
	return u
}
