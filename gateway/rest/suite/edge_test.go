package suite

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/tmsproject/tms/gateway/rest"
	"github.com/tmsproject/tms/gateway/stack"
	"github.com/tmsproject/tms/pkg/pgtest"
)

// TestMain checks, after the suite, its answers' differences from
// Weblate's document (weblate_test.go).
func TestMain(m *testing.M) { pgtest.Main(m, checkWeblateDifferences) }

// badBytes are the probe's kinds of hostile text: invalid UTF-8, a NUL, an
// overlong encoding, a UTF-16 surrogate, and a value too large to be a
// name.
var badBytes = map[string]string{
	"invalid UTF-8": "\xff\xfe",
	"NUL":           "a\x00b",
	"overlong":      "\xc0\xaf",
	"surrogate":     "\xed\xa0\x80",
	"huge":          strings.Repeat("x", 64<<10),
}

// webPatterns are pages served beside the API.
var webPatterns = []string{"/widget/{project}/svg-badge.svg", "/projects/{project}", "/engage/{project}", "/translate/{project}/{component}/{language}"}

var param = regexp.MustCompile(`\{[a-z_]+\}`)

// TestHostileBytesNever5xx sends every route and page hostile bytes in
// each path parameter, in the query, in a header and in multipart fields,
// on both engines, as the admin (so that every check is reached): nothing
// answers 5xx, and bad text answers 400 naming where it was.
func TestHostileBytesNever5xx(t *testing.T) {
	engines := map[string]func(*stack.Config){
		"sqlite":   nil,
		"postgres": func(c *stack.Config) { c.DatabaseURL = pgtest.URL(t) },
	}
	for name, mod := range engines {
		t.Run(name, func(t *testing.T) {
			c := newStack(t, mod)
			c.want(201, "POST", c.base+"projects/", map[string]any{"name": "Hello", "slug": "hello", "web": "https://hello.example/"})
			site := strings.TrimSuffix(c.base, "/api/")
			fives := 0
			for _, rt := range rest.Routes() {
				methods := append(rt.Methods, "GET")
				for _, u := range hostileURLs(site, rt.Pattern) {
					for _, m := range methods {
						fives += c.expectNo5xx(m, u, nil, "")
					}
				}
				for _, m := range rt.Methods {
					if m == "POST" || m == "PUT" || m == "PATCH" {
						for kind, bad := range badBytes {
							body, ct := hostileMultipart(t, bad)
							fives += c.expectNo5xx(m, site+fill(rt.Pattern, "x")+"/", body, ct+"|"+kind)
						}
					}
				}
			}
			for _, p := range webPatterns {
				for _, u := range hostileURLs(site, p) {
					fives += c.expectNo5xx("GET", u, nil, "")
				}
			}
			if fives > 0 {
				t.Fatalf("%d requests answered 5xx", fives)
			}
			// The probe's own examples answer 400 naming the parameter.
			for _, ex := range []struct{ url, attr string }{
				{c.base + "projects/%ff%fe/", "path"},
				{c.base + "units/?q=%ED%A0%80", "q"},
				{c.base + "changes/?user=%FF", "user"},
				{site + "/widget/%ff/svg-badge.svg", "path"},
			} {
				code, data := c.do("GET", ex.url, nil)
				if code != 400 || !strings.Contains(string(data), `"attr":"`+ex.attr+`"`) {
					t.Errorf("GET %s: %d %s, want 400 naming %s", ex.url, code, data, ex.attr)
				}
			}
		})
	}
}

// fill puts v into every parameter of a pattern.
func fill(pattern, v string) string { return param.ReplaceAllString(pattern, v) }

// hostileURLs are the route's URL with each parameter in turn, then the
// query, carrying each kind of hostile bytes (the others hold "x").
func hostileURLs(site, pattern string) []string {
	var out []string
	params := param.FindAllStringIndex(pattern, -1)
	for _, bad := range badBytes {
		esc := url.PathEscape(bad)
		for i := range params {
			var b strings.Builder
			last := 0
			for j, p := range params {
				b.WriteString(pattern[last:p[0]])
				if i == j {
					b.WriteString(esc)
				} else {
					b.WriteString("x")
				}
				last = p[1]
			}
			b.WriteString(pattern[last:])
			out = append(out, site+b.String()+"/")
		}
		q := url.QueryEscape(bad)
		out = append(out, site+fill(pattern, "x")+"/?q="+q+"&page="+q+"&format="+q+"&"+q+"=1")
	}
	return out
}

// hostileMultipart is a form whose fields and file name carry bad.
func hostileMultipart(t *testing.T, bad string) (*bytes.Buffer, string) {
	t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for _, f := range []string{"conflicts", "method", "fuzzy", "target", "name", "slug"} {
		if err := w.WriteField(f, bad); err != nil {
			t.Fatal(err)
		}
	}
	fw, err := w.CreateFormFile("file", "de"+bad+".po")
	if err != nil {
		t.Fatal(err)
	}
	_, _ = fw.Write([]byte("msgid \"a\"\nmsgstr \"" + bad + "\"\n"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return &buf, w.FormDataContentType()
}

// expectNo5xx sends one request (a multipart body when ct is set, its
// kind after "|") with a hostile header too, and reports a 5xx.
func (c client) expectNo5xx(method, u string, body *bytes.Buffer, ct string) int {
	c.t.Helper()
	var rd *bytes.Reader
	if body != nil {
		rd = bytes.NewReader(body.Bytes())
	} else {
		rd = bytes.NewReader(nil)
	}
	req, err := http.NewRequest(method, u, rd)
	if err != nil {
		c.t.Fatal(err)
	}
	if ct != "" {
		req.Header.Set("Content-Type", strings.SplitN(ct, "|", 2)[0])
	}
	if body == nil && strings.Contains(u, "/hello/") {
		req.Header.Set("Accept-Language", "\xff")
	}
	code, data := c.send(req)
	if code >= 500 {
		c.t.Errorf("%s %.200q: %d %.300s", method, u, code, data)
		return 1
	}
	return 0
}
