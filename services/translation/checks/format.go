package checks

import (
	"regexp"
	"slices"
	"strings"
)

// formatSyntax is one placeholder syntax of Weblate's format checks.
type formatSyntax struct {
	re *regexp.Regexp
	// token is what a match stands for (Weblate's extract_string).
	token func(m []string) string
	// escaped tokens (%%, {{, }}) are dropped before comparing.
	escaped []string
	// positional reports a token matched by order, not by name.
	positional func(tok string) bool
	// show writes a token as it reads in a string.
	show func(tok string) string
}

// The regular expressions of Weblate's format.py, \d as Python reads it
// (any decimal digit); Go's alternation is leftmost-first as Python's.
var (
	cPrintf = formatSyntax{
		re:         regexp.MustCompile(`%((?:(\p{Nd}+)\$)?([ +#'-]*(?:\p{Nd}+)?(?:\.\p{Nd}+)?(hh|h|l|ll)?([a-zA-Z%])|))`),
		token:      func(m []string) string { return strings.ReplaceAll(m[1], "'", "") },
		escaped:    []string{"%"},
		positional: func(tok string) bool { return !strings.Contains(tok, "$") && tok != "%" },
		show:       func(tok string) string { return "%" + tok },
	}
	pythonPrintf = formatSyntax{
		re:         regexp.MustCompile(`%((?:\(([^)]+)\))?([ +#-]*(?:\p{Nd}+)?(?:\.\p{Nd}+)?(hh|h|l|ll)?([a-zA-Z%])|))`),
		token:      func(m []string) string { return strings.ReplaceAll(m[1], "'", "") },
		escaped:    []string{"%"},
		positional: func(tok string) bool { return !strings.Contains(tok, "(") && tok != "{" && tok != "}" },
		show:       func(tok string) string { return "%" + tok },
	}
	pythonBrace = formatSyntax{
		re: regexp.MustCompile(`}(})|{({)|{(|(?:[0-9]+|[_A-Za-z][_0-9A-Za-z]*)(?:\.[_A-Za-z][_0-9A-Za-z]*|\[[^\]]+\])*(?:![rsa])?(?::.?[<>=^]?[+ -]?[#]?0?(?:[1-9][0-9]*)?,?(?:\.[1-9][0-9]*)?[bcdeEfFgGnosxX%]?)?)}`),
		token: func(m []string) string {
			for _, g := range m[1:4] {
				if g != "" {
					return g
				}
			}
			return ""
		},
		escaped:    []string{"{", "}"},
		positional: func(tok string) bool { return tok == "" },
		show:       func(tok string) string { return "{" + tok + "}" },
	}
)

var (
	pythonFormat      = formatCheck("python_format", "Python format", "Python format string does not match source.", "python-format", pythonPrintf, false)
	pythonBraceFormat = formatCheck("python_brace_format", "Python brace format", "Python brace format string does not match source.",
		"python-brace-format", pythonBrace, true)
	cFormat = formatCheck("c_format", "C format", "C format string does not match source.", "c-format", cPrintf, false)
)

// tokens are the placeholders of s, escaped ones dropped.
func (f formatSyntax) tokens(s string) []string {
	var out []string
	for _, m := range f.re.FindAllStringSubmatch(s, -1) {
		if tok := f.token(m); !slices.Contains(f.escaped, tok) {
			out = append(out, tok)
		}
	}
	return out
}

// mismatch is what one comparison found.
type mismatch struct{ missing, extra []string }

// compare is Weblate's check_format of one source and target form.
func (f formatSyntax) compare(source, target string, ignoreMissing, brace bool) mismatch {
	var r mismatch
	if source != "" && target != "" {
		r = f.compareTokens(f.tokens(source), f.tokens(target), ignoreMissing)
	}
	if brace { // a single brace left over in the target
		rest := f.re.ReplaceAllString(target, "")
		for _, b := range []string{"{", "}"} {
			if strings.Contains(rest, b) {
				r.extra = append(r.extra, b)
			}
		}
	}
	return r
}

func (f formatSyntax) compareTokens(s, t []string, ignoreMissing bool) mismatch {
	var r mismatch
	positional := len(s) == 0 || slices.ContainsFunc(s, f.positional)
	if !positional { // named: any order, compared as multisets
		count := map[string]int{}
		for _, x := range s {
			count[x]++
		}
		for _, x := range t {
			count[x]--
		}
		for k, n := range count {
			if n > 0 {
				r.missing = append(r.missing, k)
			} else if n < 0 {
				r.extra = append(r.extra, k)
			}
		}
	} else if !slices.Equal(s, t) {
		for i := range min(len(s), len(t)) {
			if s[i] != t[i] {
				r.missing, r.extra = append(r.missing, s[i]), append(r.extra, t[i])
			}
		}
		if len(s) > len(t) {
			r.missing = append(r.missing, s[len(t):]...)
		}
		if len(t) > len(s) {
			r.extra = append(r.extra, t[len(s):]...)
		}
	}
	if ignoreMissing && len(r.missing) > 0 && len(r.extra) == 0 {
		return mismatch{}
	}
	return r
}

// formatCheck is a format check: the placeholders of each target form
// must be those of the source form it translates (Weblate's
// BaseFormatCheck, with its plural rules).
func formatCheck(id, name, description, enable string, f formatSyntax, brace bool) check {
	return check{id: id, name: name, description: description, enable: enable, syntax: &f, run: func(u *Unit) string {
		var all mismatch
		formatPairs(u, f.re.MatchString, func(s, t string, ignoreMissing bool) {
			r := f.compare(s, t, ignoreMissing, brace)
			all.missing, all.extra = append(all.missing, r.missing...), append(all.extra, r.extra...)
		})
		return f.describe(all, description, brace)
	}}
}

// formatPairs calls fn with each (source, target) pair a format check
// compares, as Weblate's BaseFormatCheck.check_generator pairs plural
// forms: a form used for one number (or for 0 and 1 alone) may leave
// placeholders out (ignoreMissing), unless strict-format says otherwise.
// hasTokens reports a source form with placeholders.
func formatPairs(u *Unit, hasTokens func(string) bool, fn func(source, target string, ignoreMissing bool)) {
	s, t := u.Sources, u.Targets
	switch {
	case len(s) == 0:
	case len(s) > 1 && len(t) == 1:
		fn(s[1], t[0], false)
	default:
		singular := s[0]
		if len(s) > 1 && !hasTokens(s[0]) && hasTokens(s[1]) {
			singular = s[1]
		}
		var ex [][]int64
		var more []bool
		if len(s) > 1 { // the examples matter for plurals only
			ex, more = examples(u.TargetPlural)
		}
		one := func(j int) bool { return j < len(ex) && len(ex[j]) == 1 && !more[j] }
		zeroOne := len(ex) > 0 && slices.Equal(ex[0], []int64{0, 1}) && !more[0]
		fn(singular, t[0], len(s) > 1 && !u.Flags.Has("strict-format") && (one(0) || zeroOne))
		for j := 1; len(s) > 1 && j < len(t); j++ {
			fn(s[1], t[j], one(j))
		}
	}
}

// describe words a mismatch as Weblate does; "" when there is none.
func (f formatSyntax) describe(r mismatch, description string, brace bool) string {
	var parts []string
	if brace {
		for _, b := range []string{"{", "}"} {
			if i := slices.Index(r.extra, b); i >= 0 && !slices.Contains(r.missing, b) {
				r.extra = slices.DeleteFunc(r.extra, func(x string) bool { return x == b })
				parts = append(parts, "Single "+b+" encountered in the format string.")
			}
		}
	}
	if len(r.missing) == 0 && len(r.extra) == 0 {
		if len(parts) > 0 {
			return strings.Join(parts, " ")
		}
		return ""
	}
	list := func(toks []string) string {
		out := make([]string, 0, len(toks))
		for _, t := range toks {
			out = append(out, f.show(t))
		}
		slices.Sort(out)
		return strings.Join(slices.Compact(out), ", ")
	}
	switch {
	case len(r.missing) > 0 && !slices.ContainsFunc(r.missing, func(t string) bool { return !f.positional(t) }) && list(r.missing) == list(r.extra):
		parts = append(parts, "The following format strings are in the wrong order: "+list(r.missing))
	default:
		if len(r.missing) > 0 {
			parts = append(parts, "The following format strings are missing: "+list(r.missing))
		}
		if len(r.extra) > 0 {
			parts = append(parts, "The following format strings are extra: "+list(r.extra))
		}
	}
	if len(parts) == 0 {
		return description
	}
	return strings.Join(parts, " ")
}
