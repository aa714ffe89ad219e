package xliffmarkup

import (
	"slices"
	"strings"

	"github.com/tmsproject/tms/services/translation/formats/base"
	"github.com/tmsproject/tms/services/translation/formats/internal/xmltree"
)

// Flags are an element's flags as Weblate lists them (Flags.merge of
// the element, then the extra flags, "xml-text" for rich units): maxwidth as max-size (size-unit pixel or point, or none) or
// max-length (byte or char), font as font-family, font-size and
// font-weight, and the flags of a weblate-flags attribute; sorted and
// joined by ", ". A flag named twice keeps its last value.
func Flags(tu *xmltree.Node, extra ...string) string {
	byName := map[string]string{}
	set := func(name, flag string) { byName[name] = flag }
	value := func(name string) string { v, _ := tu.Attr(name); return v }
	if w := value("maxwidth"); w != "" {
		switch value("size-unit") {
		case "", "pixel", "point":
			set("max-size", "max-size:"+formatValue(w))
		case "byte", "char":
			set("max-length", "max-length:"+formatValue(w))
		}
	}
	if font := value("font"); font != "" {
		parts := strings.Split(font, ";")
		set("font-family", "font-family:"+formatValue(strings.ReplaceAll(strings.TrimSpace(parts[0]), " ", "_")))
		if len(parts) > 1 {
			set("font-size", "font-size:"+formatValue(strings.TrimSpace(parts[1])))
		}
		if len(parts) > 2 {
			set("font-weight", "font-weight:"+formatValue(strings.TrimSpace(parts[2])))
		}
	}
	for _, f := range base.SplitFlags(value("weblate-flags")) {
		name, _, _ := strings.Cut(f, ":")
		if name != "fuzzy" && name != "#" {
			set(name, f)
		}
	}
	for _, f := range extra {
		set(f, f)
	}
	out := make([]string, 0, len(byName))
	for _, f := range byName {
		out = append(out, f)
	}
	slices.Sort(out)
	return strings.Join(out, ", ")
}

// syntaxChars are the characters that make Weblate quote a flag value.
const syntaxChars = `,:"'\`

// formatValue quotes a flag value as Weblate's Flags.format_value does.
func formatValue(v string) string {
	if !strings.ContainsAny(v, " "+syntaxChars) {
		return v
	}
	r := strings.NewReplacer(`"`, `\"`, "\n", `\n`, "\r", `\r`)
	return `"` + r.Replace(v) + `"`
}
