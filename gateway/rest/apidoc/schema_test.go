package apidoc

import (
	"encoding/json"
	"reflect"
	"testing"
)

type inner struct {
	N int32 `json:"n"`
}

type full struct {
	Extra string `json:"extra"`
}

type sample struct {
	Name     string            `json:"name" doc:"The name."`
	Count    int64             `json:"count"`
	Ratio    float64           `json:"ratio"`
	Tags     []string          `json:"tags"`
	Maybe    *string           `json:"maybe"`
	Gone     *string           `json:"gone,omitempty"`
	Never    *inner            `json:"never" nullable:"false"`
	Inner    *inner            `json:"inner"`
	Loose    any               `json:"loose"`
	Counts   map[string]int64  `json:"counts"`
	Anything map[string]any    `json:"anything"`
	Skip     string            `json:"-"`
	private  string            //nolint:unused // unexported fields are not printed
	Optional string            `json:"optional,omitempty"`
	Nulls    *string           `json:"nulls,omitempty" nullable:"true"`
	Nested   map[string]*inner `json:"nested"`
	*full
}

func TestSchemaOfStruct(t *testing.T) {
	s := newSchemas(nil, true)
	ref := s.of(reflect.TypeOf(sample{}))
	if ref["$ref"] != "#/components/schemas/Sample" {
		t.Fatalf("ref = %v", ref)
	}
	got := s.defs["Sample"].(Schema)
	props := got["properties"].(Schema)
	innerRef := Schema{"$ref": "#/components/schemas/Inner"}
	cases := []struct {
		name string
		want Schema
	}{
		{"name", Schema{"type": "string", "description": "The name."}},
		{"count", Schema{"type": "integer", "format": "int64"}},
		{"ratio", Schema{"type": "number"}},
		{"tags", Schema{"type": "array", "items": Schema{"type": "string"}}},
		{"maybe", Schema{"type": []any{"string", "null"}}},
		{"gone", Schema{"type": "string"}},
		{"never", innerRef},
		{"inner", Schema{"oneOf": []any{innerRef, Schema{"type": "null"}}}},
		{"loose", Schema{}},
		{"counts", Schema{"type": "object", "additionalProperties": Schema{"type": "integer", "format": "int64"}}},
		{"anything", Schema{"type": "object"}},
		{"optional", Schema{"type": "string"}},
		{"nulls", Schema{"type": []any{"string", "null"}}},
		{"nested", Schema{"type": "object", "additionalProperties": Schema{"oneOf": []any{innerRef, Schema{"type": "null"}}}}},
		{"extra", Schema{"type": "string"}},
	}
	for _, c := range cases {
		if !same(props[c.name], c.want) {
			t.Errorf("%s: %v, want %v", c.name, props[c.name], c.want)
		}
	}
	if len(props) != len(cases) {
		t.Errorf("%d properties, want %d: %v", len(props), len(cases), props)
	}
	want := []string{"name", "count", "ratio", "tags", "maybe", "never", "inner", "loose", "counts", "anything", "nested"}
	if !same(got["required"], want) {
		t.Errorf("required %v, want %v", got["required"], want)
	}
	if got["additionalProperties"] != false {
		t.Error("a strict object allows other properties")
	}
}

func TestDowngrade(t *testing.T) {
	in := Schema{"openapi": "3.1.0", "components": Schema{"schemas": Schema{"A": Schema{"type": "object", "properties": Schema{
		"a": Schema{"type": []any{"string", "null"}},
		"b": Schema{"oneOf": []any{Schema{"$ref": "#/x"}, Schema{"type": "null"}}},
		"c": Schema{"type": []any{"string", "integer"}},
		"d": Schema{"const": "x"},
		"e": Schema{"oneOf": []any{Schema{"$ref": "#/x"}, Schema{"$ref": "#/y"}}},
	}}}}}
	out := Downgrade(in)
	props := out["components"].(Schema)["schemas"].(Schema)["A"].(Schema)["properties"].(Schema)
	cases := map[string]Schema{
		"a": {"type": "string", "nullable": true},
		"b": {"allOf": []any{Schema{"$ref": "#/x"}}, "nullable": true},
		"c": {"oneOf": []any{Schema{"type": "string"}, Schema{"type": "integer"}}},
		"d": {"enum": []any{"x"}},
		"e": {"oneOf": []any{Schema{"$ref": "#/x"}, Schema{"$ref": "#/y"}}},
	}
	for k, want := range cases {
		if !same(props[k], want) {
			t.Errorf("%s: %v, want %v", k, props[k], want)
		}
	}
	if out["openapi"] != "3.0.3" || in["openapi"] != "3.1.0" {
		t.Errorf("versions: out %v, in %v", out["openapi"], in["openapi"])
	}
	if _, ok := in["components"].(Schema)["schemas"].(Schema)["A"].(Schema)["properties"].(Schema)["a"].(Schema)["nullable"]; ok {
		t.Error("Downgrade changed its input")
	}
}

func TestBuildPagesAndPatches(t *testing.T) {
	type thing struct {
		ID   int64  `json:"id"`
		Name string `json:"name"`
	}
	doc := Build(Info{Title: "t", Version: "1"}, []Route{{Pattern: "/api/things", Name: "Things", Ops: []Op{
		{Method: "GET", Out: thing{}, List: true},
		{Method: "PATCH", In: thing{}, Out: thing{}},
		{Method: "DELETE", Status: 204, Extension: "because"},
	}}}, Options{})
	item := doc["paths"].(Schema)["/api/things/"].(Schema)
	get := item["get"].(Schema)
	if get["operationId"] != "api_things_list" {
		t.Errorf("operationId %v", get["operationId"])
	}
	defs := doc["components"].(Schema)["schemas"].(Schema)
	if _, ok := defs["PaginatedThingList"]; !ok {
		t.Errorf("no page schema: %v", defs)
	}
	if _, ok := defs["PatchedThing"].(Schema)["required"]; ok {
		t.Error("a patch requires fields")
	}
	del := item["delete"].(Schema)
	if del["x-tms-extension"] != true || del["responses"].(Schema)["204"] == nil {
		t.Errorf("delete: %v", del)
	}
}

func same(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}
