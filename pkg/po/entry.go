package po

import (
	"errors"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// PluralSeparator joins the forms of a plural string, as Weblate's get_string
// does for multistrings.
const PluralSeparator = "\x1e\x1e"

// Entry is one PO message (or the header, or a trailing block of comments).
// The exported fields hold the parsed, unescaped values; edit them through
// SetTarget, or change them directly and call MarkDirty.
type Entry struct {
	TranslatorComments []string // "# " lines, without the marker
	ExtractedComments  []string // "#." lines, without the marker
	References         []string // "#:" lines, one element per line
	Flags              []string // "#," flags in order, including "fuzzy"

	PreviousContext        string // "#| msgctxt"
	HasPreviousContext     bool
	PreviousMsgid          string // "#| msgid"
	HasPreviousMsgid       bool
	PreviousMsgidPlural    string // "#| msgid_plural"
	HasPreviousMsgidPlural bool

	Context     string
	HasContext  bool // msgctxt present, possibly empty
	Msgid       string
	MsgidPlural string
	HasPlural   bool     // msgid_plural present; Msgstr then holds msgstr[N]
	Msgstr      []string // one element per form, in file order

	Obsolete bool // "#~" entry

	raw     []byte    // the entry's own lines, as read
	trailer []byte    // blank lines after the entry, as read
	orig    *snapshot // parsed state and raw lines; nil for added entries
	dirty   bool
	// retarget makes the msgstr lines re-rendered even when unchanged, as
	// translate-toolkit does whenever a target is assigned.
	retarget bool
	// commentOnly marks a block of comments with no message after it.
	commentOnly bool
}

// IsHeader reports whether the entry has the shape of the PO header: an
// empty msgid without context.
func (e *Entry) IsHeader() bool {
	return !e.Obsolete && !e.commentOnly && e.Msgid == "" && !e.HasContext
}

// Fuzzy reports whether the entry carries the "fuzzy" flag.
func (e *Entry) Fuzzy() bool { return slices.Contains(e.Flags, "fuzzy") }

// FlagsWithoutFuzzy returns the other flags sorted, deduplicated and joined
// with ", ", as Weblate presents a PO unit's flags.
func (e *Entry) FlagsWithoutFuzzy() string {
	var out []string
	for _, f := range e.Flags {
		if f != "fuzzy" && !slices.Contains(out, f) {
			out = append(out, f)
		}
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// Target returns the translation with plural forms joined by PluralSeparator.
func (e *Entry) Target() string { return strings.Join(e.Msgstr, PluralSeparator) }

// Source returns the msgid, and the msgid_plural after PluralSeparator when
// the entry has one.
func (e *Entry) Source() string {
	if e.HasPlural {
		return e.Msgid + PluralSeparator + e.MsgidPlural
	}
	return e.Msgid
}

// Translated reports whether every form has a non-empty translation.
func (e *Entry) Translated() bool {
	if len(e.Msgstr) == 0 {
		return false
	}
	for _, s := range e.Msgstr {
		if s == "" {
			return false
		}
	}
	return true
}

// Note returns the comments Weblate shows as the unit's note: translate-toolkit's
// getnotes() without an origin, i.e. the translator comments followed by the
// extracted comments, one per line.
func (e *Entry) Note() string {
	notes := make([]string, 0, len(e.TranslatorComments)+len(e.ExtractedComments))
	notes = append(notes, e.TranslatorComments...)
	notes = append(notes, e.ExtractedComments...)
	return strings.Join(notes, "\n")
}

// docstringLocation is the Sphinx "docstring of" noise Weblate drops.
var docstringLocation = regexp.MustCompile(`:docstring of [a-zA-Z0-9._]+:[0-9]+`)

// Location returns the references as Weblate lists them: every "#:" line is
// split on whitespace, each location is URL-unquoted (translate-toolkit's
// getlocations), Sphinx docstring suffixes are removed, and the result is
// joined with ", ".
func (e *Entry) Location() string {
	var locs []string
	for _, ref := range e.References {
		for _, loc := range strings.FieldsFunc(ref, isSpace) {
			locs = append(locs, unquotePlus(loc))
		}
	}
	joined := docstringLocation.ReplaceAllString(strings.Join(locs, " "), "")
	return strings.Join(strings.FieldsFunc(joined, isSpace), ", ")
}

// unquotePlus is Python's urllib.parse.unquote_plus with strict UTF-8
// decoding, falling back to the input as translate-toolkit does.
func unquotePlus(s string) string {
	if !strings.ContainsAny(s, "+%") {
		return s
	}
	plus := strings.ReplaceAll(s, "+", " ")
	if !strings.Contains(plus, "%") {
		return plus
	}
	var b strings.Builder
	for i := 0; i < len(plus); i++ {
		if plus[i] == '%' && i+2 < len(plus) && isHex(plus[i+1]) && isHex(plus[i+2]) {
			v, _ := url.PathUnescape(plus[i : i+3])
			b.WriteString(v)
			i += 2
			continue
		}
		b.WriteByte(plus[i])
	}
	if !utf8.ValidString(b.String()) {
		return s
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// PreviousSource returns the previous msgid (and msgid_plural after
// PluralSeparator) of a fuzzy entry, and "" for an entry that is not fuzzy,
// like Weblate's previous_source.
func (e *Entry) PreviousSource() string {
	if !e.Fuzzy() {
		return ""
	}
	if e.HasPreviousMsgidPlural {
		return e.PreviousMsgid + PluralSeparator + e.PreviousMsgidPlural
	}
	return e.PreviousMsgid
}

// ErrFormCount is returned by SetTarget when the number of forms does not fit
// the entry: exactly one for a singular entry, at least one for a plural one.
var ErrFormCount = errors.New("po: wrong number of translation forms")

// SetTarget stores a translation the way Weblate does through translate-toolkit:
// the msgstr is replaced and re-rendered, the fuzzy flag is added or removed
// (the flag line is then rewritten with the flags sorted), and previous
// strings ("#|") are dropped unless the entry stays fuzzy.
func (e *Entry) SetTarget(forms []string, fuzzy bool) error {
	if len(forms) == 0 || (!e.HasPlural && len(forms) != 1) {
		return ErrFormCount
	}
	e.Msgstr = slices.Clone(forms)
	e.setFuzzy(fuzzy)
	if !fuzzy {
		e.ClearPrevious()
	}
	e.retarget = true
	e.dirty = true
	return nil
}

// ClearPrevious removes the previous msgctxt, msgid and msgid_plural.
func (e *Entry) ClearPrevious() {
	e.PreviousContext, e.HasPreviousContext = "", false
	e.PreviousMsgid, e.HasPreviousMsgid = "", false
	e.PreviousMsgidPlural, e.HasPreviousMsgidPlural = "", false
	e.dirty = true
}

// setFuzzy is translate-toolkit's settypecomment("fuzzy", on): flags are only
// touched when the state changes, and then come out sorted.
func (e *Entry) setFuzzy(on bool) {
	if e.Fuzzy() == on {
		return
	}
	var flags []string
	for _, f := range e.Flags {
		if f != "fuzzy" {
			flags = append(flags, f)
		}
	}
	if on {
		flags = append(flags, "fuzzy")
	}
	slices.Sort(flags)
	e.Flags = flags
	e.dirty = true
}

// MarkDirty makes File.Bytes re-render the entry from its fields. Fields left
// as parsed keep their original lines, as translate-toolkit keeps them.
func (e *Entry) MarkDirty() { e.dirty = true }

// Dirty reports whether the entry will be re-rendered.
func (e *Entry) Dirty() bool { return e.dirty || e.orig == nil }

// Raw returns the bytes the entry was parsed from, including the blank lines
// that followed it; nil for an added entry.
func (e *Entry) Raw() []byte {
	if e.orig == nil {
		return nil
	}
	return slices.Concat(e.raw, e.trailer)
}

// isSpace is Python's \s for str patterns (str.isspace), which unlike Go also
// counts the ASCII information separators U+001C..U+001F.
func isSpace(r rune) bool {
	return unicode.IsSpace(r) || (r >= 0x1c && r <= 0x1f)
}
