package json

import (
	"errors"
	"fmt"
	"strings"
)

// ARB (Flutter's Application Resource Bundle) is a flat JSON object read
// as translate-toolkit's ARBJsonFile reads it: every key not starting
// with "@" is a unit whose value is a string (or an integer); "@key" is
// the unit's metadata object, its "description" the unit's note and the
// names of its "placeholders" the unit's flags as Weblate derives them;
// "@@locale" and the other "@@" keys are the file's header, which is no
// unit. An ICU plural ("{count, plural, one{...} other{...}}") is one
// string, as Weblate keeps it for ARB.

// extractARB builds the units of an ARB file; a value or metadata of the
// wrong type is an error, as translate-toolkit refuses it.
func (f *File) extractARB(root *node) error {
	if root.kind != '{' {
		return errors.New("json: an ARB file is a JSON object")
	}
	for _, m := range root.members {
		if strings.HasPrefix(m.key, "@") {
			continue
		}
		v := m.value
		switch {
		case v.kind == '"':
		case v.kind == 'x' && isInteger(v.raw):
			v.str = v.raw
		default:
			return fmt.Errorf("json: ARB key %q does not contain a string", m.key)
		}
		note, flags, err := arbMetadata(root, m.key)
		if err != nil {
			return err
		}
		h := &unit{chain: []*node{root}, slots: []slot{{parent: root, key: m.key, value: v}}}
		f.addUnit(m.key, []string{v.str}, note, h)
		f.units[len(f.units)-1].Flags = flags
	}
	return nil
}

// arbMetadata reads the "@key" object of key: its description and the
// flags of its placeholders.
func arbMetadata(root *node, key string) (note, flags string, err error) {
	i := memberIndex(root, "@"+key)
	if i < 0 {
		return "", "", nil
	}
	meta := root.members[i].value
	if meta.kind != '{' {
		return "", "", fmt.Errorf("json: ARB key %q does not contain an object", "@"+key)
	}
	if j := memberIndex(meta, "description"); j >= 0 {
		d := meta.members[j].value
		if d.kind != '"' {
			return "", "", fmt.Errorf("json: the description of ARB key %q is not a string", key)
		}
		note = d.str
	}
	if j := memberIndex(meta, "placeholders"); j >= 0 {
		p := meta.members[j].value
		switch {
		case p.kind == '{':
			flags = placeholderFlags(p)
		case p.kind != 'x' || p.raw != "null":
			return "", "", fmt.Errorf("json: the placeholders of ARB key %q are not an object", key)
		}
	}
	return note, flags, nil
}

// placeholderFlags is the placeholders flag Weblate gives a unit whose
// placeholders are an object: each name upper-cased between "$" signs
// (Weblate treats them as WebExtension placeholders), case-insensitive.
func placeholderFlags(p *node) string {
	if len(p.members) == 0 {
		return ""
	}
	ids := make([]string, len(p.members))
	for i, m := range p.members {
		ids[i] = flagValue("$" + strings.ToUpper(m.key) + "$")
	}
	return "placeholders:" + strings.Join(ids, ":") + ",case-insensitive"
}

// flagValue quotes a flag's value as Weblate's Flags.format_value does
// when it holds a space or a character of the flag syntax.
func flagValue(v string) string {
	if !strings.ContainsAny(v, " ,:\"'\\") {
		return v
	}
	r := strings.NewReplacer(`"`, `\"`, "\n", `\n`, "\r", `\r`)
	return `"` + r.Replace(v) + `"`
}

func isInteger(s string) bool {
	s = strings.TrimPrefix(s, "-")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// arbNewTranslation is the file translate-toolkit writes from an ARB
// template with every value emptied: the "@@" header keys first, then
// each unit followed by its non-empty metadata, other keys dropped;
// json.dumps with indent 2.
func arbNewTranslation(file *File) []byte {
	root := file.d.root
	out := &node{kind: '{'}
	for _, m := range root.members {
		if strings.HasPrefix(m.key, "@@") {
			out.members = append(out.members, m)
		}
	}
	for _, u := range file.units {
		out.members = append(out.members, &member{key: u.Context, value: &node{kind: '"'}})
		if i := memberIndex(root, "@"+u.Context); i >= 0 && len(root.members[i].value.members) > 0 {
			out.members = append(out.members, root.members[i])
		}
	}
	var b strings.Builder
	out.pretty(&b, "  ", 0)
	b.WriteByte('\n')
	return []byte(b.String())
}
