package errs

import (
	"errors"
	"fmt"
)

// Kind classifies an error by what the caller should do about it.
type Kind int

// The kinds, each mapped to one gRPC code and one HTTP status.
const (
	Internal Kind = iota
	NotFound
	InvalidArgument
	PermissionDenied
	Unauthenticated
	FailedPrecondition
	Locked
	ResourceExhausted
	// Unavailable: a service could not be reached (down, restarting).
	Unavailable
	// DeadlineExceeded: a service did not answer in time.
	DeadlineExceeded
	// Canceled: the caller went away before the answer.
	Canceled
)

var kindNames = map[Kind]string{
	Internal:           "INTERNAL",
	NotFound:           "NOT_FOUND",
	InvalidArgument:    "INVALID_ARGUMENT",
	PermissionDenied:   "PERMISSION_DENIED",
	Unauthenticated:    "UNAUTHENTICATED",
	FailedPrecondition: "FAILED_PRECONDITION",
	Locked:             "LOCKED",
	ResourceExhausted:  "RESOURCE_EXHAUSTED",
	Unavailable:        "UNAVAILABLE",
	DeadlineExceeded:   "DEADLINE_EXCEEDED",
	Canceled:           "CANCELED",
}

func (k Kind) String() string { return kindNames[k] }

func kindByName(name string) (Kind, bool) {
	for k, n := range kindNames {
		if n == name {
			return k, true
		}
	}
	return Internal, false
}

// FieldViolation is one problem with one request field. Field uses the JSON
// path of the REST API (`slug`, `source_language.code`, `target.0`).
type FieldViolation struct {
	Field       string
	Code        string
	Description string
}

// Error is a classified error. Message is safe to show to API clients.
type Error struct {
	Kind    Kind
	Code    string // client-facing code, e.g. "not_found"; derived from Kind when empty
	Message string
	Fields  []FieldViolation
	cause   error
}

func (e *Error) Error() string {
	if e.cause != nil {
		return e.Message + ": " + e.cause.Error()
	}
	return e.Message
}

func (e *Error) Unwrap() error { return e.cause }

// New returns an error of the kind with a client-safe message.
func New(kind Kind, format string, args ...any) *Error {
	return &Error{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// Wrap classifies cause; the cause's text never reaches clients.
func Wrap(kind Kind, cause error, message string) *Error {
	return &Error{Kind: kind, Message: message, cause: cause}
}

// WithCode sets the client-facing code.
func (e *Error) WithCode(code string) *Error {
	e.Code = code
	return e
}

// NotFoundf is the common "no such resource" error.
func NotFoundf(format string, args ...any) *Error { return New(NotFound, format, args...) }

// Invalid is a validation error on one field.
func Invalid(field, code, description string) *Error {
	return &Error{Kind: InvalidArgument, Message: description,
		Fields: []FieldViolation{{Field: field, Code: code, Description: description}}}
}

// Violations collects field problems and yields one error for all of them.
type Violations []FieldViolation

// Add records a problem with field.
func (v *Violations) Add(field, code, description string) {
	*v = append(*v, FieldViolation{Field: field, Code: code, Description: description})
}

// Paging records negative offsets and limits, in Django REST framework's
// words, and values beyond an int, which are refused rather than wrapped.
func (v *Violations) Paging(offset, limit int64) {
	const maxInt = int64(^uint(0) >> 1)
	const msg = "Ensure this value is greater than or equal to 0."
	if offset < 0 || offset > maxInt {
		v.Add("offset", "min_value", msg)
	}
	if limit < 0 || limit > maxInt {
		v.Add("limit", "min_value", msg)
	}
}

// Err returns nil when nothing was recorded.
func (v Violations) Err() error {
	if len(v) == 0 {
		return nil
	}
	return &Error{Kind: InvalidArgument, Message: v[0].Description, Fields: v}
}

// KindOf returns the kind of err, Internal for unclassified errors.
func KindOf(err error) Kind {
	var e *Error
	if errors.As(err, &e) {
		return e.Kind
	}
	return Internal
}

// Is reports whether err is of the kind.
func Is(err error, kind Kind) bool { return err != nil && KindOf(err) == kind }
