package bench

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Plural-Forms of the languages the generator knows; the benchmarks use
// every kind of plural rule (one, two and three forms).
var pluralForms = map[string]string{
	"":      "nplurals=2; plural=(n != 1);",
	"de":    "nplurals=2; plural=(n != 1);",
	"fr":    "nplurals=2; plural=(n > 1);",
	"cs":    "nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;",
	"ja":    "nplurals=1; plural=0;",
	"pt_BR": "nplurals=2; plural=(n > 1);",
	"es":    "nplurals=2; plural=(n != 1);",
	"it":    "nplurals=2; plural=(n != 1);",
	"pl":    "nplurals=3; plural=(n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);",
}

// GenLanguages are the translation languages of a generated component.
var GenLanguages = []string{"cs", "de", "fr", "ja", "pt_BR"}

// words is the vocabulary of the generated user-interface strings.
var words = strings.Fields(`file files folder document settings preferences account password user name
	open close save delete remove rename copy move paste cut undo redo search find replace select all none
	cancel apply confirm continue back next previous finish start stop pause resume update upgrade install
	download upload sync share export import print preview zoom view edit insert format tools help about
	window tab page panel sidebar toolbar menu button dialog message error warning notice information
	connection network server client proxy address port timeout retry failed successfully completed
	could not be the a an of to in for with on at from by this that your you new old recent default
	custom advanced general privacy security language theme color font size width height left right
	center top bottom enable disable show hide always never automatically manually when if is are was
	will cannot must should may item items entry entries record records list table column row cell
	value field type mode option options profile backup restore cache cookies history temporary data
	storage disk memory space free used total available remaining selected current please wait loading
	saving processing checking cleaning scanning deleting analysing report details summary version
	license project repository branch commit change changes pending review approved translated`)

// gentry is one generated source string.
type gentry struct {
	ctx, src, plural, comment, loc string
	format                         bool
}

// Gen is a generated component: n source strings of varied length, some
// with plurals, contexts, comments and printf placeholders.
type Gen struct {
	seed    uint64
	entries []gentry
}

// Generate makes n distinct source strings from seed (same seed, same
// strings).
func Generate(n int, seed uint64) *Gen {
	r := rand.New(rand.NewPCG(seed, 1))
	g := &Gen{seed: seed, entries: make([]gentry, 0, n)}
	seen := make(map[string]bool, n)
	for len(g.entries) < n {
		e := newEntry(r, len(g.entries))
		key := e.ctx + "\x04" + e.src
		if seen[key] {
			continue
		}
		seen[key] = true
		g.entries = append(g.entries, e)
	}
	return g
}

// Len is the number of source strings.
func (g *Gen) Len() int { return len(g.entries) }

func newEntry(r *rand.Rand, i int) gentry {
	e := gentry{loc: fmt.Sprintf("src/module%d.c:%d", i%97, 10+i%2000)}
	switch p := r.IntN(100); {
	case p < 40: // labels and buttons
		e.src = sentence(r, 1+r.IntN(3), false)
	case p < 80: // messages
		e.src = sentence(r, 5+r.IntN(12), true)
	case p < 95: // explanations
		e.src = sentence(r, 20+r.IntN(30), true) + " " + sentence(r, 8+r.IntN(10), true)
	default: // multi-line help
		e.src = sentence(r, 8+r.IntN(8), true) + "\n" + sentence(r, 8+r.IntN(8), true)
	}
	if r.IntN(100) < 6 {
		e.ctx = []string{"menu", "button", "tooltip", "dialog title", "verb", "noun"}[r.IntN(6)]
	}
	if r.IntN(100) < 5 {
		noun := words[r.IntN(len(words))]
		e.src, e.plural, e.format = "%d "+noun, "%d "+noun+"s", true
	} else if r.IntN(100) < 10 {
		e.src, e.format = e.src+": %s", true
	}
	if r.IntN(100) < 20 {
		e.comment = "Translators: " + sentence(r, 4+r.IntN(8), false)
	}
	return e
}

func sentence(r *rand.Rand, n int, period bool) string {
	ws := make([]string, n)
	for i := range ws {
		ws[i] = words[r.IntN(len(words))]
	}
	s := strings.Join(ws, " ")
	s = strings.ToUpper(s[:1]) + s[1:]
	if period {
		s += "."
	}
	return s
}

// Template renders the POT file (empty translations).
func (g *Gen) Template() []byte { return g.render("", 0, 0) }

// PO renders the file of language code. Variant changes the wording of
// the translations (0 is the committed one); share is the percentage of
// strings translated (the rest are fuzzy or empty, as in real files).
func (g *Gen) PO(code string, variant, share int) []byte { return g.render(code, variant, share) }

func (g *Gen) render(code string, variant, share int) []byte {
	var b strings.Builder
	b.Grow(len(g.entries) * 160)
	fmt.Fprintf(&b, "# Generated benchmark component.\nmsgid \"\"\nmsgstr \"\"\n"+
		"\"Project-Id-Version: bench 1.0\\n\"\n\"Language: %s\\n\"\n\"MIME-Version: 1.0\\n\"\n"+
		"\"Content-Type: text/plain; charset=UTF-8\\n\"\n\"Content-Transfer-Encoding: 8bit\\n\"\n"+
		"\"Plural-Forms: %s\\n\"\n", code, pluralForms[code])
	r := rand.New(rand.NewPCG(g.seed, uint64(len(code))*31+uint64(variant)))
	forms := nplurals(code)
	for i, e := range g.entries {
		state := byte('t')
		if code == "" {
			state = '.'
		} else if p := r.IntN(100); p >= share {
			state = "f.."[p%3]
		}
		g.renderEntry(&b, e, code, variant, i, forms, state)
	}
	return []byte(b.String())
}

func (g *Gen) renderEntry(b *strings.Builder, e gentry, code string, variant, _, forms int, state byte) {
	b.WriteString("\n")
	if e.comment != "" {
		b.WriteString("#. " + e.comment + "\n")
	}
	b.WriteString("#: " + e.loc + "\n")
	var flags []string
	if state == 'f' {
		flags = append(flags, "fuzzy")
	}
	if e.format {
		flags = append(flags, "c-format")
	}
	if len(flags) > 0 {
		b.WriteString("#, " + strings.Join(flags, ", ") + "\n")
	}
	if e.ctx != "" {
		b.WriteString("msgctxt " + quote(e.ctx) + "\n")
	}
	b.WriteString("msgid " + quote(e.src) + "\n")
	tr := func(s string) string {
		if state == '.' {
			return ""
		}
		return pseudo(s, code, variant)
	}
	if e.plural == "" {
		b.WriteString("msgstr " + quote(tr(e.src)) + "\n")
		return
	}
	b.WriteString("msgid_plural " + quote(e.plural) + "\n")
	for k := range forms {
		src := e.plural
		if k == 0 {
			src = e.src
		}
		fmt.Fprintf(b, "msgstr[%d] %s\n", k, quote(tr(src)))
	}
}

func nplurals(code string) int {
	var n int
	_, _ = fmt.Sscanf(pluralForms[code], "nplurals=%d;", &n) // a code missing from the table has 0 forms
	return n
}

// pseudo translates s word by word into a made-up language: the length
// and the placeholders stay realistic, the words depend on code and
// variant.
func pseudo(s, code string, variant int) string {
	var b strings.Builder
	for i, w := range strings.Split(s, " ") {
		if i > 0 {
			b.WriteByte(' ')
		}
		if strings.HasPrefix(w, "%") {
			b.WriteString(w)
			continue
		}
		b.WriteString(pseudoWord(w, code, variant))
	}
	return b.String()
}

var syllables = []string{"ka", "lo", "mi", "ne", "ru", "sa", "te", "vi", "zo", "ber", "dun", "gel", "hor", "ist", "ung", "é", "ö", "ß"}

func pseudoWord(w, code string, variant int) string {
	h := uint32(2166136261)
	for _, c := range []byte(w + "/" + code) {
		h = (h ^ uint32(c)) * 16777619
	}
	h += uint32(variant) * 2654435761
	n := 1 + len(w)/3
	var b strings.Builder
	for range n {
		b.WriteString(syllables[h%uint32(len(syllables))])
		h = h*1103515245 + 12345
	}
	if last := w[len(w)-1]; last == '.' || last == ':' || last == '\n' {
		b.WriteByte(last)
	}
	return b.String()
}

// quote renders s as one PO string literal.
func quote(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`).Replace(s) + `"`
}

// Files is the component as repository files: po/<name>.pot and
// po/<code>.po for every code, translated to share percent.
func (g *Gen) Files(name string, codes []string, share int) map[string][]byte {
	files := map[string][]byte{"po/" + name + ".pot": g.Template()}
	for _, c := range codes {
		files["po/"+c+".po"] = g.PO(c, 0, share)
	}
	return files
}

// JSONFiles is the component as a nested JSON component (file_format
// json, template locales/en.json): each string is a key two levels deep
// ("s12.k345"), the source text in en.json, each code's file translated
// to share percent (the rest empty), as monolingual files hold them.
// Plural entries give their singular only: the json format has none.
func (g *Gen) JSONFiles(codes []string, share int) map[string][]byte {
	files := map[string][]byte{"locales/en.json": g.renderJSON("", share)}
	for _, c := range codes {
		files["locales/"+c+".json"] = g.renderJSON(c, share)
	}
	return files
}

func (g *Gen) renderJSON(code string, share int) []byte {
	r := rand.New(rand.NewPCG(g.seed, uint64(len(code))*31))
	var b strings.Builder
	b.Grow(len(g.entries) * 80)
	b.WriteString("{")
	const perSection = 100
	for i, e := range g.entries {
		if i%perSection == 0 {
			if i > 0 {
				b.WriteString("\n    },")
			}
			fmt.Fprintf(&b, "\n    %s: {", jsonQuote(fmt.Sprintf("s%d", i/perSection)))
		} else {
			b.WriteString(",")
		}
		value := e.src
		if code != "" {
			value = ""
			if r.IntN(100) < share {
				value = pseudo(e.src, code, 0)
			}
		}
		fmt.Fprintf(&b, "\n        %s: %s", jsonQuote(fmt.Sprintf("k%d", i)), jsonQuote(value))
	}
	if len(g.entries) > 0 {
		b.WriteString("\n    }")
	}
	b.WriteString("\n}\n")
	return []byte(b.String())
}

// jsonQuote renders s as a JSON string.
func jsonQuote(s string) string {
	out, err := json.Marshal(s)
	if err != nil {
		panic(err) // a string always marshals
	}
	return string(out)
}
