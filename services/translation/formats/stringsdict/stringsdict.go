// Package stringsdict is Apple's .stringsdict format of the registry
// (file_format "stringsdict"), read and written as translate-toolkit's
// StringsDictFile and Weblate's StringsdictFormat.
//
// A file is a property list whose root dictionary maps each key to a
// dictionary holding NSStringLocalizedFormatKey (a format such as
// "%#@files@ in %#@folders@") and one variable dictionary per variable of
// the format (NSStringFormatSpecTypeKey NSStringPluralRuleType, and a
// string per CLDR plural category). The format key is the unit of context
// "key"; each variable is a plural unit of context "key:variable" whose
// forms are the categories of the translation's plural: the language's
// CLDR categories with "zero" first (Weblate gives such a translation the
// language's plural with a form for zero, see PluralFor).
//
// An edit rewrites only the strings it changes, escaped as Python's
// plistlib writes them (&, < and > as entities, line breaks as \n;
// control characters are refused); a plural form set empty loses its key
// and string, as the reference drops empty forms, and a form set that the
// file lacks is inserted in category order with the indentation of its
// neighbours. Everything else keeps its bytes.
//
// Where this differs from the reference: translate-toolkit re-serializes
// the whole file (tab-indented, keys it does not know inside a variable
// dictionary dropped); here they stay. An empty format key is written
// empty (the reference writes the unit's key in its place). Categories the
// language's plural lacks (Czech "other": Weblate's Czech plural is
// one/few/many, "many" being n >= 5) are kept in the file but are no form
// of the unit; the reference drops them on save. A key repeated in a dictionary is an error (plistlib keeps the
// last), and so is a format key that is not a string.
package stringsdict

import (
	"errors"
	"fmt"
	"slices"

	"github.com/tmsproject/tms/pkg/lang"
	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/internal/xmltree"
)

// Format is the stringsdict format.
type Format struct{}

// ID is the format's file_format identifier.
func (Format) ID() string { return "stringsdict" }

// Name is the format's name as the reference shows it.
func (Format) Name() string { return "Stringsdict file" }

// Monolingual reports true: the template holds the source strings.
func (Format) Monolingual() bool { return true }

// ContentType is the media type of a download, as the reference gives it.
func (Format) ContentType() string { return "application/xml" }

// PluralFor is Weblate's StringsdictFormat.get_plural: the language's
// plural with a form for zero unless it has one.
func (Format) PluralFor(p base.Plural) (base.Plural, bool) {
	n, f, changed := lang.WithZero(p.Number, p.Formula, p.Type)
	if !changed {
		return p, false
	}
	return base.Plural{Number: n, Formula: f, Type: lang.PluralTypeFor("", f)}, true
}

const formatKey = "NSStringLocalizedFormatKey"

// Tags are the plural categories of the forms of a translation in lang:
// its CLDR categories, "zero" first when they lack it.
func Tags(code string) []string {
	tags := lang.PluralTags(code)
	if slices.Contains(tags, "zero") {
		return tags
	}
	return append([]string{"zero"}, tags...)
}

// pair is a key of a dictionary and its value element.
type pair struct {
	key        string
	keyNode    *xmltree.Node
	value      *xmltree.Node
	start, end int // from after the previous pair (or the open tag) to the value's end
}

// pairs reads the key/value pairs of a <dict>.
func pairs(d *xmltree.Node) ([]pair, error) {
	var out []pair
	prev := d.Open
	var key *xmltree.Node
	for _, k := range d.Kids {
		switch {
		case k.Kind == xmltree.Element && key == nil:
			if k.Name != "key" {
				return nil, fmt.Errorf("stringsdict: <%s> where a <key> was expected", k.Name)
			}
			key = k
		case k.Kind == xmltree.Element:
			text, err := textOf(key)
			if err != nil {
				return nil, err
			}
			for _, p := range out {
				if p.key == text {
					return nil, fmt.Errorf("stringsdict: key %q repeated", text)
				}
			}
			out = append(out, pair{key: text, keyNode: key, value: k, start: prev, end: k.End})
			prev, key = k.End, nil
		case k.Kind == xmltree.Text && !blank(k.Text):
			return nil, errors.New("stringsdict: text between the entries of a <dict>")
		}
	}
	if key != nil {
		return nil, fmt.Errorf("stringsdict: key %q has no value", key.Text)
	}
	return out, nil
}

func blank(s string) bool {
	for _, c := range s {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// textOf is the text of a <key> or <string>.
func textOf(n *xmltree.Node) (string, error) {
	text := ""
	for _, k := range n.Kids {
		switch k.Kind {
		case xmltree.Element:
			return "", fmt.Errorf("stringsdict: <%s> inside <%s>", k.Name, n.Name)
		case xmltree.Text:
			text += k.Text
		}
	}
	return text, nil
}

// stringOf is the text of a <string> value.
func stringOf(n *xmltree.Node, what string) (string, error) {
	if n.Name != "string" {
		return "", fmt.Errorf("stringsdict: %s is a <%s>, not a <string>", what, n.Name)
	}
	return textOf(n)
}
