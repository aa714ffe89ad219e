package checks

import (
	"slices"
	"strings"
	"unicode"
)

// The Markdown checks of Weblate's markup.py, switched on by md-text.
// Weblate's expressions (weblate/utils/html.py) use look-ahead, a
// conditional group and a back-reference; these are scanners that find
// the same matches.
var (
	mdReflink = check{id: "md-reflink", name: "Markdown references", description: "Markdown link references do not match source.",
		enable: "md-text", run: single(func(_ *Unit, s, t string) bool {
			src := mdReflinks(s)
			return len(src) > 0 && !sameSet(src, mdReflinks(t))
		})}.described()
	mdLink = check{id: "md-link", name: "Markdown links", description: "Markdown links do not match source.",
		enable: "md-text", run: single(func(_ *Unit, s, t string) bool {
			src := mdLinks(s)
			if len(src) == 0 {
				return false
			}
			tgt := mdLinks(t)
			return len(src) != len(tgt) || !sameSet(relativeURLs(src), relativeURLs(tgt))
		})}.described()
	mdSyntax = check{id: "md-syntax", name: "Markdown syntax", description: "Markdown syntax does not match source.",
		enable: "md-text", run: single(func(_ *Unit, s, t string) bool {
			return !sameSet(mdSyntaxValues(s), mdSyntaxValues(t))
		})}.described()
)

// pySpace is Python's \s.
func pySpace(r rune) bool { return unicode.IsSpace(r) || (r >= 0x1C && r <= 0x1F) }

// pyWord is Python's \w.
func pyWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsNumber(r) || r == '_' }

// mdText is a text as the scanners read it: by rune.
type mdText []rune

func (t mdText) at(i int) rune {
	if i < 0 || i >= len(t) {
		return 0
	}
	return t[i]
}

func (t mdText) skipws(i int) int {
	for i < len(t) && pySpace(t[i]) {
		i++
	}
	return i
}

// textBounds are the places a link text starting at i may end.
func (t mdText) textBounds(i int) []int {
	b := []int{i}
	for i < len(t) {
		switch t[i] {
		case '[':
			j := i + 1
			for j < len(t) && t[j] != '^' && t[j] != ']' {
				j++
			}
			if j >= len(t) || t[j] != ']' {
				return b
			}
			i = j + 1
		case ']':
			j := i + 1
			for j < len(t) && t[j] != '[' && t[j] != ']' {
				j++
			}
			if j >= len(t) || t[j] != ']' {
				return b
			}
			i++
		default:
			i++
		}
		b = append(b, i)
	}
	return b
}

// mdMatch is a match of MD_LINK: its end and the inline link's URL (""
// for an autolink or address).
type mdMatch struct {
	end int
	url string
}

// scan calls try at each position, as finditer does, and collects its
// matches.
func scan[T any](t mdText, try func(p int) (T, int, bool)) []T {
	var out []T
	for p := 0; p < len(t); {
		if m, end, ok := try(p); ok {
			out = append(out, m)
			p = end
			continue
		}
		p++
	}
	return out
}

func mdLinks(s string) []mdMatch {
	t := mdText(s)
	return scan(t, func(p int) (mdMatch, int, bool) {
		q := p
		if t[p] == '!' && t.at(p+1) == '[' {
			q = p + 1
		}
		if t[q] == '[' {
			if m, ok := t.link(q); ok {
				return m, m.end, true
			}
		}
		if t[p] == '<' {
			if end, ok := t.angleLink(p); ok {
				return mdMatch{end: end}, end, true
			}
		}
		return mdMatch{}, 0, false
	})
}

// link is an inline link whose text starts at q ('[').
func (t mdText) link(q int) (mdMatch, bool) {
	bounds := t.textBounds(q + 1)
	for k := len(bounds) - 1; k >= 0; k-- {
		j := bounds[k]
		if t.at(j) != ']' || t.at(j+1) != '(' {
			continue
		}
		s := t.skipws(j + 2)
		if t.at(s) == '<' {
			for e := s + 1; e < len(t); e++ {
				if t[e] == '>' {
					if end, ok := t.closeTail(e + 1); ok {
						return mdMatch{end: end, url: string(t[s+1 : e])}, true
					}
				}
			}
		}
		for e := s; e <= len(t); e++ {
			if end, ok := t.closeTail(e); ok {
				return mdMatch{end: end, url: string(t[s:e])}, true
			}
		}
	}
	return mdMatch{}, false
}

// closeTail is the end of a link after its URL at k: an optional title,
// then ')'.
func (t mdText) closeTail(k int) (int, bool) {
	if pySpace(t.at(k)) {
		w := t.skipws(k)
		if c := t.at(w); c == '\'' || c == '"' {
			for c := w + 1; c < len(t); c++ {
				if (t[c] == '\'' || t[c] == '"') && t.at(t.skipws(c+1)) == ')' {
					return t.skipws(c+1) + 1, true
				}
			}
		}
	}
	if e := t.skipws(k); t.at(e) == ')' {
		return e + 1, true
	}
	return 0, false
}

// angleLink is an autolink (<https://…>) or address (<a@b.c>) at p.
func (t mdText) angleLink(p int) (int, bool) {
	g := slices.Index(t[p+1:], '>')
	if g < 0 {
		return 0, false
	}
	g += p + 1
	x := string(t[p+1 : g])
	for _, scheme := range []string{"http://", "https://"} {
		if strings.HasPrefix(x, scheme) && len(x) > len(scheme) {
			return g + 1, true
		}
	}
	xr := []rune(x)
	if i := slices.Index(xr, '@'); i >= 1 && i+2 <= len(xr)-1 && slices.Contains(xr[i+2:len(xr)-1], '.') {
		return g + 1, true
	}
	return 0, false
}

// relativeURLs are the link URLs md-link compares: relative ones,
// anchors and templates (absolute ones may be localized).
func relativeURLs(ms []mdMatch) []string {
	var out []string
	for _, m := range ms {
		if m.url != "" && strings.ContainsRune(".#{", []rune(m.url)[0]) {
			out = append(out, m.url)
		}
	}
	return out
}

// mdReflinks are the references of the reference links of s.
func mdReflinks(s string) []string {
	t := mdText(s)
	return scan(t, func(p int) (string, int, bool) {
		q := p
		if t[p] == '!' && t.at(p+1) == '[' {
			q = p + 1
		}
		if t[q] != '[' {
			return "", 0, false
		}
		bounds := t.textBounds(q + 1)
		for k := len(bounds) - 1; k >= 0; k-- {
			j := bounds[k]
			if t.at(j) != ']' {
				continue
			}
			o := t.skipws(j + 1)
			if t.at(o) != '[' {
				continue
			}
			m := o + 1
			for m < len(t) && t[m] != '^' && t[m] != ']' {
				m++
			}
			if t.at(m) == ']' {
				return string(t[o+1 : m]), m + 1, true
			}
		}
		return "", 0, false
	})
}

// mdSyntaxValues are the markers of MD_SYNTAX's matches in s ("<" for a
// URL or address: Weblate's None).
func mdSyntaxValues(s string) []string {
	t := mdText(s)
	return scan(t, t.syntaxAt)
}

func (t mdText) syntaxAt(p int) (string, int, bool) {
	for _, d := range []string{"__", "**"} {
		if string(t[p:min(p+2, len(t))]) == d {
			for k := p + 3; k+2 <= len(t); k++ {
				if string(t[k:k+2]) == d && (k+2 == len(t) || t[k+2] != rune(d[0])) {
					return d, k + 2, true
				}
			}
		}
	}
	if (t[p] == '_' && (p == 0 || !pyWord(t[p-1]))) || t[p] == '*' {
		if end, ok := t.emphasis(p, t[p]); ok {
			return string(t[p]), end, true
		}
	}
	if t[p] == '`' {
		if m, end, ok := t.code(p); ok {
			return strings.Repeat("`", m), end, true
		}
	}
	if string(t[p:min(p+2, len(t))]) == "~~" && p+2 < len(t) && !pySpace(t[p+2]) {
		for c := p + 2; c+3 <= len(t); c++ {
			if !pySpace(t[c]) && string(t[c+1:c+3]) == "~~" {
				return "~~", c + 3, true
			}
		}
	}
	if t[p] == '<' {
		if end, ok := t.angleLink(p); ok {
			return "<", end, true
		}
	}
	return "", 0, false
}

// emphasis is a _x_ or *x* run at p.
func (t mdText) emphasis(p int, c rune) (int, bool) {
	pos, cnt := p+1, 0
	for {
		closing := cnt >= 1 && t.at(pos) == c
		if closing && c == '_' {
			closing = pos+1 == len(t) || !pyWord(t[pos+1])
		} else if closing {
			closing = pos+1 == len(t) || t[pos+1] != c
		}
		switch {
		case closing:
			return pos + 1, true
		case t.at(pos) == c && t.at(pos+1) == c:
			pos += 2
		case pos < len(t) && t[pos] != c:
			pos++
		default:
			return 0, false
		}
		cnt++
	}
}

// code is a `code` span at p: its backtick run and end.
func (t mdText) code(p int) (int, int, bool) {
	run := func(i int) int {
		n := 0
		for i+n < len(t) && t[i+n] == '`' {
			n++
		}
		return n
	}
	for m := run(p); m >= 1; m-- {
		x := p + m
		s := t.skipws(x)
		for c := s; c < len(t); c++ {
			if t[c] == '`' {
				continue
			}
			if d := t.skipws(c + 1); run(d) == m {
				return m, d + m, true
			}
		}
		if s > x && run(s) == m {
			return m, s + m, true
		}
	}
	return 0, 0, false
}
