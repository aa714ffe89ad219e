package po

import (
	"fmt"
	"slices"
	"strings"
)

// MergeOptions are the msgmerge options the reference service passes when
// a source file is uploaded (Weblate's handle_source: "--previous" unless
// its msgmerge add-on says otherwise).
type MergeOptions struct {
	// Previous keeps, on fuzzy messages, the msgid the translation was made
	// for as "#|" lines (msgmerge --previous).
	Previous bool
	// NoFuzzy turns off the search for a similar message when a msgid has
	// no exact match (msgmerge --no-fuzzy-matching).
	NoFuzzy bool
}

// MergeStats counts what Merge did with the template's messages, like
// msgmerge's closing statistics line.
type MergeStats struct {
	Exact, Fuzzy, New, Obsolete int
}

// fuzzyThreshold is msgmerge's FUZZY_THRESHOLD: a message is proposed as
// a fuzzy match only when its msgid is more similar than this.
const fuzzyThreshold = 0.6

// contextBonus is the weight msgmerge adds to a candidate without a
// context or with the looked-up one.
const contextBonus = 0.00001

// Merge is GNU msgmerge's merge of def (a translation) with ref (the
// template): the result has ref's messages in ref's order, each carrying
// def's translation of the same msgctxt and msgid; a msgid with no exact
// match takes the translation of the most similar translated msgid (more
// than 60% alike, msgmerge's fstrcmp measure) and is marked fuzzy; the
// others are new and untranslated. def's messages that ref no longer has
// follow as obsolete ("#~") entries when they were translated. The header
// is def's with ref's POT-Creation-Date and Report-Msgid-Bugs-To. The
// result is written the way msgmerge writes a whole file (GNU gettext's
// line wrapping).
//
// Where it differs from msgmerge: a new message's msgstr is always empty
// (msgmerge copies a singular msgstr of the template, empty in a .pot),
// "#:" lines are kept as the template has them rather than re-filled, and
// the "no-wrap" flag is not honoured.
func Merge(def, ref *File, opt MergeOptions) (*File, MergeStats) {
	out := &File{newline: def.newline, style: wrapGettext}
	var stats MergeStats
	m := newMerger(def, opt)
	if h := mergeHeader(def.Header(), ref.Header()); h != nil {
		out.entries = append(out.entries, h)
	}
	for _, r := range ref.entries {
		if r.IsHeader() || r.Obsolete || r.commentOnly {
			continue
		}
		d, exact := m.find(r)
		switch {
		case d != nil && exact:
			stats.Exact++
		case d != nil:
			stats.Fuzzy++
		default:
			stats.New++
			out.entries = append(out.entries, m.newMessage(r))
			continue
		}
		m.used[d] = true
		out.entries = append(out.entries, m.merge(d, r, !exact))
	}
	for _, d := range m.defs {
		if m.used[d] || len(d.Msgstr) == 0 || d.Msgstr[0] == "" {
			continue
		}
		stats.Obsolete++
		out.entries = append(out.entries, obsolete(d))
	}
	return out, stats
}

// merger holds def's messages, indexed for the exact search.
type merger struct {
	opt      MergeOptions
	defs     []*Entry
	exact    map[string]*Entry
	used     map[*Entry]bool
	nplurals int
}

func newMerger(def *File, opt MergeOptions) *merger {
	m := &merger{opt: opt, exact: map[string]*Entry{}, used: map[*Entry]bool{}, nplurals: headerPlurals(def)}
	for _, e := range def.entries {
		if e.IsHeader() || e.commentOnly {
			continue
		}
		m.defs = append(m.defs, e)
		if k := mergeKey(e); m.exact[k] == nil {
			m.exact[k] = e // the first of duplicates, as msgmerge's hash table keeps
		}
	}
	return m
}

// mergeKey tells a missing msgctxt from an empty one, as gettext does.
func mergeKey(e *Entry) string {
	if !e.HasContext {
		return "\x00" + e.Msgid
	}
	return "\x01" + e.Context + "\x04" + e.Msgid
}

// find is msgmerge's lookup for a template message: the def message of
// the same msgctxt and msgid (obsolete ones are revived), else the most
// similar translated one.
func (m *merger) find(r *Entry) (*Entry, bool) {
	if d := m.exact[mergeKey(r)]; d != nil {
		return d, true
	}
	if m.opt.NoFuzzy {
		return nil, false
	}
	best, weight := (*Entry)(nil), fuzzyThreshold
	for _, d := range m.defs {
		if len(d.Msgstr) == 0 || d.Msgstr[0] == "" {
			continue
		}
		bonus := 0.0
		if !d.HasContext || r.HasContext && r.Context == d.Context {
			bonus = contextBonus
		}
		if w := similarity(r.Msgid, d.Msgid, weight-bonus*1.01) + bonus; w > weight {
			best, weight = d, w
		}
	}
	return best, false
}

// merge is msgmerge's message_merge: the template's msgid, comments from
// the source code and format flags, the translation's msgstr, translator
// comments and fuzziness; fuzzy is set for a similarity match.
func (m *merger) merge(d, r *Entry, fuzzy bool) *Entry {
	e := &Entry{
		TranslatorComments: slices.Clone(d.TranslatorComments),
		ExtractedComments:  slices.Clone(r.ExtractedComments),
		References:         slices.Clone(r.References),
		Context:            r.Context, HasContext: r.HasContext,
		Msgid: r.Msgid, MsgidPlural: r.MsgidPlural, HasPlural: r.HasPlural,
		Msgstr: slices.Clone(d.Msgstr), dirty: true,
	}
	fuzzy = fuzzy || d.Fuzzy()
	switch {
	case r.HasPlural && !d.HasPlural:
		// A singular translation of a now plural message: every form
		// gets it, for the translator to review.
		first := firstForm(d.Msgstr)
		e.Msgstr = make([]string, m.nplurals)
		for i := range e.Msgstr {
			e.Msgstr[i] = first
		}
		fuzzy = true
	case !r.HasPlural && d.HasPlural:
		e.Msgstr, fuzzy = []string{firstForm(d.Msgstr)}, true
	case r.HasPlural && r.MsgidPlural != d.MsgidPlural:
		fuzzy = true
	}
	e.Flags = mergedFlags(r.Flags, fuzzy)
	if m.opt.Previous && fuzzy && firstForm(e.Msgstr) != "" {
		// The msgid the translation was made for: the old message's own
		// when it was translated, else what it already recorded.
		if firstForm(d.Msgstr) != "" && !d.Fuzzy() {
			e.PreviousContext, e.HasPreviousContext = d.Context, d.HasContext
			e.PreviousMsgid, e.HasPreviousMsgid = d.Msgid, true
			e.PreviousMsgidPlural, e.HasPreviousMsgidPlural = d.MsgidPlural, d.HasPlural
		} else {
			e.PreviousContext, e.HasPreviousContext = d.PreviousContext, d.HasPreviousContext
			e.PreviousMsgid, e.HasPreviousMsgid = d.PreviousMsgid, d.HasPreviousMsgid
			e.PreviousMsgidPlural, e.HasPreviousMsgidPlural = d.PreviousMsgidPlural, d.HasPreviousMsgidPlural
		}
	}
	return e
}

// newMessage is a template message the translation lacks: untranslated,
// with one empty form per plural of the translation.
func (m *merger) newMessage(r *Entry) *Entry {
	n := 1
	if r.HasPlural {
		n = m.nplurals
	}
	return &Entry{
		TranslatorComments: slices.Clone(r.TranslatorComments),
		ExtractedComments:  slices.Clone(r.ExtractedComments),
		References:         slices.Clone(r.References),
		Flags:              mergedFlags(r.Flags, r.Fuzzy()),
		Context:            r.Context, HasContext: r.HasContext,
		Msgid: r.Msgid, MsgidPlural: r.MsgidPlural, HasPlural: r.HasPlural,
		Msgstr: make([]string, n), dirty: true,
	}
}

// obsolete is a message the template dropped, kept commented out with its
// translation: the source code comments and previous msgid go.
func obsolete(d *Entry) *Entry {
	return &Entry{
		TranslatorComments: slices.Clone(d.TranslatorComments), Flags: slices.Clone(d.Flags),
		Context: d.Context, HasContext: d.HasContext,
		Msgid: d.Msgid, MsgidPlural: d.MsgidPlural, HasPlural: d.HasPlural,
		Msgstr: slices.Clone(d.Msgstr), Obsolete: true, dirty: true,
	}
}

// mergedFlags writes "fuzzy" first, then the template's other flags, as
// msgmerge orders them.
func mergedFlags(ref []string, fuzzy bool) []string {
	var out []string
	if fuzzy {
		out = append(out, "fuzzy")
	}
	for _, f := range ref {
		if f != "fuzzy" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	return out
}

func firstForm(forms []string) string {
	if len(forms) == 0 {
		return ""
	}
	return forms[0]
}

// mergeHeader is the translation's header with the template's
// POT-Creation-Date and Report-Msgid-Bugs-To, or the template's when the
// translation has none.
func mergeHeader(d, r *Entry) *Entry {
	if d == nil && r == nil {
		return nil
	}
	src := d
	if src == nil {
		src = r
	}
	h := &Entry{TranslatorComments: slices.Clone(src.TranslatorComments), Flags: slices.Clone(src.Flags),
		Msgstr: []string{firstForm(src.Msgstr)}, dirty: true}
	if d != nil && r != nil {
		for _, key := range []string{"Report-Msgid-Bugs-To", "POT-Creation-Date"} {
			if v, ok := rawHeaderField(firstForm(r.Msgstr), key); ok {
				h.Msgstr[0] = setRawHeaderField(h.Msgstr[0], key, v)
			}
		}
	}
	return h
}

// rawHeaderField finds "Key: value" among the header's lines.
func rawHeaderField(header, key string) (string, bool) {
	for _, line := range strings.Split(header, "\n") {
		if k, v, ok := strings.Cut(line, ":"); ok && strings.TrimSpace(k) == key {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// setRawHeaderField replaces the line of key, keeping every other line as
// it is, or adds it after the field msgmerge puts it after.
func setRawHeaderField(header, key, value string) string {
	lines := strings.SplitAfter(header, "\n")
	after := -1
	for i, line := range lines {
		k, _, ok := strings.Cut(line, ":")
		switch {
		case !ok:
		case strings.TrimSpace(k) == key:
			lines[i] = key + ": " + value + "\n"
			return strings.Join(lines, "")
		case strings.TrimSpace(k) == "Project-Id-Version" || strings.TrimSpace(k) == "Report-Msgid-Bugs-To":
			after = i
		}
	}
	lines = slices.Insert(lines, after+1, key+": "+value+"\n")
	return strings.Join(lines, "")
}

// headerPlurals is the translation's number of plural forms, 2 when its
// header does not say (msgmerge's default).
func headerPlurals(f *File) int {
	var n int
	rule := f.HeaderField("Plural-Forms")
	if i := strings.Index(rule, "nplurals="); i >= 0 {
		if _, err := fmt.Sscanf(rule[i:], "nplurals=%d", &n); err == nil && n > 0 && n <= 100 {
			return n
		}
	}
	return 2
}
