package rest

import (
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/tmsproject/tms/pkg/errs"
)

func TestURLs(t *testing.T) {
	cases := []struct {
		name   string
		target string
		header map[string]string
		trust  bool
		want   string
	}{
		{"host", "/api/x/", nil, false, "http://example.com/api/projects/p/"},
		{"format=api", "/api/x/?format=api", nil, false, "http://example.com/api/projects/p/?format=api"},
		{"forwarded ignored", "/api/x/", map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-Host": "tms.example"}, false, "http://example.com/api/projects/p/"},
		{"forwarded trusted", "/api/x/", map[string]string{"X-Forwarded-Proto": "https", "X-Forwarded-Host": "tms.example, inner"}, true, "https://tms.example/api/projects/p/"},
	}
	for _, c := range cases {
		r := httptest.NewRequest("GET", c.target, nil)
		for k, v := range c.header {
			r.Header.Set(k, v)
		}
		if got := newURLs(r, c.trust).project("p"); got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
	u := urls{base: "http://h", api: true}
	if got := u.Web("translate", "p", "c", "pt_BR"); got != "http://h/translate/p/c/pt_BR/" {
		t.Errorf("web URLs never carry format: %s", got)
	}
	if got := u.translation("p", "c", "sr@latin", "units"); got != "http://h/api/translations/p/c/sr@latin/units/?format=api" {
		t.Errorf("translation URL %s", got)
	}
}

func TestPagination(t *testing.T) {
	cases := []struct {
		query      string
		total      int64
		wantErr    string
		next, prev string
		size       int64
	}{
		{"", 128, "", "?page=2", "", 50},
		{"page_size=50&format=api&page=2", 128, "", "?format=api&page=3&page_size=50", "?format=api&page_size=50", 50},
		{"page=3&page_size=50", 128, "", "", "?page=2&page_size=50", 50},
		{"page=99", 128, "Invalid page.", "", "", 50},
		{"page=0", 128, "Invalid page.", "", "", 50},
		{"page=abc", 128, "Invalid page.", "", "", 50},
		{"page=2", 0, "Invalid page.", "", "", 50},
		{"", 0, "", "", "", 50},
		{"page_size=5000", 10, "", "", "", 1000},
		{"page_size=-1", 10, "", "", "", 50},
		{"page_size=x&user=a&action=5&action=2", 60, "", "?action=5&action=2&page=2&page_size=x&user=a", "", 50},
	}
	for _, c := range cases {
		q, _ := url.ParseQuery(c.query)
		p, err := parsePager(q, defaultPageSize, maxPageSize)
		var body *pageBody
		if err == nil {
			body, err = envelope("http://h", "/api/x/", q, p, c.total, []int{})
		}
		if c.wantErr != "" {
			if err == nil || toAPIError(err).entries[0].Detail != c.wantErr || toAPIError(err).status != 404 {
				t.Errorf("%q: err %v, want %s", c.query, err, c.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%q: %v", c.query, err)
		}
		if p.size != c.size {
			t.Errorf("%q: size %d, want %d", c.query, p.size, c.size)
		}
		check := func(what string, got *string, want string) {
			if want == "" {
				if got != nil {
					t.Errorf("%q: %s %s, want null", c.query, what, *got)
				}
				return
			}
			if got == nil || *got != "http://h/api/x/"+want {
				t.Errorf("%q: %s %v, want %s", c.query, what, got, want)
			}
		}
		check("next", body.Next, c.next)
		check("previous", body.Previous, c.prev)
		if body.Count != c.total {
			t.Errorf("count %d", body.Count)
		}
	}
}

func TestErrorMapping(t *testing.T) {
	var v errs.Violations
	v.Add("slug", "invalid", "Enter a valid slug.")
	v.Add("source_language.code", "required", "This field is required.")
	cases := []struct {
		name   string
		err    error
		status int
		body   string
	}{
		{"not found over gRPC", errs.ToStatus(errs.NotFoundf("no project x")), 404,
			`{"type":"client_error","errors":[{"code":"not_found","detail":"Not found.","attr":null}]}`},
		{"violations", errs.ToStatus(v.Err()), 400,
			`{"type":"validation_error","errors":[{"code":"invalid","detail":"Enter a valid slug.","attr":"slug"},{"code":"required","detail":"This field is required.","attr":"source_language.code"}]}`},
		{"permission", errs.ToStatus(errs.New(errs.PermissionDenied, "The string is read-only.")), 403,
			`{"type":"client_error","errors":[{"code":"permission_denied","detail":"The string is read-only.","attr":null}]}`},
		{"locked", errs.ToStatus(errs.New(errs.Locked, "The component is locked.")), 423,
			`{"type":"client_error","errors":[{"code":"component-locked","detail":"The component is locked.","attr":null}]}`},
		{"internal never leaks", errors.New("dial tcp 10.0.0.1: refused"), 500,
			`{"type":"server_error","errors":[{"code":"error","detail":"A server error occurred.","attr":null}]}`},
		{"throttled", errs.ToStatus(errs.New(errs.ResourceExhausted, "slow down")), 429,
			`{"type":"client_error","errors":[{"code":"throttled","detail":"Request was throttled.","attr":null}]}`},
	}
	g := &gateway{log: slog.New(slog.DiscardHandler)}
	for _, c := range cases {
		w := httptest.NewRecorder()
		g.writeError(w, httptest.NewRequest("GET", "/api/", nil), c.err)
		if w.Code != c.status || w.Body.String() != c.body {
			t.Errorf("%s: %d %s, want %d %s", c.name, w.Code, w.Body, c.status, c.body)
		}
	}
}

func TestReadBody(t *testing.T) {
	cases := []struct {
		name, ctype, body string
		status            int
		code, attr        string
	}{
		{"malformed", "application/json", `{"a":`, 400, "parse_error", ""},
		{"not an object", "application/json", `[1]`, 400, "invalid", "non_field_errors"},
		{"unsupported", "text/plain", `x`, 415, "unsupported_media_type", ""},
		{"too large", "application/json", `"` + strings.Repeat("a", maxBody) + `"`, 413, "request_too_large", ""},
		{"empty", "application/json", ``, 0, "", ""},
		{"form", "application/x-www-form-urlencoded", `lock=1`, 0, "", ""},
	}
	for _, c := range cases {
		r := httptest.NewRequest("POST", "/api/x/", strings.NewReader(c.body))
		r.Header.Set("Content-Type", c.ctype)
		cl := &call{r: r}
		_, err := cl.readBody()
		if c.status == 0 {
			if err != nil {
				t.Errorf("%s: %v", c.name, err)
			}
			continue
		}
		ae := toAPIError(err)
		if ae.status != c.status || ae.entries[0].Code != c.code || (c.attr != "" && *ae.entries[0].Attr != c.attr) {
			t.Errorf("%s: %d %+v", c.name, ae.status, ae.entries)
		}
	}
}

func TestBodyCoercion(t *testing.T) {
	b := &body{fields: map[string]any{}}
	if err := decodeJSON([]byte(`{"lock":1,"off":"false","n":"12","s":5,"bad":true,"list":"x","objs":[1],"lang":{"code":"cs"},"badbool":"maybe"}`), b); err != nil {
		t.Fatal(err)
	}
	if v, ok := b.boolean("lock"); !v || !ok {
		t.Error("lock 1 is true")
	}
	if v, ok := b.boolean("off"); v || !ok {
		t.Error(`"false" is false`)
	}
	if v, ok := b.integer("n"); v != 12 || !ok {
		t.Error(`"12" is 12`)
	}
	if v, ok := b.str("s"); v != "5" || !ok {
		t.Error("numbers are strings too")
	}
	if v, ok := b.strList("list"); !ok || len(v) != 1 {
		t.Error("a string is a one-form list")
	}
	if v, ok := b.code("lang"); v != "cs" || !ok {
		t.Error("language object")
	}
	b.str("bad")
	b.strList("objs")
	b.boolean("badbool")
	b.required("missing")
	got := map[string]bool{}
	for _, f := range b.errs {
		got[f.Field] = true
	}
	for _, want := range []string{"bad", "objs.0", "badbool", "missing"} {
		if !got[want] {
			t.Errorf("no violation for %s: %+v", want, b.errs)
		}
	}
	ae := toAPIError(b.err())
	if ae.status != http.StatusBadRequest || ae.typ != "validation_error" {
		t.Errorf("%+v", ae)
	}
	raw, _ := json.Marshal(errBody{Type: ae.typ, Errors: ae.entries})
	if !strings.Contains(string(raw), `"attr":"missing"`) {
		t.Error(string(raw))
	}
}

// TestBackendFailuresAnswer503And504: a backend that is down or too slow is
// not a bug of the service: 503 (with Retry-After) or 504 in the error
// shape, never 500.
func TestBackendFailuresAnswer503And504(t *testing.T) {
	cases := []struct {
		err    error
		status int
	}{
		{status.Error(codes.Unavailable, "connection refused"), 503},
		{status.Error(codes.Canceled, "context canceled"), 503},
		{status.Error(codes.DeadlineExceeded, "deadline"), 504},
		{status.Error(codes.Internal, "boom"), 500},
	}
	for _, c := range cases {
		ae := toAPIError(c.err)
		if ae.status != c.status || ae.typ != "server_error" || ae.entries[0].Code != "error" || strings.Contains(ae.entries[0].Detail, "refused") {
			t.Errorf("%v -> %d %s %+v, want %d", c.err, ae.status, ae.typ, ae.entries, c.status)
		}
	}
	if ae := toAPIError(status.Error(codes.Unavailable, "x")); ae.header.Get("Retry-After") == "" {
		t.Error("503 without Retry-After")
	}
}
