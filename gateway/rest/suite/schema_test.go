package suite

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	liberrors "github.com/pb33f/libopenapi-validator/errors"

	"github.com/tmsproject/tms/gateway/rest"
	"github.com/tmsproject/tms/gateway/rest/apidoc"
)

// Every answer of this suite is checked against the service's own OpenAPI
// document (/api/schema/), in its strict form: an object may carry no
// property the document does not name. A request that succeeded is checked
// too, so a body key a handler reads and the document misses fails. One
// shape, one truth: a field added to a handler without its type, or a
// route without its entry, fails here.

var schemaValidator = sync.OnceValues(func() (validator.Validator, error) {
	raw, err := apidoc.JSON(rest.OpenAPI(true))
	if err != nil {
		return nil, err
	}
	return validatorOf(raw)
})

// validatorOf reads an OpenAPI document (JSON or YAML) to validate with.
func validatorOf(raw []byte) (validator.Validator, error) {
	doc, err := libopenapi.NewDocument(raw)
	if err != nil {
		return nil, err
	}
	v, errs := validator.NewValidator(doc)
	if len(errs) > 0 {
		return nil, errs[0]
	}
	return v, nil
}

// checkSchema validates one exchange; body is the request body sent.
func (c client) checkSchema(req *http.Request, body []byte, resp *http.Response, data []byte) {
	c.t.Helper()
	if !strings.HasPrefix(req.URL.Path, "/api/") {
		return // the web pages
	}
	if !firstTime(req, body, resp.StatusCode, data) {
		return // the same exchange again validates the same way
	}
	compareWithWeblate(req, body, resp, data)
	file := strings.HasPrefix(resp.Header.Get("Content-Disposition"), "attachment")
	if file || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") && resp.StatusCode != http.StatusNoContent {
		return // files (JSON ones too), the document itself and the browsable form are not JSON answers
	}
	v, err := schemaValidator()
	if err != nil {
		c.t.Fatalf("the API document: %v", err)
	}
	r := req.Clone(req.Context())
	r.Body = io.NopCloser(bytes.NewReader(body))
	answer := *resp
	answer.Body = io.NopCloser(bytes.NewReader(data))
	var errs []*liberrors.ValidationError
	_, errs = v.ValidateHttpResponse(r, &answer)
	if resp.StatusCode < 300 && len(body) > 0 {
		r.Body = io.NopCloser(bytes.NewReader(body))
		_, reqErrs := v.ValidateHttpRequest(r)
		errs = append(errs, reqErrs...)
	}
	for _, e := range errs {
		if resp.StatusCode >= 400 && e.ValidationType == "path" {
			continue // a path the API does not have is refused
		}
		c.t.Errorf("%s %s (%d) does not match the API document: %s", req.Method, req.URL, resp.StatusCode, describe(e))
	}
}

// validated are the exchanges checked so far, by a hash of method, URL,
// request body, status and answer: the walk asks many URLs twice (with
// and without format=api) and gets the same bytes, and validating them
// again under the race detector cost CI more than a minute.
var validated sync.Map

func firstTime(req *http.Request, body []byte, status int, data []byte) bool {
	h := sha256.New()
	_, _ = fmt.Fprintf(h, "%s %s %d\n%d\n", req.Method, req.URL.Path, status, len(body))
	_, _ = h.Write(body)
	_, _ = h.Write(data)
	_, seen := validated.LoadOrStore(string(h.Sum(nil)), true)
	return !seen
}

func describe(e *liberrors.ValidationError) string {
	out := e.Message + ": " + e.Reason
	for _, s := range e.SchemaValidationErrors {
		out += fmt.Sprintf("; %s at %s", s.Reason, s.FieldPath)
	}
	return out
}

// TestDocumentValidatesAnswers makes sure the check above can fail: an
// answer with a field the document does not name is refused.
func TestDocumentValidatesAnswers(t *testing.T) {
	v, err := schemaValidator()
	if err != nil {
		t.Fatal(err)
	}
	req, _ := http.NewRequest("GET", "http://tms.test/api/languages/de/", nil)
	for _, c := range []struct {
		body string
		ok   bool
	}{
		{`{"id":1,"code":"de","name":"German","plural":{"id":1,"source":0,"number":2,"formula":"n != 1","type":1},"aliases":[],"direction":"ltr","population":1,"web_url":"x","url":"x","statistics_url":"x"}`, true},
		{`{"id":1,"code":"de","name":"German","plural":{"id":1,"source":0,"number":2,"formula":"n != 1","type":1},"aliases":[],"direction":"ltr","population":1,"web_url":"x","url":"x","statistics_url":"x","extra":1}`, false},
		{`{"id":"1","code":"de"}`, false},
	} {
		resp := &http.Response{StatusCode: 200, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(c.body)), Request: req}
		if ok, _ := v.ValidateHttpResponse(req, resp); ok != c.ok {
			t.Errorf("%s: valid %v, want %v", c.body, ok, c.ok)
		}
	}
}
