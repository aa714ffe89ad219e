package checks

import (
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"unicode"
)

// The markup checks of Weblate's markup.py: XML, BBCode and URLs.
var (
	bbcodeCheck = check{id: "bbcode", name: "BBCode markup", description: "BBCode in translation does not match source.",
		enable: "bbcode-text", run: single(func(_ *Unit, s, t string) bool {
			src, tgt := bbcodeTags(s), bbcodeTags(t)
			return len(src) != len(tgt) || !sameSet(src, tgt)
		})}.described()
	xmlInvalid = check{id: "xml-invalid", name: "XML syntax", description: "The translation is not valid XML.",
		skip: xmlSkip, run: single(func(_ *Unit, s, t string) bool {
			_, wrap, err := detectXML(s)
			if err != nil {
				return false
			}
			_, err = parseXML(t, wrap)
			return err != nil
		})}.described()
	xmlTags = check{id: "xml-tags", name: "XML markup", description: "XML tags in translation do not match source.",
		skip: xmlSkip, run: single(func(_ *Unit, s, t string) bool {
			src, wrap, err := detectXML(s)
			if err != nil {
				return false
			}
			tgt, err := parseXML(t, wrap)
			return err == nil && !slices.Equal(src, tgt)
		})}.described()
	xmlCharsAroundTags = check{id: "xml-chars-around-tags", name: "Chars around XML tags",
		description: "Characters surrounding XML tags in translation do not align with source.",
		skip: func(u *Unit) bool {
			return u.langIn("zh", "ja", "th", "km", "lo", "my", "ko") || xmlSkip(u)
		}, run: single(func(_ *Unit, s, t string) bool { return charsAroundTags(s, t) })}.described()
	urlCheck = check{id: "url", name: "URL", description: "The translation does not contain a URL.",
		enable: "url", run: single(func(_ *Unit, s, t string) bool { return s != "" && !validURL(t) })}.described()
)

// xmlSkip is Weblate's BaseXMLCheck.should_skip past the flags: the XML
// checks leave HTML to safe-html, and run on sources that are XML (or
// with xml-text).
func xmlSkip(u *Unit) bool {
	if u.Flags.Has("safe-html") || u.Flags.Has("auto-safe-html") {
		return true
	}
	if u.Flags.Has("xml-text") {
		return false
	}
	tagged := false
	for _, s := range u.Sources {
		tagged = tagged || tagRE.MatchString(s)
	}
	if !tagged {
		return true
	}
	for _, s := range u.Sources {
		if _, _, err := detectXML(s); err != nil {
			return true
		}
	}
	return false
}

// xmlNode is an element (its name and attribute names, in order), a
// comment or a processing instruction, as xml-tags compares them.
type xmlNode string

// detectXML parses text as XML content wrapped in an element, else as a
// document of its own, and reports which.
func detectXML(text string) ([]xmlNode, bool, error) {
	if nodes, err := parseXML(text, true); err == nil {
		return nodes, true, nil
	}
	nodes, err := parseXML(text, false)
	return nodes, false, err
}

// parseXML parses text (entities stripped, wrapped in an element when
// wrap) strictly and lists its nodes.
func parseXML(text string, wrap bool) ([]xmlNode, error) {
	s := stripEntities(text)
	if wrap {
		s = "<weblate>" + s + "</weblate>"
	}
	d := xml.NewDecoder(strings.NewReader(s))
	d.Strict = true
	var out []xmlNode
	depth, roots := 0, 0
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if depth == 0 {
				roots++
			}
			depth++
			out = append(out, elementNode(tok))
		case xml.EndElement:
			depth--
		case xml.Comment:
			if depth > 0 {
				out = append(out, "<!---->")
			}
		case xml.ProcInst:
			if depth > 0 {
				out = append(out, "<??>")
			}
		case xml.CharData:
			if depth == 0 && strings.Trim(string(tok), " \t\r\n") != "" {
				return nil, fmt.Errorf("text outside the root element")
			}
		}
	}
	if roots != 1 {
		return nil, fmt.Errorf("%d root elements", roots)
	}
	return out, nil
}

func elementNode(e xml.StartElement) xmlNode {
	var sb strings.Builder
	sb.WriteString("<{" + e.Name.Space + "}" + e.Name.Local)
	for _, a := range e.Attr {
		if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
			continue
		}
		sb.WriteString(" {" + a.Name.Space + "}" + a.Name.Local)
	}
	return xmlNode(sb.String() + ">")
}

// charsAroundTags is Weblate's XMLCharsAroundTagsCheck.check_single: a
// letter next to a tag on one side and not on the other.
func charsAroundTags(source, target string) bool {
	src, tgt := []rune(source), []rune(target)
	s, t := runeSpans(tagRE, source), runeSpans(tagRE, target)
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		ss, se, ts, te := s[i][0], s[i][1], t[i][0], t[i][1]
		switch {
		case ss == 0 || ts == 0:
			if se < len(src) && te < len(tgt) && letterMismatch(src[se], tgt[te]) {
				return true
			}
		case se == len(src) || te == len(tgt):
			if letterMismatch(src[ss-1], tgt[ts-1]) {
				return true
			}
		default:
			if letterMismatch(src[ss-1], tgt[ts-1]) || letterMismatch(src[se], tgt[te]) {
				return true
			}
		}
	}
	return false
}

// runeSpans are the matches of re in s, in rune offsets.
func runeSpans(re *regexp.Regexp, s string) [][2]int {
	var out [][2]int
	for _, m := range re.FindAllStringIndex(s, -1) {
		a := len([]rune(s[:m[0]]))
		out = append(out, [2]int{a, a + len([]rune(s[m[0]:m[1]]))})
	}
	return out
}

func letterMismatch(a, b rune) bool {
	letter := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) }
	if letter(a) == letter(b) {
		return false
	}
	return !((a == '\u0648' && unicode.IsSpace(b)) || (b == '\u0648' && unicode.IsSpace(a)))
}

// bbcodeTags are the tags of the BBCode elements of s.
func bbcodeTags(s string) []string {
	var out []string
	forBBCode(s, func(tag string, _, _ [2]int) { out = append(out, tag) })
	return out
}

// bbcodeSpans are the start and end tags of the BBCode elements of s.
func bbcodeSpans(s string) [][]int {
	var out [][]int
	forBBCode(s, func(_ string, start, end [2]int) { out = append(out, start[:], end[:]) })
	return out
}

// forBBCode calls fn with each BBCode element of s as Weblate's
// BBCODE_MATCH finds them: [tag] or [tag@…], then text on the same line,
// then [/tag]; with the spans of its start and end tags.
func forBBCode(s string, fn func(tag string, start, end [2]int)) {
	for p := 0; p < len(s); p++ {
		if s[p] != '[' {
			continue
		}
		q := strings.IndexByte(s[p+1:], ']')
		if q < 0 {
			break
		}
		q += p + 1
		if q < p+2 {
			continue
		}
		limit := len(s)
		if nl := strings.IndexByte(s[q:], '\n'); nl >= 0 {
			limit = q + nl
		}
		cands := []int{q}
		for k := q - 1; k >= p+2; k-- {
			if s[k] == '@' {
				cands = append(cands, k)
			}
		}
		for _, k := range cands {
			tag := s[p+1 : k]
			e := strings.Index(s[q+1:], "[/"+tag+"]")
			if e >= 0 && q+1+e <= limit {
				end := q + 1 + e
				fn(tag, [2]int{p, q + 1}, [2]int{end, end + len(tag) + 3})
				p = end + len(tag) + 2
				break
			}
		}
	}
}

func sameSet(a, b []string) bool {
	x, y := slices.Clone(a), slices.Clone(b)
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(slices.Compact(x), slices.Compact(y))
}

// urlRE is Django's URLValidator expression with its look-arounds
// rewritten (Weblate's url check).
var djangoURL = func() *regexp.Regexp {
	const lbl = `[a-z\x{a1}-\x{ffff}0-9](?:[a-z\x{a1}-\x{ffff}0-9-]{0,61}[a-z\x{a1}-\x{ffff}0-9])?`
	const ipv4 = `(?:0|25[0-5]|2[0-4][0-9]|1[0-9]?[0-9]?|[1-9][0-9]?)(?:\.(?:0|25[0-5]|2[0-4][0-9]|1[0-9]?[0-9]?|[1-9][0-9]?)){3}`
	return regexp.MustCompile(`(?i)^[a-z0-9.+-]*://(?:[^\s:@/]+(?::[^\s:@/]*)?@)?(?:` + ipv4 + `|\[[0-9a-f:.]+\]|(?:` + lbl +
		`(?:\.` + lbl + `)*\.(?:[a-z\x{a1}-\x{ffff}][a-z\x{a1}-\x{ffff}-]{0,61}[a-z\x{a1}-\x{ffff}]|xn--[a-z0-9]{1,59})\.?|localhost))` +
		`(?::[0-9]{1,5})?(?:[/?#][^\s]*)?$`)
}()

// validURL is Django's URLValidator with its default schemes.
func validURL(s string) bool {
	if len(s) > 2048 || strings.ContainsAny(s, "\t\r\n") {
		return false
	}
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || !slices.Contains([]string{"http", "https", "ftp", "ftps"}, strings.ToLower(scheme)) || !djangoURL.MatchString(s) {
		return false
	}
	netloc := rest
	if i := strings.IndexAny(netloc, "/?#"); i >= 0 {
		netloc = netloc[:i]
	}
	host := netloc[strings.LastIndex(netloc, "@")+1:]
	if strings.HasPrefix(host, "[") {
		end := strings.IndexByte(host, ']')
		if end < 0 {
			return false
		}
		addr, err := netip.ParseAddr(host[1:end])
		return err == nil && addr.Is6() && end-1 <= 39
	}
	if i := strings.LastIndexByte(host, ':'); i >= 0 {
		host = host[:i]
	}
	return host != "" && len(host) <= 253
}
