package apidoc

import (
	"maps"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Route is one path of the API with its methods.
type Route struct {
	Pattern string // "/api/projects/{project}", without the trailing slash
	Name    string
	Ops     []Op
}

// Op is one method of a route and what it answers.
type Op struct {
	Method string
	Out    any  // a value of the answer's type; nil answers no body
	List   bool // the answer is a page of Out
	Status int  // of success; 0 is 200
	In     any  // a value of the request body's type; nil takes none
	// Files are the media types of a file answer (Out is then unused).
	Files []string
	// Upload takes a multipart body carrying a file (In describes it).
	Upload bool
	Query  []Param
	// Extension says why the service has this and Weblate does not; ""
	// for Weblate's own operations.
	Extension string
	Doc       string
}

// Param is a query or path parameter.
type Param struct {
	Name string
	Type string // string (the default), integer or boolean
	Doc  string
}

// Info heads the document.
type Info struct {
	Title, Version, Description string
}

// Options are what the route table does not say.
type Options struct {
	// Custom are the schemas of types that print themselves (MarshalJSON).
	Custom map[reflect.Type]Schema
	// Error is a value of the error body's type: every operation's
	// default answer.
	Error any
	// PathParams describe the path parameters by name.
	PathParams map[string]Param
	// Strict forbids properties a schema does not name, so that a test
	// validating answers finds every field the document misses.
	Strict bool
}

// Build is the OpenAPI 3.1 document of routes.
func Build(info Info, routes []Route, opt Options) Schema {
	b := &builder{s: newSchemas(opt.Custom, opt.Strict), opt: opt, tags: map[string]bool{}}
	paths := Schema{}
	for _, rt := range routes {
		item := Schema{}
		for _, op := range rt.Ops {
			item[strings.ToLower(op.Method)] = b.operation(rt, op)
		}
		if params := b.pathParams(rt.Pattern); len(params) > 0 {
			item["parameters"] = params
		}
		paths[rt.Pattern+"/"] = item
	}
	var tags []any
	for _, t := range slices.Sorted(maps.Keys(b.tags)) {
		tags = append(tags, Schema{"name": t})
	}
	return Schema{
		"openapi": "3.1.0",
		"info":    Schema{"title": info.Title, "version": info.Version, "description": info.Description},
		"paths":   paths,
		"tags":    tags,
		"components": Schema{"schemas": b.s.defs, "securitySchemes": Schema{
			"tokenAuth": Schema{"type": "apiKey", "in": "header", "name": "Authorization",
				"description": "An API key sent as `Authorization: Token <key>`; anonymous calls send none."}}},
		"security": []any{Schema{"tokenAuth": []any{}}, Schema{}},
	}
}

type builder struct {
	s    *schemas
	opt  Options
	tags map[string]bool
}

var pathParam = regexp.MustCompile(`\{([a-z_]+)\}`)

func (b *builder) pathParams(pattern string) []any {
	var out []any
	for _, m := range pathParam.FindAllStringSubmatch(pattern, -1) {
		p := b.opt.PathParams[m[1]]
		if p.Name == "" {
			p.Name = m[1]
		}
		out = append(out, b.param(p, "path"))
	}
	return out
}

func (b *builder) param(p Param, in string) Schema {
	out := Schema{"name": p.Name, "in": in, "schema": Schema{"type": or(p.Type, "string")}}
	if in == "path" {
		out["required"] = true
	}
	if p.Doc != "" {
		out["description"] = p.Doc
	}
	return out
}

func (b *builder) operation(rt Route, op Op) Schema {
	tag := tagOf(rt.Pattern)
	b.tags[tag] = true
	out := Schema{"operationId": operationID(rt.Pattern, op), "summary": summary(rt.Name, op),
		"tags": []any{tag}, "responses": b.responses(op)}
	desc := op.Doc
	if op.Extension != "" {
		out["x-tms-extension"] = true
		desc = strings.TrimSpace(desc + "\n\nThis service's own (not in Weblate's API): " + op.Extension)
	}
	if desc != "" {
		out["description"] = desc
	}
	var params []any
	if op.List {
		params = append(params, b.param(Param{Name: "page", Type: "integer", Doc: "Page number, from 1."}, "query"),
			b.param(Param{Name: "page_size", Type: "integer", Doc: "Results per page."}, "query"))
	}
	for _, q := range op.Query {
		params = append(params, b.param(q, "query"))
	}
	if len(params) > 0 {
		out["parameters"] = params
	}
	if op.In != nil {
		out["requestBody"] = b.requestBody(op)
	}
	return out
}

func (b *builder) responses(op Op) Schema {
	status := op.Status
	if status == 0 {
		status = http.StatusOK
	}
	ok := Schema{"description": http.StatusText(status)}
	switch {
	case len(op.Files) > 0:
		content := Schema{}
		for _, mt := range op.Files {
			content[mt] = Schema{"schema": Schema{"type": "string", "format": "binary"}}
		}
		ok["content"] = content
	case op.Out != nil:
		ok["content"] = Schema{"application/json": Schema{"schema": b.answer(op)}}
	}
	out := Schema{strconv.Itoa(status): ok}
	if b.opt.Error != nil {
		out["default"] = Schema{"description": "An error: the status says which.",
			"content": Schema{"application/json": Schema{"schema": b.s.of(reflect.TypeOf(b.opt.Error))}}}
	}
	return out
}

// answer is the schema of a successful answer: Out, one of several
// shapes, or a page of them.
func (b *builder) answer(op Op) Schema {
	var item Schema
	if alts, ok := op.Out.(OneOf); ok {
		var list []any
		for _, a := range alts {
			list = append(list, b.s.of(reflect.TypeOf(a)))
		}
		item = Schema{"oneOf": list}
	} else {
		item = b.s.of(reflect.TypeOf(op.Out))
	}
	if !op.List {
		return item
	}
	return b.page(item)
}

// page is the pagination envelope around item, named after it.
func (b *builder) page(item Schema) Schema {
	ref, _ := item["$ref"].(string)
	name := "Paginated" + strings.TrimPrefix(ref, "#/components/schemas/") + "List"
	if ref == "" {
		name = "" // an anonymous item: the envelope is anonymous too
	}
	if name != "" && b.s.defs[name] != nil {
		return Schema{"$ref": "#/components/schemas/" + name}
	}
	link := Schema{"type": []any{"string", "null"}, "format": "uri"}
	env := Schema{"type": "object", "required": []any{"count", "next", "previous", "results"},
		"properties": Schema{"count": Schema{"type": "integer"}, "next": link, "previous": copySchema(link),
			"results": Schema{"type": "array", "items": item}}}
	if b.opt.Strict {
		env["additionalProperties"] = false
	}
	if name == "" {
		return env
	}
	b.s.defs[name] = env
	return Schema{"$ref": "#/components/schemas/" + name}
}

// requestBody takes In as JSON or as a form. A PATCH names no required
// field (a Patched copy of In's schema, as Weblate's document has).
func (b *builder) requestBody(op Op) Schema {
	var sch Schema
	if n, ok := op.In.(Named); ok {
		if prev, seen := b.s.defs[n.Name]; seen && !reflect.DeepEqual(prev, n.Schema) {
			panic("apidoc: two schemas are named " + n.Name)
		}
		b.s.taken[n.Name], b.s.defs[n.Name] = true, n.Schema
		sch = Schema{"$ref": "#/components/schemas/" + n.Name}
	} else {
		sch = b.s.of(reflect.TypeOf(op.In))
	}
	if op.Method == http.MethodPatch {
		sch = b.patched(sch)
	}
	content := Schema{"application/json": Schema{"schema": sch},
		"application/x-www-form-urlencoded": Schema{"schema": sch}, "multipart/form-data": Schema{"schema": sch}}
	if op.Upload {
		content = Schema{"multipart/form-data": Schema{"schema": sch}}
	}
	return Schema{"required": op.Method != http.MethodPatch, "content": content}
}

func (b *builder) patched(sch Schema) Schema {
	ref, ok := sch["$ref"].(string)
	if !ok {
		return sch
	}
	name := strings.TrimPrefix(ref, "#/components/schemas/")
	patched := "Patched" + name
	if b.s.defs[patched] == nil {
		def := copySchema(b.s.defs[name].(Schema))
		delete(def, "required")
		b.s.defs[patched] = def
	}
	return Schema{"$ref": "#/components/schemas/" + patched}
}

// tagOf groups operations by the first segment after /api/.
func tagOf(pattern string) string {
	seg := strings.Split(strings.TrimPrefix(pattern, "/api"), "/")
	if len(seg) < 2 || seg[1] == "" {
		return "root"
	}
	return seg[1]
}

// operationID names an operation as Weblate's document does: the path's
// literal segments and the action (api_projects_retrieve).
func operationID(pattern string, op Op) string {
	var parts []string
	for _, seg := range strings.Split(strings.Trim(pattern, "/"), "/") {
		if !strings.HasPrefix(seg, "{") {
			parts = append(parts, strings.ReplaceAll(seg, "-", "_"))
		}
	}
	return strings.Join(append(parts, action(op)), "_")
}

func action(op Op) string {
	switch op.Method {
	case http.MethodGet:
		if op.List {
			return "list"
		}
		return "retrieve"
	case http.MethodPost:
		return "create"
	case http.MethodPut:
		return "update"
	case http.MethodPatch:
		return "partial_update"
	case http.MethodDelete:
		return "destroy"
	}
	return strings.ToLower(op.Method)
}

func summary(name string, op Op) string {
	return name + ": " + strings.ReplaceAll(action(op), "_", " ")
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
