package rest

import (
	_ "embed" // the page template
	htmltemplate "html/template"
	"maps"
	"slices"
	"strings"

	"github.com/tmsproject/tms/gateway/rest/apidoc"
)

// The /api/docs/ page: the OpenAPI document laid out as HTML by the
// server, so that reading it needs no script and no fetch from elsewhere.

//go:embed webpages/docs.html
var docsPageHTML string

var docsTemplate = htmltemplate.Must(htmltemplate.New("docs").Parse(docsPageHTML))

type docsView struct {
	Title, Version, Description string
	Groups                      []docsGroup
	Schemas                     []docsSchema
}

type docsGroup struct {
	Tag string
	Ops []docsOp
}

type docsOp struct {
	ID, Method, Path, Summary, Description string
	Extension                              bool
	Params                                 []docsProp
	Body                                   string
	Answers                                []docsProp // Name is the status
}

type docsSchema struct {
	Name  string
	Props []docsProp
}

type docsProp struct {
	Name, Type, Doc string
	Required        bool
}

func newDocsView(doc apidoc.Schema) docsView {
	info := doc["info"].(apidoc.Schema)
	v := docsView{Title: info["title"].(string), Version: info["version"].(string), Description: info["description"].(string)}
	groups := map[string][]docsOp{}
	paths := doc["paths"].(apidoc.Schema)
	for _, path := range slices.Sorted(maps.Keys(paths)) {
		item := paths[path].(apidoc.Schema)
		shared := params(item["parameters"])
		for _, m := range []string{"get", "post", "put", "patch", "delete"} {
			o, ok := item[m].(apidoc.Schema)
			if !ok {
				continue
			}
			tag := o["tags"].([]any)[0].(string)
			groups[tag] = append(groups[tag], docsOperation(path, m, o, shared))
		}
	}
	for _, tag := range slices.Sorted(maps.Keys(groups)) {
		v.Groups = append(v.Groups, docsGroup{Tag: tag, Ops: groups[tag]})
	}
	defs := doc["components"].(apidoc.Schema)["schemas"].(apidoc.Schema)
	for _, name := range slices.Sorted(maps.Keys(defs)) {
		v.Schemas = append(v.Schemas, docsSchema{Name: name, Props: properties(defs[name].(apidoc.Schema))})
	}
	return v
}

func docsOperation(path, method string, o apidoc.Schema, shared []docsProp) docsOp {
	op := docsOp{ID: o["operationId"].(string), Method: strings.ToUpper(method), Path: path,
		Summary: o["summary"].(string), Params: append(slices.Clone(shared), params(o["parameters"])...)}
	op.Description, _ = o["description"].(string)
	op.Extension, _ = o["x-tms-extension"].(bool)
	if body, ok := o["requestBody"].(apidoc.Schema); ok {
		for _, c := range body["content"].(apidoc.Schema) {
			op.Body = typeText(c.(apidoc.Schema)["schema"].(apidoc.Schema))
			break // every form of the body has the same schema
		}
	}
	answers := o["responses"].(apidoc.Schema)
	for _, status := range slices.Sorted(maps.Keys(answers)) {
		a := answers[status].(apidoc.Schema)
		p := docsProp{Name: status, Doc: a["description"].(string)}
		if content, ok := a["content"].(apidoc.Schema); ok {
			types := slices.Sorted(maps.Keys(content))
			if len(types) == 1 && types[0] == "application/json" {
				p.Type = typeText(content[types[0]].(apidoc.Schema)["schema"].(apidoc.Schema))
			} else {
				p.Type = strings.Join(types, ", ")
			}
		}
		op.Answers = append(op.Answers, p)
	}
	return op
}

func params(v any) []docsProp {
	list, _ := v.([]any)
	var out []docsProp
	for _, x := range list {
		p := x.(apidoc.Schema)
		d := docsProp{Name: p["name"].(string) + " (" + p["in"].(string) + ")", Type: typeText(p["schema"].(apidoc.Schema))}
		d.Doc, _ = p["description"].(string)
		d.Required, _ = p["required"].(bool)
		out = append(out, d)
	}
	return out
}

func properties(s apidoc.Schema) []docsProp {
	props, _ := s["properties"].(apidoc.Schema)
	required := map[string]bool{}
	switch r := s["required"].(type) {
	case []string:
		for _, n := range r {
			required[n] = true
		}
	case []any:
		for _, n := range r {
			required[n.(string)] = true
		}
	}
	var out []docsProp
	for _, name := range slices.Sorted(maps.Keys(props)) {
		p := props[name].(apidoc.Schema)
		d := docsProp{Name: name, Type: typeText(p), Required: required[name]}
		d.Doc, _ = p["description"].(string)
		out = append(out, d)
	}
	return out
}

// typeText is a schema in a few words: "string or null", "array of Unit".
func typeText(s apidoc.Schema) string {
	if ref, ok := s["$ref"].(string); ok {
		return strings.TrimPrefix(ref, "#/components/schemas/")
	}
	for _, k := range []string{"oneOf", "allOf"} {
		if alts, ok := s[k].([]any); ok {
			var parts []string
			for _, a := range alts {
				parts = append(parts, typeText(a.(apidoc.Schema)))
			}
			return strings.Join(parts, " or ")
		}
	}
	switch t := s["type"].(type) {
	case string:
		if t == "array" {
			return "array of " + typeText(s["items"].(apidoc.Schema))
		}
		if f, ok := s["format"].(string); ok {
			return t + " (" + f + ")"
		}
		return t
	case []any:
		var parts []string
		for _, x := range t {
			parts = append(parts, x.(string))
		}
		return strings.Join(parts, " or ")
	}
	return "any"
}
