package rest

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"

	"github.com/tmsproject/tms/gateway/rest/apidoc"
)

// TestOpenAPIDocumentsValidate checks the served document in both
// versions against the OpenAPI specification's own schema.
func TestOpenAPIDocumentsValidate(t *testing.T) {
	docs := apiDocuments()
	for _, key := range []string{"3.1", "3.1-json", "3.0", "3.0-json"} {
		t.Run(key, func(t *testing.T) {
			doc, err := libopenapi.NewDocument(docs[key])
			if err != nil {
				t.Fatal(err)
			}
			want := "3.1.0"
			if strings.HasPrefix(key, "3.0") {
				want = "3.0.3"
			}
			if v := doc.GetVersion(); v != want {
				t.Errorf("version %q, want %q", v, want)
			}
			v, errs := validator.NewValidator(doc)
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			if ok, verrs := v.ValidateDocument(); !ok {
				for _, e := range verrs {
					t.Errorf("%s: %s (%s)", e.Message, e.Reason, e.Context)
				}
			}
		})
	}
}

// TestOpenAPIDocumentCoversRoutes checks that every route and method of the
// table is in the document, each with a success answer, and that the
// operation ids are unique.
func TestOpenAPIDocumentCoversRoutes(t *testing.T) {
	doc := OpenAPI(false)
	paths := doc["paths"].(apidoc.Schema)
	ids := map[string]string{}
	for _, rt := range Routes() {
		item, ok := paths[rt.Pattern+"/"].(apidoc.Schema)
		if !ok {
			t.Errorf("%s/ is not in the document", rt.Pattern)
			continue
		}
		for _, m := range rt.Methods {
			o, ok := item[strings.ToLower(m)].(apidoc.Schema)
			if !ok {
				t.Errorf("%s %s/ is not in the document", m, rt.Pattern)
				continue
			}
			id := o["operationId"].(string)
			if prev, dup := ids[id]; dup {
				t.Errorf("operationId %s of %s %s/ is also %s's", id, m, rt.Pattern, prev)
			}
			ids[id] = m + " " + rt.Pattern
			answers := o["responses"].(apidoc.Schema)
			if len(answers) < 2 {
				t.Errorf("%s %s/ documents no success answer", m, rt.Pattern)
			}
		}
	}
}

// TestSchemaRoute serves the document's forms and the page.
func TestSchemaRoute(t *testing.T) {
	h := New(Config{})
	cases := []struct {
		url, accept, media, starts string
	}{
		{"/api/schema/", "", "application/vnd.oai.openapi; charset=utf-8", "components:"},
		{"/api/schema/", "application/json", "application/vnd.oai.openapi+json; charset=utf-8", "{"},
		{"/api/schema/?format=json", "", "application/vnd.oai.openapi+json; charset=utf-8", "{"},
		{"/api/schema/?format=openapi-3.0", "", "application/vnd.oai.openapi; charset=utf-8", "components:"},
		{"/api/schema/?format=openapi-3.0-json", "", "application/vnd.oai.openapi+json; charset=utf-8", "{"},
		{"/api/docs/", "", "text/html; charset=utf-8", "<!DOCTYPE html>"},
	}
	for _, c := range cases {
		req := httptest.NewRequest("GET", c.url, nil)
		if c.accept != "" {
			req.Header.Set("Accept", c.accept)
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK || w.Header().Get("Content-Type") != c.media || !strings.HasPrefix(w.Body.String(), c.starts) {
			t.Errorf("%s: %d %q %.40q", c.url, w.Code, w.Header().Get("Content-Type"), w.Body.String())
		}
	}
	for _, bad := range []string{"/api/schema/?format=xml", "/api/docs/?format=yaml"} {
		w := httptest.NewRecorder()
		h.ServeHTTP(w, httptest.NewRequest("GET", bad, nil))
		if w.Code != http.StatusNotFound {
			t.Errorf("%s: %d, want 404", bad, w.Code)
		}
	}
}
