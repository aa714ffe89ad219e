package rest

import (
	"bytes"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"

	"github.com/tmsproject/tms/gateway/rest/apidoc"
	"github.com/tmsproject/tms/gateway/rest/wire"
	"github.com/tmsproject/tms/pkg/version"
)

// OpenAPI is the API's OpenAPI 3.1 document, built from the route table.
// strict forbids properties the schemas do not name: the form tests
// validate answers against, so that a field the document misses fails.
func OpenAPI(strict bool) apidoc.Schema {
	var routes []apidoc.Route
	for _, rt := range (&gateway{}).routes() {
		r := apidoc.Route{Pattern: rt.pattern, Name: rt.name}
		for _, m := range methodOrder {
			if o, ok := rt.methods[m]; ok {
				d := o.doc
				d.Method = m
				r.Ops = append(r.Ops, d)
			}
		}
		routes = append(routes, r)
	}
	info := apidoc.Info{Title: "TMS API", Version: version.String(), Description: apiDescription}
	return apidoc.Build(info, routes, apidoc.Options{Custom: customSchemas, Error: errBody{}, PathParams: pathParams, Strict: strict})
}

const apiDescription = "The REST API of the translation management service. It speaks Weblate's API " +
	"(the same paths, fields, pagination and errors), so Weblate's clients work against it; operations " +
	"marked `x-tms-extension` are this service's own. Lists are pages of `count`, `next`, `previous` and " +
	"`results`; every path ends with a slash. Errors answer `{\"type\": ..., \"errors\": [{\"code\", \"detail\", \"attr\"}]}`."

// customSchemas are the types that print themselves.
var customSchemas = map[reflect.Type]apidoc.Schema{
	reflect.TypeFor[wire.Percent]():    {"type": "number", "description": "A percentage with one decimal."},
	reflect.TypeFor[wire.Time]():       {"type": "string", "format": "date-time"},
	reflect.TypeFor[json.RawMessage](): {"type": "object"},
	reflect.TypeFor[uploadedFile]():    {"type": "string", "format": "binary"},
	reflect.TypeFor[idField]():         {"type": []any{"integer", "string"}, "pattern": "^[0-9]+$"},
	reflect.TypeFor[languageCredits](): {"type": "object", "description": "The language's name, with its authors.",
		"additionalProperties": apidoc.Schema{"type": "array", "items": apidoc.Schema{"type": "object",
			"required":   []any{"email", "full_name", "change_count"},
			"properties": apidoc.Schema{"email": apidoc.Schema{"type": "string"}, "full_name": apidoc.Schema{"type": "string"}, "change_count": apidoc.Schema{"type": "integer"}}}}},
}

var pathParams = map[string]apidoc.Param{
	"project":      {Doc: "The project's slug."},
	"component":    {Doc: "The component's slug; a component in a category is the category path and its slug, joined by %2F."},
	"language":     {Doc: "The language code."},
	"id":           {Type: "integer", Doc: "The object's id."},
	"user":         {Doc: "The user name."},
	"check":        {Doc: "The check's id (end_stop, c_format, ...)."},
	"link":         {Doc: "The slug of the linked project."},
	"value":        {Doc: "The id (or language code) of the linked object."},
	"announcement": {Type: "integer", Doc: "The announcement's id."},
}

// apiDocuments are the document's printed forms by version and encoding
// ("3.1", "3.0-json", ...) and its page ("html"), built on first use: the
// route table does not change while the process runs. (A gateway holds
// them: a package variable would refer to the route table that serves it.)
func apiDocuments() map[string][]byte {
	doc := OpenAPI(false)
	docs := map[string]apidoc.Schema{"3.1": doc, "3.0": apidoc.Downgrade(doc)}
	out := map[string][]byte{}
	for v, d := range docs {
		y, err := apidoc.YAML(d)
		if err != nil {
			panic("rest: the API document does not print: " + err.Error())
		}
		j, err := apidoc.JSON(d)
		if err != nil {
			panic("rest: the API document does not print: " + err.Error())
		}
		out[v], out[v+"-json"] = y, j
	}
	var page bytes.Buffer
	if err := docsTemplate.Execute(&page, newDocsView(doc)); err != nil {
		panic("rest: the API page does not render: " + err.Error())
	}
	out["html"] = page.Bytes()
	return out
}

// schema serves the document: YAML by default (as Weblate's /api/schema/),
// JSON for format=json or a JSON Accept header; format=openapi-3.0 (or
// openapi-3.0-json) is the 3.0 form.
func (g *gateway) schema(c *call) error {
	f := c.r.URL.Query().Get("format")
	key := "3.1"
	switch f {
	case "", "openapi", "yaml":
		if f == "" && strings.Contains(c.r.Header.Get("Accept"), "json") {
			key += "-json"
		}
	case "json", "openapi-json":
		key += "-json"
	case "openapi-3.0", "openapi-3.0-json":
		key = strings.TrimPrefix(f, "openapi-")
	default:
		return notFound()
	}
	media := "application/vnd.oai.openapi"
	if strings.HasSuffix(key, "-json") {
		media += "+json"
	}
	return c.raw(media+"; charset=utf-8", c.g.docs()[key])
}

// apiDocs serves the document as a page: no script, no fetch.
func (g *gateway) apiDocs(c *call) error {
	return c.raw("text/html; charset=utf-8", c.g.docs()["html"])
}

// raw answers 200 with data as it is.
func (c *call) raw(contentType string, data []byte) error {
	c.w.Header().Set("Content-Type", contentType)
	c.w.WriteHeader(http.StatusOK)
	_, _ = c.w.Write(data)
	return nil
}
