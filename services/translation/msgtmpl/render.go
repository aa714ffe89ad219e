package msgtmpl

import (
	"math"
	"reflect"
	"strconv"
	"strings"
)

// Context maps variable names to values: strings, numbers, booleans,
// nested map[string]any and slices of those.
type Context map[string]any

// Render parses and executes src in one step.
func Render(src string, ctx Context) (string, error) {
	t, err := Parse(src)
	if err != nil {
		return "", err
	}
	return t.Execute(ctx), nil
}

// Execute renders the template.
func (t *Template) Execute(ctx Context) string {
	var b strings.Builder
	render(&b, t.nodes, []Context{ctx})
	return b.String()
}

func render(b *strings.Builder, nodes []node, scopes []Context) {
	for _, n := range nodes {
		switch n := n.(type) {
		case textNode:
			b.WriteString(string(n))
		case *varNode:
			b.WriteString(applyFilters(lookup(scopes, n.path), n.filters))
		case *ifNode:
			if truthy(lookup(scopes, n.path)) != n.negate {
				render(b, n.then, scopes)
			} else {
				render(b, n.otherwise, scopes)
			}
		case *forNode:
			v := reflect.ValueOf(lookup(scopes, n.path))
			if v.Kind() != reflect.Slice && v.Kind() != reflect.Array {
				continue
			}
			for i := range v.Len() {
				render(b, n.body, append(scopes, Context{n.name: v.Index(i).Interface()}))
			}
		}
	}
}

// lookup resolves a dotted path, innermost scope first.
func lookup(scopes []Context, path string) any {
	parts := strings.Split(path, ".")
	for i := len(scopes) - 1; i >= 0; i-- {
		v, ok := scopes[i][parts[0]]
		if !ok {
			continue
		}
		for _, p := range parts[1:] {
			m, ok := v.(map[string]any)
			if !ok {
				if c, isCtx := v.(Context); isCtx {
					m = c
				} else {
					return nil
				}
			}
			v = m[p]
		}
		return v
	}
	return nil
}

func truthy(v any) bool {
	if v == nil {
		return false
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Bool:
		return rv.Bool()
	case reflect.String, reflect.Slice, reflect.Map, reflect.Array:
		return rv.Len() > 0
	case reflect.Int, reflect.Int32, reflect.Int64:
		return rv.Int() != 0
	case reflect.Float32, reflect.Float64:
		return rv.Float() != 0
	}
	return true
}

func applyFilters(v any, filters []filter) string {
	s := format(v)
	for _, f := range filters {
		switch f.name {
		case "default":
			if !truthy(v) {
				s = f.arg
			}
		case "lower":
			s = strings.ToLower(s)
		case "upper":
			s = strings.ToUpper(s)
		case "title":
			s = title(s)
		}
	}
	return s
}

// format prints a value as Django does (Python's str()).
func format(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		if x {
			return "True"
		}
		return "False"
	case float64:
		return pyFloat(x)
	case float32:
		return pyFloat(float64(x))
	case int:
		return strconv.Itoa(x)
	case int32:
		return strconv.FormatInt(int64(x), 10)
	case int64:
		return strconv.FormatInt(x, 10)
	}
	return ""
}

// pyFloat is Python's repr of a float: integral values keep ".0".
func pyFloat(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e16 {
		return strconv.FormatFloat(f, 'f', 1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func title(s string) string {
	words := strings.Fields(s)
	for i, w := range words {
		words[i] = strings.ToUpper(w[:1]) + strings.ToLower(w[1:])
	}
	return strings.Join(words, " ")
}
