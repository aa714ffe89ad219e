package rest

import (
	"maps"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tmsproject/tms/pkg/errs"
)

// Bytes are checked where they enter (ARCHITECTURE.md rule 13): text the
// services get is valid UTF-8 without NUL bytes. Invalid UTF-8 cannot
// travel in a protobuf string, and PostgreSQL refuses NUL in text; either
// used to surface as a 500 from deep inside a service.

// badText tells whether s may not travel: invalid UTF-8, or a NUL byte.
func badText(s string) bool { return !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 }

// invalidText is the 400 naming the parameter that carries bad bytes.
func invalidText(attr string) *apiError {
	var v errs.Violations
	v.Add(attr, "invalid", "Enter valid text: UTF-8 without NUL characters.")
	return fieldErrors(v)
}

// checkRequest checks the path (each segment decoded once, and twice, as
// category paths are escaped twice), the query parameters and the header
// values of r; it names the first bad one.
func checkRequest(r *http.Request) *apiError {
	for _, seg := range strings.Split(r.URL.EscapedPath(), "/") {
		once, err := url.PathUnescape(seg)
		if err != nil {
			continue // the router answers a malformed escape
		}
		twice, err := url.PathUnescape(once)
		if badText(once) || (err == nil && badText(twice)) {
			return invalidText("path")
		}
	}
	query := r.URL.Query()
	for _, k := range slices.Sorted(maps.Keys(query)) {
		if badText(k) {
			return invalidText("query")
		}
		for _, v := range query[k] {
			if badText(v) {
				return invalidText(k)
			}
		}
	}
	for name, vs := range r.Header {
		for _, v := range vs {
			if badText(v) {
				return invalidText(name)
			}
		}
	}
	return nil
}

// badValue finds a string in a decoded JSON value (or form) that may not
// travel, and returns its attribute ("target.0", "source_language.code");
// "" when all are well.
func badValue(attr string, v any) (string, bool) {
	switch v := v.(type) {
	case string:
		return attr, badText(v)
	case []any:
		for i, x := range v {
			if a, bad := badValue(join(attr, strconv.Itoa(i)), x); bad {
				return a, true
			}
		}
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(v)) {
			if badText(k) {
				return join(attr, "non_field_errors"), true
			}
			if a, bad := badValue(join(attr, k), v[k]); bad {
				return a, true
			}
		}
	}
	return "", false
}

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}
