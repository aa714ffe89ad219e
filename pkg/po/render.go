package po

import (
	"fmt"
	"slices"
	"strings"
)

// render writes the entry the way translate-toolkit's pounit._getoutput does:
// translator comments, extracted comments, references, flags, previous
// strings, then msgctxt, msgid, msgid_plural and msgstr. Parts whose value is
// unchanged since parsing keep their original lines; the msgstr is always
// re-rendered after SetTarget.
func (e *Entry) render(nl string) string {
	r := &renderer{e: e, s: e.orig, nl: nl}
	if r.s == nil {
		r.s = &snapshot{}
	}
	r.comments(groupTranslator, e.TranslatorComments, r.s.translator)
	if e.Obsolete {
		// Obsolete units lose extracted comments and references.
		r.comments(groupFlags, e.Flags, r.s.flags)
		r.message("#~ ", "#~|")
		return r.b.String()
	}
	// translate-toolkit writes only the translator comments of a unit with an
	// empty msgid, unless it is the header or has a context or references.
	if e.Msgid == "" && !(e.IsHeader() && r.hasMsgstr() || e.HasContext || len(e.References) > 0) {
		return r.b.String()
	}
	r.comments(groupExtracted, e.ExtractedComments, r.s.extracted)
	r.comments(groupReference, e.References, r.s.references)
	r.comments(groupFlags, e.Flags, r.s.flags)
	r.message("", "#|")
	return r.b.String()
}

type renderer struct {
	e  *Entry
	s  *snapshot
	nl string
	b  strings.Builder
}

func (r *renderer) line(parts ...string) {
	for _, p := range parts {
		r.b.WriteString(p)
	}
	r.b.WriteString(r.nl)
}

// hasMsgstr is translate-toolkit's "not is_null(msgstr)" for the header test.
func (r *renderer) hasMsgstr() bool {
	return len(r.e.Msgstr) > 1 || len(r.e.Msgstr) == 1 && r.e.Msgstr[0] != ""
}

// comments writes one comment group: the original lines when the values are
// unchanged, otherwise lines built from the values.
func (r *renderer) comments(group int, values, orig []string) {
	if r.e.orig != nil && slices.Equal(values, orig) {
		for _, l := range r.s.comments[group] {
			r.line(l)
		}
		return
	}
	if group == groupFlags {
		if len(values) > 0 {
			r.line("#, ", strings.Join(values, ", "))
		}
		return
	}
	marker := [...]string{groupTranslator: "#", groupExtracted: "#.", groupReference: "#:"}[group]
	for _, v := range values {
		if v == "" {
			r.line(marker)
		} else {
			r.line(marker, " ", v)
		}
	}
}

// message writes the previous strings and the keywords. prefix starts every
// keyword and continuation line ("#~ " for obsolete entries).
func (r *renderer) message(prefix, prevPrefix string) {
	e, s := r.e, r.s
	r.previous(prevPrefix, "msgctxt", e.HasPreviousContext, e.PreviousContext, s.prevCtx)
	r.previous(prevPrefix, "msgid", e.HasPreviousMsgid, e.PreviousMsgid, s.prevID)
	r.previous(prevPrefix, "msgid_plural", e.HasPreviousMsgidPlural, e.PreviousMsgidPlural, s.prevPlural)
	if e.HasContext {
		r.part(prefix, "msgctxt", r.lines(e.Context, s.ctx))
	}
	r.part(prefix, "msgid", r.lines(e.Msgid, s.id))
	if e.HasPlural {
		r.part(prefix, "msgid_plural", r.lines(e.MsgidPlural, s.plural))
	}
	keep := !e.retarget && e.orig != nil && slices.Equal(e.Msgstr, r.origMsgstr())
	for i, v := range e.Msgstr {
		var lines []string
		if keep {
			lines = s.msgstr[i].lines
		} else {
			lines = quoteLines(v)
		}
		switch {
		case !e.HasPlural:
			r.part(prefix, "msgstr", lines)
		case keep:
			r.part(prefix, fmt.Sprintf("msgstr[%d]", s.msgstrIndex[i]), lines)
		default:
			r.part(prefix, fmt.Sprintf("msgstr[%d]", i), lines)
		}
		if !e.HasPlural {
			break
		}
	}
	if len(e.Msgstr) == 0 {
		r.part(prefix, "msgstr", nil)
	}
}

func (r *renderer) origMsgstr() []string {
	out := make([]string, len(r.s.msgstr))
	for i, q := range r.s.msgstr {
		out[i] = q.value
	}
	return out
}

// lines returns the original quoted lines of an unchanged part, or renders it.
func (r *renderer) lines(value string, orig quoted) []string {
	if r.e.orig != nil && orig.present && orig.value == value {
		return orig.lines
	}
	return quoteLines(value)
}

// part is _getmsgpartstr: the keyword with the first line, then the rest;
// an empty string is written as `""`.
func (r *renderer) part(prefix, keyword string, lines []string) {
	if len(lines) == 0 {
		r.line(prefix, keyword, ` ""`)
		return
	}
	r.line(prefix, keyword, " ", lines[0])
	previous := "" // like translate-toolkit, the first line is not compared
	for _, l := range lines[1:] {
		if previous == `""` && l == `""` {
			continue
		}
		previous = l
		r.line(prefix, l)
	}
}

// previous writes "#| keyword ..." lines (translate-toolkit only writes a
// previous string that has at least one quoted line).
func (r *renderer) previous(prefix, keyword string, has bool, value string, orig quoted) {
	if !has {
		return
	}
	lines := r.lines(value, orig)
	if len(lines) == 0 {
		return
	}
	r.line(prefix, " ", keyword, " ", lines[0])
	for _, l := range lines[1:] {
		r.line(prefix, " ", l)
	}
}
