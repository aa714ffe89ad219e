package rest

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// These requests are answered by the shared wrapper before any backend is
// called, so the handler runs with no clients at all.
func TestFrontAndMethodHandling(t *testing.T) {
	h := New(Config{})
	cases := []struct {
		name, method, path string
		header             map[string]string
		status             int
		allow, code        string
	}{
		{"no trailing slash", "GET", "/api/projects", nil, 404, "", "not_found"},
		{"outside api", "GET", "/nope/", nil, 404, "", "not_found"},
		{"unknown api path", "GET", "/api/nope/", nil, 404, "", "not_found"},
		{"bare root", "GET", "/", nil, 404, "", "not_found"},
		{"unknown format", "GET", "/api/projects/?format=xml", nil, 404, "GET, POST, HEAD, OPTIONS", "not_found"},
		{"options component", "OPTIONS", "/api/components/p/c/", nil, 200, "GET, PUT, PATCH, DELETE, HEAD, OPTIONS", ""},
		{"options translation", "OPTIONS", "/api/translations/p/c/cs/", nil, 200, "GET, DELETE, HEAD, OPTIONS", ""},
		{"options units", "OPTIONS", "/api/translations/p/c/cs/units/", nil, 200, "GET, POST, HEAD, OPTIONS", ""},
		{"options changes", "OPTIONS", "/api/components/p/c/changes/", nil, 200, "GET, HEAD, OPTIONS", ""},
		{"options token", "OPTIONS", "/api/users/u/token/", nil, 200, "POST, OPTIONS", ""},
		{"anonymous write", "PATCH", "/api/units/1/", nil, 401, "GET, PUT, PATCH, DELETE, HEAD, OPTIONS", "not_authenticated"},
		{"options suggestions", "OPTIONS", "/api/units/1/suggestions/", nil, 200, "GET, POST, HEAD, OPTIONS", ""},
		{"options accept", "OPTIONS", "/api/suggestions/1/accept/", nil, 200, "POST, OPTIONS", ""},
		{"options comment", "OPTIONS", "/api/comments/1/", nil, 200, "GET, DELETE, HEAD, OPTIONS", ""},
		{"anonymous comment", "POST", "/api/units/1/comments/", nil, 401, "GET, POST, HEAD, OPTIONS", "not_authenticated"},
		{"anonymous resolve", "POST", "/api/comments/1/resolve/", nil, 401, "POST, OPTIONS", "not_authenticated"},
		{"anonymous post on read-only route", "POST", "/api/changes/", nil, 401, "GET, HEAD, OPTIONS", "not_authenticated"},
		{"malformed authorization", "GET", "/api/projects/", map[string]string{"Authorization": "Token"}, 401, "GET, POST, HEAD, OPTIONS", "authentication_failed"},
		{"unknown keyword", "GET", "/api/projects/", map[string]string{"Authorization": "Basic abc"}, 401, "GET, POST, HEAD, OPTIONS", "authentication_failed"},
		{"unregistered method", "TRACE", "/api/projects/", nil, 405, "", "method_not_allowed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := httptest.NewRequest(c.method, c.path, nil)
			for k, v := range c.header {
				r.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != c.status {
				t.Fatalf("status %d, want %d (%s)", w.Code, c.status, w.Body)
			}
			if got := w.Header().Get("Allow"); got != c.allow {
				t.Errorf("Allow %q, want %q", got, c.allow)
			}
			if w.Header().Get("Vary") != "Accept" || !strings.HasPrefix(w.Header().Get("Content-Type"), "application/json") {
				t.Errorf("headers %v", w.Header())
			}
			var body map[string]any
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil {
				t.Fatalf("body not JSON: %s", w.Body)
			}
			if c.code == "" {
				if body["name"] == nil || body["renders"] == nil || body["parses"] == nil {
					t.Errorf("OPTIONS body %v", body)
				}
				return
			}
			errs, _ := body["errors"].([]any)
			if body["type"] != "client_error" || len(errs) != 1 {
				t.Fatalf("error body %v", body)
			}
			e := errs[0].(map[string]any)
			if _, ok := e["attr"]; e["code"] != c.code || !ok {
				t.Errorf("error entry %v, want code %s", e, c.code)
			}
			if c.status == 401 && w.Header().Get("WWW-Authenticate") != "Token" {
				t.Errorf("401 without WWW-Authenticate: %v", w.Header())
			}
		})
	}
}

func TestHeadHasNoBody(t *testing.T) {
	h := New(Config{})
	r := httptest.NewRequest(http.MethodHead, "/api/projects/?format=xml", nil)
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	if w.Code != 404 {
		t.Fatalf("status %d", w.Code)
	}
	// errors before dispatch still carry a body; the server strips it on
	// the wire. A dispatched HEAD goes through headWriter:
	var hw headWriter
	hw.ResponseWriter = httptest.NewRecorder()
	if n, err := hw.Write([]byte("abc")); n != 3 || err != nil {
		t.Fatal("headWriter must swallow writes")
	}
	if hw.ResponseWriter.(*httptest.ResponseRecorder).Body.Len() != 0 {
		t.Error("headWriter wrote a body")
	}
}

func TestAllowOrder(t *testing.T) {
	noop := func(*call) error { return nil }
	cases := []struct {
		methods []string
		want    string
	}{
		{[]string{"GET"}, "GET, HEAD, OPTIONS"},
		{[]string{"DELETE", "GET"}, "GET, DELETE, HEAD, OPTIONS"},
		{[]string{"PATCH", "PUT", "GET", "DELETE"}, "GET, PUT, PATCH, DELETE, HEAD, OPTIONS"},
		{[]string{"POST", "GET"}, "GET, POST, HEAD, OPTIONS"},
		{[]string{"POST"}, "POST, OPTIONS"},
	}
	for _, c := range cases {
		rt := &route{methods: map[string]op{}}
		for _, m := range c.methods {
			rt.methods[m] = op{h: noop}
		}
		if got := rt.allow(); got != c.want {
			t.Errorf("allow(%v) = %q, want %q", c.methods, got, c.want)
		}
	}
}

func TestTokenFrom(t *testing.T) {
	cases := []struct {
		in      string
		key     string
		present bool
	}{
		{"", "", false},
		{"Token wlu_abc", "wlu_abc", true},
		{"token wlu_abc", "wlu_abc", true},
		{"BEARER wlu_abc", "wlu_abc", true},
		{"Basic xyz", "", true},
		{"Token", "", true},
	}
	for _, c := range cases {
		key, present := tokenFrom(c.in)
		if key != c.key || present != c.present {
			t.Errorf("tokenFrom(%q) = %q, %v", c.in, key, present)
		}
	}
}
