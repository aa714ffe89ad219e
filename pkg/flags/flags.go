// Package flags reads, merges and writes Weblate's check flags
// ("max-length:20, c-format, placeholders:%s"): the flags of a
// project, its categories, a file format, a component, a file and a
// string, merged in that order.
package flags

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Value is one parameter of a flag: text, or a regular expression (r"…").
type Value struct {
	Text  string
	Regex bool
}

// Flag is one flag: a name alone, or a name with parameters
// (max-length:20, placeholders:"%s":r"\d+").
type Flag struct {
	Name   string
	Values []Value
	// Valued is true for name:… even when the parameters are empty.
	Valued bool
}

// Flags are merged flags, keyed by name, in the order first set.
type Flags struct {
	order []string
	byKey map[string]Flag
}

// Has reports whether a flag of that name is set.
func (f Flags) Has(name string) bool {
	if len(f.byKey) == 0 {
		return false
	}
	_, ok := f.byKey[name]
	return ok
}

// Get returns the flag of that name.
func (f Flags) Get(name string) (Flag, bool) { fl, ok := f.byKey[name]; return fl, ok }

// Names are the flags' names in order.
func (f Flags) Names() []string { return slices.Clone(f.order) }

// Merge adds flags as Weblate's Flags.merge does: discard:X removes X set
// before; a valued flag replaces any earlier one of its name; a plain one
// too (dropping an earlier value); "", "fuzzy" and "#" are not flags.
func (f *Flags) Merge(items ...Flag) {
	if f.byKey == nil {
		f.byKey = map[string]Flag{}
	}
	for _, it := range items {
		switch {
		case it.Name == "discard" && it.Valued && len(it.Values) == 1:
			f.remove(it.Values[0].Text)
			continue
		case !it.Valued && (it.Name == "" || it.Name == "fuzzy" || it.Name == "#"):
			continue
		}
		if _, ok := f.byKey[it.Name]; !ok {
			f.order = append(f.order, it.Name)
		}
		f.byKey[it.Name] = it
	}
}

func (f *Flags) remove(name string) {
	if _, ok := f.byKey[name]; ok {
		delete(f.byKey, name)
		f.order = slices.DeleteFunc(f.order, func(n string) bool { return n == name })
	}
}

// MergeText parses text (Parse) and merges it; text that does not
// parse adds nothing, as Weblate drops a file's flags it cannot parse.
func (f *Flags) MergeText(text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	items, err := Parse(text)
	if err == nil {
		f.Merge(items...)
	}
}

// Int is the single integer parameter of a flag (max-length:20); an error
// when it has none, several, or one that is not a number.
func (f Flags) Int(name string) (int, error) {
	fl := f.byKey[name]
	switch {
	case len(fl.Values) == 0:
		return 0, errors.New("missing required parameter")
	case len(fl.Values) > 1:
		return 0, errors.New("too many parameters")
	}
	s := strings.TrimSpace(fl.Values[0].Text)
	n, err := strconv.Atoi(strings.ReplaceAll(s, "_", ""))
	if err != nil || strings.HasPrefix(s, "_") || strings.HasSuffix(s, "_") || strings.Contains(s, "__") {
		return 0, fmt.Errorf("invalid literal for int() with base 10: %q", fl.Values[0].Text)
	}
	return n, nil
}

// Parse reads a flags text as Weblate's parser does: flags separated
// by commas, parameters by colons; a parameter is a bare name (inner
// spaces kept), a '…' or "…" string, or r"…" (a regular expression).
// Tabs count as the spaces they expand to.
func Parse(text string) ([]Flag, error) {
	p := &flagParser{s: []rune(expandTabs(text))}
	var out []Flag
	for {
		p.space()
		if p.end() {
			return out, nil
		}
		if p.peek() == ',' {
			p.i++
			continue
		}
		fl, err := p.flag()
		if err != nil {
			return nil, err
		}
		out = append(out, fl)
		p.space()
		if !p.end() && p.peek() != ',' {
			return nil, fmt.Errorf("unexpected %q at %d", p.peek(), p.i)
		}
	}
}

type flagParser struct {
	s []rune
	i int
}

func (p *flagParser) end() bool  { return p.i >= len(p.s) }
func (p *flagParser) peek() rune { return p.s[p.i] }

func (p *flagParser) space() {
	for !p.end() && strings.ContainsRune(" \t\r\n", p.peek()) {
		p.i++
	}
}

func (p *flagParser) flag() (Flag, error) {
	name := p.name()
	if name == "" {
		return Flag{}, fmt.Errorf("expected a flag name at %d", p.i)
	}
	if name == "markdown-text" {
		name = "md-text"
	}
	fl := Flag{Name: name}
	for {
		p.space()
		if p.end() || p.peek() != ':' {
			return fl, nil
		}
		p.i++
		fl.Valued = true
		p.space()
		v, err := p.param()
		if err != nil {
			return Flag{}, err
		}
		fl.Values = append(fl.Values, v)
	}
}

// name reads a bare name: no , : " ' and no white space at its ends.
func (p *flagParser) name() string {
	start := p.i
	for !p.end() && !strings.ContainsRune(",:\"'", p.peek()) {
		p.i++
	}
	n := strings.TrimRight(string(p.s[start:p.i]), " \r\n")
	p.i = start + len([]rune(n))
	return n
}

func (p *flagParser) param() (Value, error) {
	if p.end() || p.peek() == ',' || p.peek() == ':' {
		return Value{}, nil
	}
	if q := p.peek(); q == '"' || q == '\'' {
		s, err := p.quoted()
		return Value{Text: s}, err
	}
	start := p.i
	n := p.name()
	if n == "r" {
		p.space()
		if !p.end() && p.peek() == '"' {
			s, err := p.quoted()
			return Value{Text: s, Regex: true}, err
		}
		p.i = start + 1
	}
	return Value{Text: n}, nil
}

// quoted reads a quoted string, unescaping \n \t \r \f, \" (its own
// quote) and \\; any other backslash sequence stays as it is.
func (p *flagParser) quoted() (string, error) {
	q := p.peek()
	p.i++
	var b strings.Builder
	for !p.end() {
		c := p.peek()
		p.i++
		switch {
		case c == q:
			if !p.end() && !strings.ContainsRune(",: \r\n", p.peek()) {
				return "", fmt.Errorf("unexpected %q after a quoted value", p.peek())
			}
			return b.String(), nil
		case c == '\n':
			return "", fmt.Errorf("a quoted value spans lines")
		case c == '\\' && !p.end():
			e := p.peek()
			p.i++
			switch e {
			case 'n':
				b.WriteRune('\n')
			case 't':
				b.WriteRune('\t')
			case 'r':
				b.WriteRune('\r')
			case 'f':
				b.WriteRune('\f')
			case q, '\\':
				b.WriteRune(e)
			default:
				b.WriteRune('\\')
				b.WriteRune(e)
			}
		default:
			b.WriteRune(c)
		}
	}
	return "", fmt.Errorf("unterminated quoted value")
}

// expandTabs is Python's str.expandtabs(): tab stops every 8 columns.
func expandTabs(s string) string {
	if !strings.ContainsRune(s, '\t') {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		switch r {
		case '\t':
			n := 8 - col%8
			b.WriteString(strings.Repeat(" ", n))
			col += n
		case '\n', '\r':
			b.WriteRune(r)
			col = 0
		default:
			b.WriteRune(r)
			col++
		}
	}
	return b.String()
}

// syntaxChars are the characters that make Format quote a value
// (weblate/checks/parser.py SYNTAXCHARS).
const syntaxChars = ",:\"'\\"

// formatValue writes one name or parameter as Weblate's
// Flags.format_value does: quoted when a regular expression or when it
// holds a space or a syntax character.
func formatValue(v Value) string {
	if !v.Regex && !strings.ContainsAny(v.Text, " "+syntaxChars) {
		return v.Text
	}
	prefix := ""
	if v.Regex {
		prefix = "r"
	}
	esc := strings.NewReplacer(`"`, `\"`, "\n", `\n`, "\r", `\r`).Replace(v.Text)
	return prefix + `"` + esc + `"`
}

// Format writes the flags as Weblate's Flags.format does: each flag with
// its parameters joined by colons, sorted, joined by ", ".
func (f Flags) Format() string {
	out := make([]string, 0, len(f.order))
	for _, name := range f.order {
		fl := f.byKey[name]
		s := formatValue(Value{Text: fl.Name})
		if fl.Valued && len(fl.Values) == 0 {
			s += ":"
		}
		for _, v := range fl.Values {
			s += ":" + formatValue(v)
		}
		out = append(out, s)
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// Merged merges the texts in order (MergeText) and formats the result:
// the effective flags of a setting inherited through several levels.
func Merged(texts ...string) string {
	var f Flags
	for _, t := range texts {
		f.MergeText(t)
	}
	return f.Format()
}

// ofFormat are the flags Weblate gives every string of a file format
// (TranslationFormat.check_flags), by format id.
var ofFormat = map[string]string{
	"strings": "objc-format", "strings-utf8": "objc-format", "stringsdict": "objc-format",
	"properties": "auto-java-messageformat", "properties-utf8": "auto-java-messageformat",
	"properties-utf16": "auto-java-messageformat",
	"aresource":        "java-printf-format",
	"i18next":          "i18next-interpolation", "i18nextv4": "i18next-interpolation",
	"arb": "icu-message-format",
}

// OfFormat are the flags of the strings of file format id ("" for none):
// they come between the project's (and categories') and the component's.
func OfFormat(id string) string { return ofFormat[id] }
