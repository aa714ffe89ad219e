package checks

import (
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// safeHTML is Weblate's "Unsafe HTML" (markup.py SafeHTMLCheck): the
// target, cleaned by an HTML sanitizer that allows only the tags and
// attributes the source uses (and safe URL schemes), must come out as it
// went in; a placeholder attribute must not be wrapped in quotes.
// Weblate cleans with ammonia (html5ever); this cleans with x/net/html
// and serializes as html5ever does.
var safeHTML = withAlsoEnable(check{id: "safe-html", name: "Unsafe HTML", description: "The translation uses unsafe HTML markup.",
	enable: "safe-html", run: single(func(u *Unit, s, t string) bool {
		if !u.Flags.Has("safe-html") && !autoSafeHTMLSource(u, s) {
			return false
		}
		if u.Flags.Has("md-text") {
			t = removeMDLinks(t)
		}
		return sanitizeHTML(u, t, s) != t || changedPlaceholderAttrs(s, t)
	})}.described(), "auto-safe-html")

// removeMDLinks deletes the Markdown links of s.
func removeMDLinks(s string) string {
	t := mdText(s)
	var sb strings.Builder
	for p := 0; p < len(t); {
		if m := mdLinkAt(t, p); m.end > p {
			p = m.end
			continue
		}
		sb.WriteRune(t[p])
		p++
	}
	return sb.String()
}

// mdLinkAt is the Markdown link at p, or one ending at p (none).
func mdLinkAt(t mdText, p int) mdMatch {
	q := p
	if t[p] == '!' && t.at(p+1) == '[' {
		q = p + 1
	}
	if t[q] == '[' {
		if m, ok := t.link(q); ok {
			return m
		}
	}
	if t[p] == '<' {
		if end, ok := t.angleLink(p); ok {
			return mdMatch{end: end}
		}
	}
	return mdMatch{end: p}
}

// startTags calls fn with each start (or self-closing) tag of s but
// html and body, its name lowercased.
func startTags(s string, fn func(tok html.Token)) {
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			return
		}
		if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		tok := z.Token()
		if tok.Data = strings.ToLower(tok.Data); tok.Data != "html" && tok.Data != "body" {
			fn(tok)
		}
	}
}

// allowedHTML are the tags a source uses, each with its attributes.
func allowedHTML(source string) map[string][]string {
	out := map[string][]string{}
	startTags(source, func(tok html.Token) {
		if tok.Data == "head" {
			return
		}
		attrs := out[tok.Data]
		for _, a := range tok.Attr {
			attrs = appendNew(attrs, strings.ToLower(a.Key))
		}
		out[tok.Data] = attrs
	})
	return out
}

// safeSchemes are the URL schemes ammonia keeps.
var safeSchemes = []string{"bitcoin", "ftp", "ftps", "geo", "http", "https", "im", "irc", "ircs", "magnet", "mailto", "mms", "mx",
	"news", "nntp", "openpgp4fpr", "sip", "sms", "smsto", "ssh", "tel", "url", "webcal", "wtai", "xmpp"}

var schemeRE = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9+\-.]*:`)

// safeURL reports whether ammonia keeps an URL attribute's value.
func safeURL(v string) bool {
	v = strings.Map(func(r rune) rune {
		if r == '\t' || r == '\n' || r == '\r' {
			return -1
		}
		return r
	}, strings.Trim(v, "\x00\x01\x02\x03\x04\x05\x06\x07\x08\x0b\x0c\x0e\x0f\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1b\x1c\x1d\x1e\x1f "))
	m := schemeRE.FindString(v)
	if m == "" {
		return true // relative
	}
	if !slices.Contains(safeSchemes, strings.ToLower(strings.TrimSuffix(m, ":"))) {
		return false
	}
	_, err := url.Parse(v)
	return err == nil
}

func urlAttribute(tag, name string) bool {
	switch name {
	case "href", "src":
		return true
	}
	return (tag == "form" && name == "action") || (tag == "object" && name == "data") ||
		((tag == "button" || tag == "input") && name == "formaction") || (tag == "a" && name == "ping") ||
		(tag == "video" && name == "poster")
}

// sanitizeHTML is Weblate's HTMLSanitizer.clean of text, allowing what
// source uses.
func sanitizeHTML(u *Unit, text, source string) string {
	protected := map[string]string{}
	n := 0
	protect := func(s string) string {
		n++
		key := fmt.Sprintf("@@@@@weblate:%d@@@@@", n)
		protected[key] = s
		return key
	}
	if u.Flags.Has("md-text") {
		t := mdText(text)
		var sb strings.Builder
		for p := 0; p < len(t); {
			if m := mdLinkAt(t, p); m.end > p {
				sb.WriteString(protect(string(t[p:m.end])))
				p = m.end
				continue
			}
			sb.WriteRune(t[p])
			p++
		}
		text = sb.String()
	}
	if strings.Contains(text, "\u00a0") { // kept as it is, not as &nbsp;
		text = strings.ReplaceAll(text, "\u00a0", protect("\u00a0"))
	}
	allowed := allowedHTML(source)
	ctx := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	nodes, err := html.ParseFragment(strings.NewReader(text), ctx)
	if err != nil {
		return ""
	}
	var sb strings.Builder
	for _, node := range nodes {
		writeClean(&sb, node, allowed)
	}
	out := sb.String()
	for k, v := range protected {
		out = strings.ReplaceAll(out, k, v)
	}
	return out
}

// voidElements have no content and no end tag.
var voidElements = []string{"area", "base", "basefont", "bgsound", "br", "col", "embed", "frame", "hr", "img", "input", "keygen",
	"link", "meta", "param", "source", "track", "wbr"}

var rawText = []string{"style", "script", "xmp", "iframe", "noembed", "noframes", "plaintext", "noscript"}

// writeClean writes node as ammonia keeps it: comments gone, script and
// style (unless allowed) gone with their content, other elements not
// allowed unwrapped, attributes filtered; serialized as html5ever does.
func writeClean(sb *strings.Builder, n *html.Node, allowed map[string][]string) {
	switch n.Type {
	case html.TextNode:
		if n.Parent != nil && slices.Contains(rawText, n.Parent.Data) {
			sb.WriteString(n.Data)
			return
		}
		sb.WriteString(strings.NewReplacer("&", "&amp;", "\u00a0", "&nbsp;", "<", "&lt;", ">", "&gt;").Replace(n.Data))
		return
	case html.ElementNode:
	default:
		return // comments, doctypes
	}
	attrs, ok := allowed[n.Data]
	if !ok {
		if n.Data == "script" || n.Data == "style" {
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			writeClean(sb, c, allowed)
		}
		return
	}
	sb.WriteString("<" + n.Data)
	for _, a := range n.Attr {
		if (a.Key != "lang" && a.Key != "title" && !slices.Contains(attrs, a.Key)) || (urlAttribute(n.Data, a.Key) && !safeURL(a.Val)) {
			continue
		}
		name := a.Key
		if a.Namespace != "" {
			name = a.Namespace + ":" + a.Key
		}
		sb.WriteString(" " + name + `="` + strings.NewReplacer("&", "&amp;", "\u00a0", "&nbsp;", `"`, "&quot;").Replace(a.Val) + `"`)
	}
	sb.WriteString(">")
	if slices.Contains(voidElements, n.Data) {
		return
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		writeClean(sb, c, allowed)
	}
	sb.WriteString("</" + n.Data + ">")
}

// attrPlaceholder matches an attribute value that is all one placeholder
// (Weblate's HTML attribute placeholder detection).
var attrPlaceholder = regexp.MustCompile(`^(?:` + strings.Join([]string{
	`%(?:\([^)]+\))?(?:[ +#-]*(?:\p{Nd}+)?(?:\.\p{Nd}+)?(?:hh|h|l|ll)?[a-zA-Z%]|)`,
	`%(?:\p{Nd}+\$)?(?:[ +#'-]*(?:\p{Nd}+)?(?:\.\p{Nd}+)?(?:hh|h|l|ll)?[a-zA-Z%]|)`,
	`%(?:\p{Nd}+\$)?(?:#@[^@]+@|[ +#'-]*(?:\p{Nd}+)?(?:\.\p{Nd}+)?(?:hh|ll|h|l|z|t|j|q|L)?[a-zA-Z@%]|)`,
	`%(?:(?:\*|\p{Nd}+):)?(?:-?(?:\*|\p{Nd}+)?(?:\.(?:\*|\p{Nd}+))?[defgmnpsuxDEFGMNPSUX%]|)`,
	`~(?:\p{Nd}+@\*~)?(?:(?:(?:[+-]?\p{Nd}+|'.|[vV]|#)(?:,(?:[+-]?\p{Nd}+|'.|[vV]|#))*)?:?@?[a-zA-Z%$?&_/|!\[\]()~]|)`,
	`\}\}|\{\{|\{(?:|(?:[0-9]+|[_A-Za-z][_0-9A-Za-z]*)(?:\.[_A-Za-z][_0-9A-Za-z]*|\[[^\]]+\])*(?:![rsa])?(?::.?[<>=^]?[+ -]?[#]?0?(?:[1-9][0-9]*)?,?(?:\.[1-9][0-9]*)?[bcdeEfFgGnosxX%]?)?)\}`,
	`\{[a-zA-Z0-9_]+\}`,
	`\{\p{Nd}+(?:[-,?\s]+(?:\p{Nd}+)?(?:\.\p{Nd}+)?)?(?::(?:[a-zA-Z0#.,\s]*(?:\p{Nd}+)?)?)?\}`,
	`%(?:\p{Nd}+\$)?[-.#+0,(]*(?:\p{Nd}+)?(?:\.\p{Nd}+)?(?:[tT][A-Za-z]|[A-Za-z]|%)`,
	`\{\{/?\s*[\p{L}\p{N}_]+\s*/?\}\}`,
	`:[A-Za-z][A-Za-z0-9_]*`,
	`\{\p{Nd}+\s*(?:,\s*[a-z]+(?:,\s*\S+)?)?\s*\}`,
	`\$t\(.+?\)|\{\{.+?\}\}`,
	`\$\{\s*[^}]+\s*\}`,
	`%[a-zA-Z0-9_]+%`,
	`(?i:%?\{[^}]+\}|@(?:\.[a-z]+)?:(?:[\p{L}\p{N}_\-|./]+|\([\p{L}\p{N}_\-:|./]+\)))`,
}, "|") + `)$`)

func isAttrPlaceholder(v string) bool {
	return v != "%" && v != "%%" && v != "{{" && v != "}}" && attrPlaceholder.MatchString(v)
}

type htmlAttr struct{ tag, name, value string }

// htmlAttrs are the attributes of the start tags of s.
func htmlAttrs(s string) []htmlAttr {
	var out []htmlAttr
	startTags(s, func(tok html.Token) {
		for _, a := range tok.Attr {
			out = append(out, htmlAttr{tok.Data, a.Key, a.Val})
		}
	})
	return out
}

// changedPlaceholderAttrs is Weblate's has_changed_placeholder_attributes:
// a placeholder attribute of the source wrapped in quotes in the target.
func changedPlaceholderAttrs(source, target string) bool {
	var src []htmlAttr
	for _, a := range htmlAttrs(source) {
		if isAttrPlaceholder(a.value) {
			src = append(src, a)
		}
	}
	if len(src) == 0 {
		return false
	}
	for _, a := range htmlAttrs(target) {
		if !slices.ContainsFunc(src, func(s htmlAttr) bool { return s.tag == a.tag && s.name == a.name }) {
			continue
		}
		p := stripWrappers(a.value)
		if p != a.value && isAttrPlaceholder(p) && slices.Contains(src, htmlAttr{a.tag, a.name, p}) {
			return true
		}
	}
	return false
}

const wrappers = "\"'`“”„‟‘’‚‛«»‹›"

// stripWrappers removes the quotes (and escaped quotes) around v.
func stripWrappers(v string) string {
	r := []rune(v)
	start, end := 0, len(r)
	skip := func() {
		for start < end && pySpace(r[start]) {
			start++
		}
		for end > start && pySpace(r[end-1]) {
			end--
		}
	}
	for {
		s0, e0 := start, end
		skip()
		if start < end && strings.ContainsRune(wrappers, r[start]) {
			start++
		} else if start+1 < end && r[start] == '\\' && strings.ContainsRune(wrappers, r[start+1]) {
			start += 2
		}
		skip()
		if start+1 < end && r[end-2] == '\\' && strings.ContainsRune(wrappers, r[end-1]) {
			end -= 2
		} else if start < end && strings.ContainsRune(wrappers, r[end-1]) {
			end--
		}
		skip()
		if start == s0 && end == e0 {
			return string(r[start:end])
		}
	}
}

// autoTags are the tag names auto-safe-html accepts in a source.
var autoTags = strings.Fields(`a abbr acronym address applet area article aside audio b base basefont bdi bdo big blink blockquote
	body br button canvas caption center cite code col colgroup command data datalist dd del details dfn dialog dir div dl dt em
	embed fieldset figcaption figure font footer form frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html i iframe img input ins
	isindex kbd keygen label legend li link main map mark marquee math menu meta meter nav noscript object ol optgroup option output
	p param picture pre progress q rp rt rtc ruby s samp script search section select slot small source span strike strong style sub
	summary sup svg table tbody td template textarea tfoot th thead time title tr track tt u ul var video wbr`)

var (
	markupStart   = regexp.MustCompile(`<[!/?A-Za-z]`)
	markupSegment = regexp.MustCompile(`(?i)<!--[\s\S]*?-->|<!DOCTYPE(?:\s+(?:"[^"]*"|'[^']*'|[^'">])*)?>|</?[A-Za-z](?:[^<>"']|"[^"]*"|'[^']*')*?>`)
	segmentTag    = regexp.MustCompile(`^</?\s*([A-Za-z][A-Za-z0-9:-]*)`)
	customElement = regexp.MustCompile(`^[a-z][a-z0-9._-]*-[a-z0-9._-]*$`)
)

// autoSafeHTMLSource is Weblate's is_auto_safe_html_source: with
// auto-safe-html, the check runs on plain text and on sources whose
// markup is HTML that survives the sanitizer unchanged.
func autoSafeHTMLSource(u *Unit, source string) bool {
	if !u.Flags.Has("auto-safe-html") {
		return false
	}
	if u.Flags.Has("md-text") {
		source = removeMDLinks(source)
	}
	starts := markupStart.FindAllStringIndex(source, -1)
	if len(starts) == 0 {
		return true
	}
	segs := markupSegment.FindAllStringIndex(source, -1)
	if len(segs) == 0 {
		return false
	}
	for _, st := range starts {
		if !slices.ContainsFunc(segs, func(sg []int) bool { return st[0] >= sg[0] && st[0] < sg[1] }) {
			return false
		}
	}
	for _, sg := range segs {
		seg := source[sg[0]:sg[1]]
		if strings.ContainsAny(seg, "{}") {
			return false
		}
		lower := strings.ToLower(seg)
		if strings.HasPrefix(lower, "<!--") || strings.HasPrefix(lower, "<!doctype") {
			continue
		}
		m := segmentTag.FindStringSubmatch(seg)
		if m == nil {
			return false
		}
		if name := strings.ToLower(m[1]); !slices.Contains(autoTags, name) && !customElement.MatchString(name) {
			return false
		}
	}
	return sameHTMLEvents(source, sanitizeHTML(u, source, source))
}

// sameHTMLEvents reports whether the markup of a and b reads the same
// (a self-closing tag matching an open one that closes at once).
func sameHTMLEvents(a, b string) bool {
	ea, eb := htmlEvents(a), htmlEvents(b)
	i, j := 0, 0
	for i < len(ea) && j < len(eb) {
		x, y := ea[i], eb[j]
		switch {
		case x == y:
		case x.kind == "startend" && y.kind == "start" && x.tag == y.tag && x.attrs == y.attrs &&
			(slices.Contains(voidElements, x.tag) || (j+1 < len(eb) && eb[j+1] == htmlEvent{kind: "end", tag: x.tag})):
			if !slices.Contains(voidElements, x.tag) {
				j++
			}
		default:
			return false
		}
		i, j = i+1, j+1
	}
	return i == len(ea) && j == len(eb)
}

type htmlEvent struct{ kind, tag, attrs, data string }

func htmlEvents(s string) []htmlEvent {
	var out []htmlEvent
	z := html.NewTokenizer(strings.NewReader(s))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return out
		case html.TextToken:
			if d := string(z.Text()); d != "" {
				if n := len(out); n > 0 && out[n-1].kind == "data" {
					out[n-1].data += d
				} else {
					out = append(out, htmlEvent{kind: "data", data: d})
				}
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			tok := z.Token()
			kind := "start"
			if tt == html.SelfClosingTagToken {
				kind = "startend"
			}
			attrs := make([]string, len(tok.Attr))
			for k, a := range tok.Attr {
				attrs[k] = a.Key + "=" + a.Val
			}
			slices.Sort(attrs)
			out = append(out, htmlEvent{kind: kind, tag: tok.Data, attrs: strings.Join(attrs, "\x00")})
		case html.EndTagToken:
			out = append(out, htmlEvent{kind: "end", tag: z.Token().Data})
		}
	}
}
