package rest

import (
	"errors"
	"fmt"
	"net/http"

	"github.com/tmsproject/tms/pkg/errs"
)

// apiError is an error already shaped as a response: status, body type and
// entries (COMPAT.md §3).
type apiError struct {
	status  int
	typ     string
	entries []errEntry
	header  http.Header
}

type errEntry struct {
	Code   string  `json:"code"`
	Detail string  `json:"detail"`
	Attr   *string `json:"attr"`
}

type errBody struct {
	Type   string     `json:"type"`
	Errors []errEntry `json:"errors"`
}

func (e *apiError) Error() string {
	return fmt.Sprintf("%d %s", e.status, e.entries[0].Detail)
}

func clientError(status int, code, detail string) *apiError {
	return &apiError{status: status, typ: "client_error", entries: []errEntry{{Code: code, Detail: detail}}}
}

func notFound() *apiError { return clientError(http.StatusNotFound, "not_found", "Not found.") }

// isNotFound tells whether err answers 404.
func isNotFound(err error) bool { return err != nil && toAPIError(err).status == http.StatusNotFound }

func invalidPage() *apiError { return clientError(http.StatusNotFound, "not_found", "Invalid page.") }

func permissionDenied(detail string) *apiError {
	if detail == "" {
		detail = "You do not have permission to perform this action."
	}
	return clientError(http.StatusForbidden, "permission_denied", detail)
}

func notAuthenticated() *apiError {
	e := clientError(http.StatusUnauthorized, "not_authenticated", "Authentication credentials were not provided.")
	e.header = http.Header{"Www-Authenticate": {"Token"}}
	return e
}

func invalidToken() *apiError {
	e := clientError(http.StatusUnauthorized, "authentication_failed", "Invalid token.")
	e.header = http.Header{"Www-Authenticate": {"Token"}}
	return e
}

func methodNotAllowed(method string) *apiError {
	return clientError(http.StatusMethodNotAllowed, "method_not_allowed", fmt.Sprintf("Method %q not allowed.", method))
}

// fieldErrors builds a 400 validation_error from violations.
func fieldErrors(v errs.Violations) *apiError {
	e := &apiError{status: http.StatusBadRequest, typ: "validation_error"}
	for _, f := range v {
		attr := f.Field
		if attr == "" {
			attr = "non_field_errors"
		}
		code := f.Code
		if code == "" {
			code = "invalid"
		}
		e.entries = append(e.entries, errEntry{Code: code, Detail: f.Description, Attr: &attr})
	}
	return e
}

// toAPIError maps any error (an apiError, an errs.Error or a gRPC status
// from a backend) to its response. Internal details never reach the body.
func toAPIError(err error) *apiError {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae
	}
	e := errs.FromStatus(err)
	switch e.Kind {
	case errs.NotFound:
		return notFound()
	case errs.InvalidArgument:
		if len(e.Fields) > 0 {
			return fieldErrors(errs.Violations(e.Fields))
		}
		return fieldErrors(errs.Violations{{Code: e.Code, Description: e.Message}})
	case errs.PermissionDenied:
		return permissionDenied(e.Message)
	case errs.Unauthenticated:
		return invalidToken()
	case errs.FailedPrecondition:
		return clientError(http.StatusBadRequest, or(e.Code, "invalid"), e.Message)
	case errs.Locked:
		return clientError(http.StatusLocked, or(e.Code, "component-locked"), e.Message)
	case errs.ResourceExhausted:
		return clientError(http.StatusTooManyRequests, "throttled", "Request was throttled.")
	case errs.Unavailable, errs.Canceled:
		e := serverError(http.StatusServiceUnavailable, "The service is temporarily unavailable; try again.")
		e.header = http.Header{"Retry-After": {"5"}}
		return e
	case errs.DeadlineExceeded:
		return serverError(http.StatusGatewayTimeout, "The service did not answer in time; try again.")
	}
	return serverError(http.StatusInternalServerError, "A server error occurred.")
}

func or(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// serverError is a 5xx answer that names no internals.
func serverError(status int, detail string) *apiError {
	return &apiError{status: status, typ: "server_error", entries: []errEntry{{Code: "error", Detail: detail}}}
}
