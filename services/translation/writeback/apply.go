package writeback

import (
	"slices"
	"strings"

	"github.com/tmsproject/tms/pkg/po"
)

// Unit states, as the translation store numbers them.
const (
	stateEmpty = 0
	stateFuzzy = 10
)

// Unit is the stored state of one string to write into the file.
type Unit struct {
	Context string
	// Source holds the msgid and, for plurals, the msgid_plural.
	Source []string
	// Target holds the forms; ignored for state 0.
	Target []string
	State  int
}

// Key identifies an entry: context and source forms.
type Key struct {
	Context string
	Source  []string
}

func keyString(ctx string, source []string) string {
	return ctx + "\x04" + strings.Join(source, po.PluralSeparator)
}

func entryKey(e *po.Entry) string { return e.Context + "\x04" + e.Source() }

// Result counts what Apply changed.
type Result struct {
	Updated, Added, Removed int
}

// Changed reports whether the file needs writing.
func (r Result) Changed() bool { return r.Updated+r.Added+r.Removed > 0 }

// Apply writes units into f (matching entries by context and source; a
// unit without an entry is appended as a new entry) and drops the entries
// of removed. plurals is the form count of the translation's language,
// used for new and emptied plural entries. Entries already holding the
// unit's text and fuzziness are left untouched, so they keep their bytes.
func Apply(f *po.File, units []Unit, removed []Key, plurals int) (Result, error) {
	var res Result
	index := map[string]*po.Entry{}
	for _, e := range f.Entries() {
		if k := entryKey(e); index[k] == nil {
			index[k] = e
		}
	}
	for _, k := range removed {
		key := keyString(k.Context, k.Source)
		if e := index[key]; e != nil && f.RemoveEntry(e) {
			delete(index, key)
			res.Removed++
		}
	}
	for _, u := range units {
		key := keyString(u.Context, u.Source)
		e := index[key]
		if e == nil {
			e = newEntry(u, plurals)
			f.AddEntry(e)
			index[key] = e
			res.Added++
			continue
		}
		forms, fuzzy := targetForms(u, plurals, e.HasPlural)
		if slices.Equal(forms, e.Msgstr) && fuzzy == e.Fuzzy() {
			continue
		}
		if err := e.SetTarget(forms, fuzzy); err != nil {
			return res, err
		}
		res.Updated++
	}
	return res, nil
}

// targetForms is what the file stores for a unit: the target forms (empty
// ones for state 0, as Weblate blanks an emptied string) and the fuzzy flag.
// A plural entry gets the translation's forms: stray msgstr[n] past them
// (a one-form language's msgstr[1]) go, as the reference writes the
// entries it edits.
func targetForms(u Unit, plurals int, plural bool) ([]string, bool) {
	n := 1
	if plural {
		n = max(plurals, len(u.Target), 1)
	}
	forms := make([]string, n)
	if u.State != stateEmpty {
		copy(forms, u.Target)
	}
	return forms, u.State == stateFuzzy
}

func newEntry(u Unit, plurals int) *po.Entry {
	e := &po.Entry{Context: u.Context, HasContext: u.Context != ""}
	if len(u.Source) > 0 {
		e.Msgid = u.Source[0]
	}
	if len(u.Source) > 1 {
		e.MsgidPlural, e.HasPlural = u.Source[1], true
	}
	forms, fuzzy := targetForms(u, plurals, e.HasPlural)
	e.Msgstr = forms
	if fuzzy {
		e.Flags = []string{"fuzzy"}
	}
	return e
}
