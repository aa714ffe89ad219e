package apidoc

import (
	"bytes"
	"encoding/json"
	"slices"

	"gopkg.in/yaml.v3"
)

// Downgrade rewrites a 3.1 document as OpenAPI 3.0: a null in a type array
// or a oneOf becomes nullable, const becomes a one-value enum. The input is
// not changed.
func Downgrade(doc Schema) Schema {
	out := down(doc).(Schema)
	out["openapi"] = "3.0.3"
	return out
}

func down(v any) any {
	switch x := v.(type) {
	case Schema:
		out := make(Schema, len(x))
		for k, e := range x {
			out[k] = down(e)
		}
		return downSchema(out)
	case map[string]Schema:
		out := make(Schema, len(x))
		for k, e := range x {
			out[k] = down(e)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = down(e)
		}
		return out
	case []string:
		return slices.Clone(x)
	}
	return v
}

// downSchema rewrites one (already copied) object if it is a 3.1 schema.
func downSchema(s Schema) Schema {
	if types, ok := s["type"].([]any); ok {
		rest := slices.DeleteFunc(slices.Clone(types), func(t any) bool { return t == "null" })
		if len(rest) < len(types) {
			s["nullable"] = true
		}
		if len(rest) == 1 {
			s["type"] = rest[0]
		} else { // 3.0 has one type per schema
			delete(s, "type")
			var alts []any
			for _, t := range rest {
				alts = append(alts, Schema{"type": t})
			}
			s["oneOf"] = alts
		}
	}
	if alts, ok := s["oneOf"].([]any); ok {
		rest := slices.DeleteFunc(slices.Clone(alts), isNull)
		if len(rest) < len(alts) {
			s["nullable"] = true
			delete(s, "oneOf")
			if len(rest) > 1 {
				s["oneOf"] = rest
			} else {
				s["allOf"] = rest // a $ref takes no siblings in 3.0
			}
		}
	}
	if c, ok := s["const"]; ok {
		delete(s, "const")
		s["enum"] = []any{c}
	}
	return s
}

func isNull(v any) bool {
	s, ok := v.(Schema)
	return ok && len(s) == 1 && s["type"] == "null"
}

// JSON prints the document, indented.
func JSON(doc Schema) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	err := enc.Encode(doc)
	return buf.Bytes(), err
}

// YAML prints the document as YAML, the form Weblate serves by default.
func YAML(doc Schema) ([]byte, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	err := enc.Close()
	return buf.Bytes(), err
}
