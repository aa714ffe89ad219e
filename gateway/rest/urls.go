package rest

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
)

// urls builds every absolute URL of a response from the request, so that
// scheme, host and the format=api marker are decided in one place.
type urls struct {
	base  string         // scheme://host
	api   bool           // the request carried format=api
	paths *categoryPaths // nil: components are named by their slug alone
}

func newURLs(r *http.Request, trustForwarded bool) urls {
	scheme, host := "http", r.Host
	if r.TLS != nil {
		scheme = "https"
	}
	if trustForwarded {
		if p := firstValue(r.Header.Get("X-Forwarded-Proto")); p != "" {
			scheme = p
		}
		if h := firstValue(r.Header.Get("X-Forwarded-Host")); h != "" {
			host = h
		}
	}
	return urls{base: scheme + "://" + host, api: r.URL.Query().Get("format") == "api"}
}

func firstValue(v string) string {
	if i := strings.IndexByte(v, ','); i >= 0 {
		v = v[:i]
	}
	return strings.TrimSpace(v)
}

// API returns the absolute URL of /api/<segments...>/, each segment escaped.
func (u urls) API(segments ...string) string {
	s := u.base + "/api/" + joinSegments(segments)
	if u.api {
		s += "?format=api"
	}
	return s
}

// Web returns the absolute URL of a web page (never carries format=api).
func (u urls) Web(segments ...string) string {
	return u.base + "/" + joinSegments(segments)
}

func joinSegments(segments []string) string {
	var b strings.Builder
	for _, s := range segments {
		b.WriteString(url.PathEscape(s))
		b.WriteByte('/')
	}
	return b.String()
}

func id(n int64) string { return strconv.FormatInt(n, 10) }

// Resource URL helpers, so that every place links the same way.

func (u urls) project(p string, sub ...string) string {
	return u.API(append([]string{"projects", p}, sub...)...)
}

func (u urls) component(p, c string, sub ...string) string {
	return u.API(append([]string{"components", p, u.componentSegment(p, c)}, sub...)...)
}

func (u urls) translation(p, c, l string, sub ...string) string {
	return u.API(append([]string{"translations", p, u.componentSegment(p, c), l}, sub...)...)
}

// componentSegment names a component in an API path: its slug, or for a
// component in a category the reference's "category%2Fslug" (which the
// path escaping turns into the documented docs%252Fusage).
func (u urls) componentSegment(p, c string) string {
	if path := u.paths.lookup(p, c); path != "" {
		return strings.ReplaceAll(path+"/"+c, "/", "%2F")
	}
	return c
}

func (u urls) language(code string, sub ...string) string {
	return u.API(append([]string{"languages", code}, sub...)...)
}

func (u urls) unit(n int64) string   { return u.API("units", id(n)) }
func (u urls) change(n int64) string { return u.API("changes", id(n)) }
func (u urls) user(name string) string {
	return u.API("users", name)
}

// optional returns a pointer to s, nil for an empty s (JSON null).
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}
