package writeback

import (
	"errors"
	"slices"
	"strings"

	"github.com/tmsproject/tms/pkg/weblate"
	"github.com/tmsproject/tms/services/translation/formats"
)

// Unit is the stored state of one string to write into the file.
type Unit struct {
	// Context is the msgctxt of a bilingual unit, the key of a
	// monolingual one.
	Context string
	// Source holds the source forms (msgid and msgid_plural in PO).
	Source []string
	// Target holds the forms; ignored for state 0.
	Target []string
	State  int
}

// Key identifies a unit: context and source forms (the context alone in a
// monolingual file).
type Key struct {
	Context string
	Source  []string
}

// Mode says how units are matched with the file's.
type Mode struct {
	// Plurals is the form count of the translation's language, used for
	// new and emptied plural units.
	Plurals int
	// Monolingual matches units by key (context) alone, and adds no empty
	// unit to a file that lacks it (the template is the list of strings).
	Monolingual bool
}

func (m Mode) key(ctx string, source []string) string {
	if m.Monolingual {
		return ctx
	}
	return ctx + "\x04" + strings.Join(source, "\x1e\x1e")
}

// Result counts what Apply changed.
type Result struct {
	Updated, Added, Removed int
}

// Changed reports whether the file needs writing.
func (r Result) Changed() bool { return r.Updated+r.Added+r.Removed > 0 }

// Apply writes units into f (matching them with the file's by key; a unit
// without one is appended) and drops the units of removed. Units already
// holding the unit's text and fuzziness are left untouched, so they keep
// their bytes.
func Apply(f formats.File, units []Unit, removed []Key, m Mode) (Result, error) {
	var res Result
	index := map[string]*formats.Unit{}
	for _, u := range f.Units() {
		if k := m.key(u.Context, u.Source); index[k] == nil {
			index[k] = u
		}
	}
	for _, k := range removed {
		key := m.key(k.Context, k.Source)
		if u := index[key]; u != nil && f.Remove(u) {
			delete(index, key)
			res.Removed++
		}
	}
	for _, u := range units {
		key := m.key(u.Context, u.Source)
		fu := index[key]
		if fu == nil {
			if m.Monolingual && u.State == weblate.StateEmpty {
				continue
			}
			forms, fuzzy := targetForms(u, m.Plurals, len(u.Source) > 1)
			fu = &formats.Unit{Context: u.Context, Source: u.Source, Target: forms, Fuzzy: fuzzy, Approved: u.State == weblate.StateApproved}
			if m.Monolingual {
				fu.Source = nil
			}
			if err := f.Add(fu); err != nil {
				return res, err
			}
			index[key] = fu
			res.Added++
			continue
		}
		forms, fuzzy := targetForms(u, m.Plurals, len(fu.Source) > 1 || len(u.Source) > 1)
		if err := setTarget(f, fu, forms, fuzzy, u.State == weblate.StateApproved); err != nil {
			if errors.Is(err, errSame) {
				continue
			}
			return res, err
		}
		res.Updated++
	}
	return res, nil
}

// errSame: the file already holds the unit as stored.
var errSame = errors.New("unchanged")

// setTarget writes a unit's forms and state, approval included where
// the file records it (XLIFF), and errSame when it holds them already.
func setTarget(f formats.File, fu *formats.Unit, forms []string, fuzzy, approved bool) error {
	af, approvals := f.(formats.ApprovalFile)
	if slices.Equal(forms, fu.Target) && (fuzzy == fu.Fuzzy || !f.RecordsFuzzy()) && (!approvals || approved == fu.Approved) {
		return errSame
	}
	if approvals {
		return af.SetTargetApproved(fu, forms, fuzzy, approved)
	}
	return f.SetTarget(fu, forms, fuzzy)
}

// targetForms is what the file stores for a unit: the target forms (empty
// ones for state 0, as Weblate blanks an emptied string) and the fuzzy flag.
// A plural unit gets the translation's forms: stray forms past them (a
// one-form language's msgstr[1]) go, as the reference writes the units it
// edits.
func targetForms(u Unit, plurals int, plural bool) ([]string, bool) {
	n := 1
	if plural {
		n = max(plurals, len(u.Target), 1)
	}
	forms := make([]string, n)
	if u.State != weblate.StateEmpty {
		copy(forms, u.Target)
	}
	return forms, u.State == weblate.StateFuzzy
}
