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
func (e *Entry) render(nl string) string { return e.renderWrapped(nl, wrapToolkit, false) }

// renderWrapped is render with the strings wrapped in the given style; with
// rewrapAll it also re-wraps the strings whose original lines it would keep.
func (e *Entry) renderWrapped(nl string, style wrapStyle, rewrapAll bool) string {
	r := &renderer{e: e, s: e.orig, nl: nl, style: style, rewrapAll: rewrapAll}
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
	e      *Entry
	s      *snapshot
	nl     string
	style  wrapStyle
	format formatKind // the entry's format language, for wrapStyle wrapGettext
	b      strings.Builder
	// rewrapAll re-renders unchanged strings too (tests compare the result
	// with the original lines).
	rewrapAll bool
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
	r.format = entryFormat(e.Flags)
	r.previous(prevPrefix, "msgctxt", e.HasPreviousContext, e.PreviousContext, s.previous(0))
	r.previous(prevPrefix, "msgid", e.HasPreviousMsgid, e.PreviousMsgid, s.previous(1))
	r.previous(prevPrefix, "msgid_plural", e.HasPreviousMsgidPlural, e.PreviousMsgidPlural, s.previous(2))
	if e.HasContext {
		r.part(prefix, "msgctxt", r.lines(e.Context, s.ctx, prefix, "msgctxt"))
	}
	r.part(prefix, "msgid", r.lines(e.Msgid, s.id, prefix, "msgid"))
	if e.HasPlural {
		r.part(prefix, "msgid_plural", r.lines(e.MsgidPlural, s.plural, prefix, "msgid_plural"))
	}
	keep := !e.retarget && !r.rewrapAll && e.orig != nil && slices.Equal(e.Msgstr, r.origMsgstr())
	for i, v := range e.Msgstr {
		keyword := "msgstr"
		switch {
		case e.HasPlural && keep:
			keyword = fmt.Sprintf("msgstr[%d]", s.msgstrIndex[i])
		case e.HasPlural:
			keyword = fmt.Sprintf("msgstr[%d]", i)
		}
		if keep {
			r.part(prefix, keyword, s.msgstr[i].lines)
		} else {
			r.part(prefix, keyword, r.quote(v, prefix, keyword))
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

// lines returns the original quoted lines of an unchanged part, or renders it
// for keyword on lines starting with linePrefix.
func (r *renderer) lines(value string, orig quoted, linePrefix, keyword string) []string {
	if r.e.orig != nil && orig.present && orig.value == value && !r.rewrapAll {
		return orig.lines
	}
	return r.quote(value, linePrefix, keyword)
}

// quote renders value as quoted lines in the renderer's wrapping style.
func (r *renderer) quote(value, linePrefix, keyword string) []string {
	if r.style == wrapGettext {
		return gettextQuoteLines(value, linePrefix, keyword, r.format)
	}
	return toolkitQuoteLines(value)
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
	lines := r.lines(value, orig, prefix+" ", keyword)
	if len(lines) == 0 {
		return
	}
	r.line(prefix, " ", keyword, " ", lines[0])
	for _, l := range lines[1:] {
		r.line(prefix, " ", l)
	}
}
