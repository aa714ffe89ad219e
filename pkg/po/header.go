package po

import (
	"strings"
	"unicode"
)

// headerOrder is translate-toolkit's poheader.header_order: known fields are
// written in this order, others after them in their original order.
var headerOrder = []string{
	"Project-Id-Version", "Report-Msgid-Bugs-To", "POT-Creation-Date",
	"PO-Revision-Date", "Last-Translator", "Language-Team", "Language",
	"MIME-Version", "Content-Type", "Content-Transfer-Encoding", "Plural-Forms",
	"X-Accelerator-Marker", "X-Generator", "X-Merge-On",
}

type headerField struct{ key, value string }

// parseHeader is translate-toolkit's parseheaderstring: "Key: value" lines,
// both trimmed; lines without a colon are dropped; a repeated key keeps its
// first position and its last value.
func parseHeader(s string) []headerField {
	var fields []headerField
	for _, line := range strings.Split(s, "\n") {
		key, value, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		key, value = strings.TrimSpace(key), strings.TrimSpace(value)
		if i := indexField(fields, key, false); i >= 0 {
			fields[i].value = value
			continue
		}
		fields = append(fields, headerField{key, value})
	}
	return fields
}

func indexField(fields []headerField, key string, fold bool) int {
	for i, f := range fields {
		if f.key == key || fold && strings.EqualFold(f.key, key) {
			return i
		}
	}
	return -1
}

// HeaderField returns a header field's value ("" when absent); the name is
// matched exactly first, then case-insensitively.
func (f *File) HeaderField(name string) string {
	h := f.Header()
	if h == nil || len(h.Msgstr) == 0 {
		return ""
	}
	fields := parseHeader(h.Msgstr[0])
	i := indexField(fields, name, false)
	if i < 0 {
		i = indexField(fields, name, true)
	}
	if i < 0 {
		return ""
	}
	return fields[i].value
}

// SetHeaderField sets a header field like translate-toolkit's
// updateheader(add=True, name=value): fields are rewritten one per line with
// the known ones in header_order, a charset and transfer encoding are filled
// in when missing, the header loses its fuzzy flag, and the header is
// re-rendered. A file without a header gets one.
func (f *File) SetHeaderField(name, value string) {
	h := f.Header()
	if h == nil {
		h = &Entry{Msgstr: []string{""}, dirty: true}
		f.entries = append([]*Entry{h}, f.entries...)
	}
	key := normalizeHeaderKey(name)
	existing := parseHeader(strings.Join(h.Msgstr, ""))
	var out []headerField
	used := make(map[string]bool)
	pending := true
	for _, k := range headerOrder {
		i := indexField(existing, k, false)
		switch {
		case i >= 0 && strings.EqualFold(k, key):
			out, pending = append(out, headerField{k, value}), false
		case i >= 0:
			out = append(out, existing[i])
		case strings.EqualFold(k, key):
			out, pending = append(out, headerField{k, value}), false
		default:
			continue
		}
		used[k] = true
	}
	for _, fl := range existing {
		if !used[fl.key] {
			out = append(out, fl)
		}
	}
	if pending {
		if i := indexField(out, key, false); i >= 0 {
			out[i].value = value
		} else {
			out = append(out, headerField{key, value})
		}
	}
	out = defaultHeaderField(out, "Content-Type", "charset=CHARSET", "text/plain; charset=UTF-8")
	out = defaultHeaderField(out, "Content-Transfer-Encoding", "ENCODING", "8bit")
	var b strings.Builder
	for _, fl := range out {
		b.WriteString(fl.key + ": " + fl.value + "\n")
	}
	h.Msgstr = []string{b.String()}
	h.setFuzzy(false)
	h.retarget, h.dirty = true, true
}

// defaultHeaderField sets key to value when it is missing or still holds the
// template placeholder.
func defaultHeaderField(fields []headerField, key, placeholder, value string) []headerField {
	i := indexField(fields, key, false)
	switch {
	case i < 0:
		return append(fields, headerField{key, value})
	case strings.Contains(fields[i].value, placeholder):
		fields[i].value = value
	}
	return fields
}

// normalizeHeaderKey applies translate-toolkit's keyword conversion:
// underscores become hyphens and an all-lowercase name is title-cased, so
// "plural_forms" means "Plural-Forms".
func normalizeHeaderKey(name string) string {
	key := strings.ReplaceAll(name, "_", "-")
	if key != strings.ToLower(key) || key == strings.ToUpper(key) {
		return key
	}
	rs := []rune(key)
	prevLetter := false
	for i, r := range rs {
		if prevLetter {
			rs[i] = unicode.ToLower(r)
		} else {
			rs[i] = unicode.ToUpper(r)
		}
		prevLetter = unicode.IsLetter(r)
	}
	return string(rs)
}
