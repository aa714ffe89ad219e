package apidoc

import (
	"fmt"
	"reflect"
	"strings"
	"unicode"
)

// Schema is a JSON Schema object as the document prints it.
type Schema = map[string]any

// OneOf is an answer that is one of several shapes (an account's full or
// basic form, say): an Op's Out may be a OneOf of values of those types.
type OneOf []any

// Named is a schema written out (not reflected from a Go type), defined
// under its name: an Op's In may be one.
type Named struct {
	Name   string
	Schema Schema
}

// schemas turns Go types into JSON Schemas, naming every struct type once
// under components/schemas and referring to it there.
type schemas struct {
	custom map[reflect.Type]Schema // types with their own MarshalJSON
	names  map[reflect.Type]string
	taken  map[string]bool
	defs   Schema // by name: the document's components/schemas
	strict bool   // objects allow no other properties (for validation)
}

func newSchemas(custom map[reflect.Type]Schema, strict bool) *schemas {
	return &schemas{custom: custom, names: map[reflect.Type]string{}, taken: map[string]bool{},
		defs: Schema{}, strict: strict}
}

// of is the schema of a value of type t as encoding/json prints it.
func (s *schemas) of(t reflect.Type) Schema {
	if c, ok := s.custom[t]; ok {
		return copySchema(c)
	}
	switch t.Kind() {
	case reflect.Pointer:
		return nullable(s.of(t.Elem()))
	case reflect.Struct:
		return s.ref(t)
	case reflect.Slice, reflect.Array:
		return Schema{"type": "array", "items": s.of(t.Elem())}
	case reflect.Map:
		if t.Elem().Kind() == reflect.Interface {
			return Schema{"type": "object"}
		}
		return Schema{"type": "object", "additionalProperties": s.of(t.Elem())}
	case reflect.Interface:
		return Schema{} // any JSON value
	case reflect.String:
		return Schema{"type": "string"}
	case reflect.Bool:
		return Schema{"type": "boolean"}
	case reflect.Int64, reflect.Uint64, reflect.Int, reflect.Uint:
		return Schema{"type": "integer", "format": "int64"}
	case reflect.Int32, reflect.Int16, reflect.Int8, reflect.Uint32, reflect.Uint16, reflect.Uint8:
		return Schema{"type": "integer", "format": "int32"}
	case reflect.Float32, reflect.Float64:
		return Schema{"type": "number"}
	}
	panic(fmt.Sprintf("apidoc: no schema for %s", t))
}

// ref names the struct type t, defines it once and refers to it.
func (s *schemas) ref(t reflect.Type) Schema {
	name, ok := s.names[t]
	if !ok {
		name = s.newName(t)
		s.names[t] = name
		s.defs[name] = nil // taken while its fields are described (recursion)
		s.defs[name] = s.object(t)
	}
	return Schema{"$ref": "#/components/schemas/" + name}
}

// newName is the schema name of t: its Go name without the JSON suffix,
// capitalised (projectJSON is Project), a request body's In suffix spelled
// Request (labelIn is LabelRequest), unique within the document.
func (s *schemas) newName(t reflect.Type) string {
	base := strings.TrimSuffix(t.Name(), "JSON")
	if in, ok := strings.CutSuffix(base, "In"); ok && in != "" {
		base = in + "Request" // a request body, as Weblate's document names them
	}
	if base == "" {
		base = "Object"
	}
	r := []rune(base)
	r[0] = unicode.ToUpper(r[0])
	base = string(r)
	name := base
	for i := 2; s.taken[name]; i++ {
		name = fmt.Sprintf("%s%d", base, i)
	}
	s.taken[name] = true
	return name
}

// object describes a struct: its JSON fields, those of embedded structs
// included. A field is required unless omitempty drops it, or it comes from
// an embedded pointer (the part only a full form carries).
func (s *schemas) object(t reflect.Type) Schema {
	props := Schema{}
	var required []string
	s.fields(t, true, props, &required)
	out := Schema{"type": "object", "properties": props}
	if len(required) > 0 {
		out["required"] = required
	}
	if s.strict {
		out["additionalProperties"] = false
	}
	return out
}

func (s *schemas) fields(t reflect.Type, req bool, props Schema, required *[]string) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" {
			et, embedReq := f.Type, req
			if et.Kind() == reflect.Pointer {
				et, embedReq = et.Elem(), false
			}
			s.fields(et, embedReq, props, required)
			continue
		}
		if name == "" {
			name = f.Name
		}
		omit := strings.Contains(","+opts+",", ",omitempty,")
		ft := f.Type
		if (omit || f.Tag.Get("nullable") == "false") && ft.Kind() == reflect.Pointer {
			ft = ft.Elem() // nil is left out (or never happens), never null
		}
		sch := s.of(ft)
		if f.Tag.Get("nullable") == "true" {
			sch = nullable(sch)
		}
		if d := f.Tag.Get("doc"); d != "" {
			sch = describe(sch, d)
		}
		props[name] = sch
		if req && !omit {
			*required = append(*required, name)
		}
	}
}

// describe adds a description; a reference cannot carry one in 3.0, so it
// is wrapped.
func describe(s Schema, d string) Schema {
	if _, ok := s["$ref"]; ok {
		return Schema{"allOf": []any{s}, "description": d}
	}
	s["description"] = d
	return s
}

// nullable admits null besides s.
func nullable(s Schema) Schema {
	if t, ok := s["type"].(string); ok {
		out := copySchema(s)
		out["type"] = []any{t, "null"}
		return out
	}
	if len(s) == 0 {
		return s // any value, null included
	}
	return Schema{"oneOf": []any{s, Schema{"type": "null"}}}
}

func copySchema(s Schema) Schema {
	out := make(Schema, len(s))
	for k, v := range s {
		out[k] = v
	}
	return out
}
