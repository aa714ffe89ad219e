package rest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/tmsproject/tms/pkg/errs"
)

// maxBody is the largest request body accepted (413 beyond).
const maxBody = 10 << 20

// body is a decoded request body: JSON keys, or form fields as strings.
// Getters coerce like Django REST framework fields and record problems in
// errs; unknown keys are ignored.
type body struct {
	fields map[string]any
	errs   errs.Violations
}

// readBody decodes a JSON, urlencoded or multipart body. An empty body is
// an empty object (required fields then report themselves).
func (c *call) readBody() (*body, error) {
	raw, err := io.ReadAll(io.LimitReader(c.r.Body, maxBody+1))
	if err != nil {
		return nil, clientError(http.StatusBadRequest, "parse_error", "Could not read the request body.")
	}
	if len(raw) > maxBody {
		return nil, clientError(http.StatusRequestEntityTooLarge, "request_too_large", "Request body exceeds 10 MiB.")
	}
	b := &body{fields: map[string]any{}}
	if len(bytes.TrimSpace(raw)) == 0 {
		return b, nil
	}
	ct := c.r.Header.Get("Content-Type")
	mt, params, _ := mime.ParseMediaType(ct)
	switch {
	case ct == "" || mt == "application/json" || strings.HasSuffix(mt, "+json"):
		return b, decodeJSON(raw, b)
	case mt == "application/x-www-form-urlencoded":
		vals, err := url.ParseQuery(string(raw))
		if err != nil {
			return nil, clientError(http.StatusBadRequest, "parse_error", "Malformed form data.")
		}
		return b, b.setForm(vals)
	case mt == "multipart/form-data":
		return b, decodeMultipart(raw, params["boundary"], b)
	}
	return nil, clientError(http.StatusUnsupportedMediaType, "unsupported_media_type",
		fmt.Sprintf("Unsupported media type %q in request.", ct))
}

func decodeJSON(raw []byte, b *body) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return clientError(http.StatusBadRequest, "parse_error", "JSON parse error - "+err.Error())
	}
	obj, ok := v.(map[string]any)
	if !ok {
		b.errs.Add("non_field_errors", "invalid", fmt.Sprintf("Invalid data. Expected a dictionary, but got %s.", jsonKind(v)))
		return fieldErrors(b.errs)
	}
	if attr, bad := badValue("", obj); bad {
		return invalidText(attr)
	}
	b.fields = obj
	return nil
}

func decodeMultipart(raw []byte, boundary string, b *body) error {
	r := &http.Request{Header: http.Header{"Content-Type": {"multipart/form-data; boundary=" + boundary}},
		Body: io.NopCloser(bytes.NewReader(raw)), Method: http.MethodPost}
	if err := r.ParseMultipartForm(maxBody); err != nil {
		return clientError(http.StatusBadRequest, "parse_error", "Multipart form parse error - "+err.Error())
	}
	if err := b.setForm(r.MultipartForm.Value); err != nil {
		return err
	}
	for name, files := range r.MultipartForm.File {
		if len(files) == 0 {
			continue
		}
		if badText(files[0].Filename) {
			return invalidText(name)
		}
		f, err := files[0].Open()
		if err != nil {
			continue
		}
		data, _ := io.ReadAll(f)
		_ = f.Close()
		b.fields[name] = fileField{name: files[0].Filename, data: data}
	}
	return nil
}

// fileField is an uploaded file of a multipart body.
type fileField struct {
	name string
	data []byte
}

// setForm takes the fields of a form; a field whose name or value may not
// travel is refused, named.
func (b *body) setForm(vals url.Values) error {
	for k, vs := range vals {
		for _, v := range vs {
			if badText(k) || badText(v) {
				return invalidText(k)
			}
		}
		if len(vs) == 1 {
			b.fields[k] = vs[0]
		} else {
			list := make([]any, len(vs))
			for i, s := range vs {
				list[i] = s
			}
			b.fields[k] = list
		}
	}
	return nil
}

func jsonKind(v any) string {
	switch v.(type) {
	case []any:
		return "list"
	case string:
		return "str"
	case json.Number:
		return "int"
	case bool:
		return "bool"
	case nil:
		return "NoneType"
	}
	return "dict"
}

func (b *body) has(key string) bool { _, ok := b.fields[key]; return ok }

// required records "This field is required." for each missing key.
func (b *body) required(keys ...string) {
	for _, k := range keys {
		if !b.has(k) {
			b.errs.Add(k, "required", "This field is required.")
		}
	}
}

// requiredFile is the uploaded file of a required multipart part,
// recording the reference's errors when it is missing or not a file.
func (b *body) requiredFile(key string) uploadedFile {
	b.required(key)
	f, isFile := b.fields[key].(uploadedFile)
	if b.has(key) && !isFile {
		b.errs.Add(key, "invalid", "The submitted data was not a file. Check the encoding type on the form.")
	}
	return f
}

// err returns the 400 for everything recorded so far, or nil.
func (b *body) err() error {
	if len(b.errs) == 0 {
		return nil
	}
	return fieldErrors(b.errs)
}

// str reads a string field (numbers are taken as their text, like DRF).
func (b *body) str(key string) (string, bool) {
	v, ok := b.fields[key]
	if !ok {
		return "", false
	}
	switch v := v.(type) {
	case string:
		return v, true
	case json.Number:
		return v.String(), true
	case nil:
		b.errs.Add(key, "null", "This field may not be null.")
	default:
		b.errs.Add(key, "invalid", "Not a valid string.")
	}
	return "", false
}

// boolean reads a boolean field; DRF also accepts 1/0 and "true"/"false".
func (b *body) boolean(key string) (bool, bool) {
	v, ok := b.fields[key]
	if !ok {
		return false, false
	}
	switch v := v.(type) {
	case bool:
		return v, true
	case json.Number:
		switch v.String() {
		case "1":
			return true, true
		case "0":
			return false, true
		}
	case string:
		switch strings.ToLower(v) {
		case "true", "1", "yes", "on", "y", "t":
			return true, true
		case "false", "0", "no", "off", "n", "f", "":
			return false, true
		}
	}
	b.errs.Add(key, "invalid", "Must be a valid boolean.")
	return false, false
}

// integer reads an integer field (strings of digits too).
func (b *body) integer(key string) (int64, bool) {
	v, ok := b.fields[key]
	if !ok {
		return 0, false
	}
	var s string
	switch v := v.(type) {
	case json.Number:
		s = v.String()
	case string:
		s = strings.TrimSpace(v)
	default:
		b.errs.Add(key, "invalid", "A valid integer is required.")
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		if f, ferr := strconv.ParseFloat(s, 64); ferr == nil && f == float64(int64(f)) {
			return int64(f), true
		}
		b.errs.Add(key, "invalid", "A valid integer is required.")
		return 0, false
	}
	return n, true
}

// int32 reads an integer for an int32 field. One beyond the field's range
// is refused as Weblate refuses a value beyond its column's (Django's range
// validators), rather than wrapped around into another value.
func (b *body) int32(key string) (int32, bool) {
	n, ok := b.integer(key)
	switch {
	case !ok:
		return 0, false
	case n > math.MaxInt32:
		b.errs.Add(key, "max_value", "Ensure this value is less than or equal to 2147483647.")
		return 0, false
	case n < math.MinInt32:
		b.errs.Add(key, "min_value", "Ensure this value is greater than or equal to -2147483648.")
		return 0, false
	}
	return int32(n), true
}

// strList reads a list of strings; a single string is one element.
func (b *body) strList(key string) ([]string, bool) {
	v, ok := b.fields[key]
	if !ok {
		return nil, false
	}
	switch v := v.(type) {
	case string:
		return []string{v}, true
	case []any:
		out := make([]string, 0, len(v))
		for i, item := range v {
			s, isStr := item.(string)
			if !isStr {
				b.errs.Add(fmt.Sprintf("%s.%d", key, i), "invalid", "Not a valid string.")
				return nil, false
			}
			out = append(out, s)
		}
		return out, true
	}
	b.errs.Add(key, "not_a_list", fmt.Sprintf("Expected a list of items but got type %q.", jsonKind(v)))
	return nil, false
}

// code reads a language reference: a code string or an object with "code".
func (b *body) code(key string) (string, bool) {
	v, ok := b.fields[key]
	if !ok {
		return "", false
	}
	if obj, isObj := v.(map[string]any); isObj {
		s, isStr := obj["code"].(string)
		if !isStr {
			b.errs.Add(key+".code", "required", "This field is required.")
			return "", false
		}
		return s, true
	}
	if v == nil {
		return "", true
	}
	return b.str(key)
}

// intList reads a list of integers (the reference's primary keys).
func (b *body) intList(key string) ([]int64, bool) {
	v, ok := b.fields[key]
	if !ok {
		return nil, false
	}
	list, isList := v.([]any)
	if !isList {
		b.errs.Add(key, "not_a_list", fmt.Sprintf("Expected a list of items but got type %q.", jsonKind(v)))
		return nil, false
	}
	out := make([]int64, 0, len(list))
	for i, item := range list {
		num, isNum := item.(json.Number)
		n, err := strconv.ParseInt(num.String(), 10, 64)
		if !isNum || err != nil {
			b.errs.Add(fmt.Sprintf("%s.%d", key, i), "incorrect_type", "Incorrect type. Expected pk value.")
			return nil, false
		}
		out = append(out, n)
	}
	return out, true
}
