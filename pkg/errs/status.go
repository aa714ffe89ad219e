package errs

import (
	"context"
	"errors"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

const domain = "tms"

var grpcCodes = map[Kind]codes.Code{
	Internal:           codes.Internal,
	NotFound:           codes.NotFound,
	InvalidArgument:    codes.InvalidArgument,
	PermissionDenied:   codes.PermissionDenied,
	Unauthenticated:    codes.Unauthenticated,
	FailedPrecondition: codes.FailedPrecondition,
	Locked:             codes.FailedPrecondition,
	ResourceExhausted:  codes.ResourceExhausted,
	Unavailable:        codes.Unavailable,
	DeadlineExceeded:   codes.DeadlineExceeded,
	Canceled:           codes.Canceled,
}

// ToStatus converts err into a gRPC status error. Unclassified errors become
// Internal with a generic message so internals never leak.
func ToStatus(err error) error {
	if err == nil {
		return nil
	}
	if _, ok := status.FromError(err); ok {
		var e *Error
		if !errors.As(err, &e) {
			return err // already a status from a downstream call
		}
	}
	var e *Error
	if !errors.As(err, &e) {
		e = &Error{Kind: Internal, Message: "Internal server error."}
	}
	msg := e.Message
	if e.Kind == Internal {
		msg = "Internal server error."
	}
	st := status.New(grpcCodes[e.Kind], msg)
	info := &errdetails.ErrorInfo{Reason: e.Kind.String(), Domain: domain,
		Metadata: map[string]string{"code": e.Code}}
	if withInfo, derr := st.WithDetails(info); derr == nil {
		st = withInfo
	}
	if len(e.Fields) > 0 {
		br := &errdetails.BadRequest{}
		for _, f := range e.Fields {
			br.FieldViolations = append(br.FieldViolations, &errdetails.BadRequest_FieldViolation{
				Field: f.Field, Description: f.Description, Reason: f.Code})
		}
		if withBR, derr := st.WithDetails(br); derr == nil {
			st = withBR
		}
	}
	return st.Err()
}

// FromStatus converts a gRPC error back into an *Error, keeping the kind,
// code and field violations set by ToStatus. Transport failures keep their
// kind: Unavailable (the service is down), DeadlineExceeded (too slow),
// Canceled (the caller left); anything unclassified is Internal.
func FromStatus(err error) *Error {
	if err == nil {
		return nil
	}
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	st, ok := status.FromError(err)
	if !ok {
		switch {
		case errors.Is(err, context.DeadlineExceeded):
			return Wrap(DeadlineExceeded, err, "The service did not answer in time.")
		case errors.Is(err, context.Canceled):
			return Wrap(Canceled, err, "The request was canceled.")
		}
		return Wrap(Internal, err, "Internal server error.")
	}
	out := &Error{Kind: kindFromCode(st.Code()), Message: st.Message(), cause: err}
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.ErrorInfo:
			if d.GetDomain() == domain {
				if k, ok := kindByName(d.GetReason()); ok {
					out.Kind = k
				}
				out.Code = d.GetMetadata()["code"]
			}
		case *errdetails.BadRequest:
			for _, f := range d.GetFieldViolations() {
				out.Fields = append(out.Fields, FieldViolation{Field: f.GetField(), Code: f.GetReason(), Description: f.GetDescription()})
			}
		}
	}
	if out.Kind == Internal {
		out.Message = "Internal server error."
	}
	return out
}

func kindFromCode(c codes.Code) Kind {
	switch c {
	case codes.NotFound:
		return NotFound
	case codes.InvalidArgument, codes.OutOfRange:
		return InvalidArgument
	case codes.PermissionDenied:
		return PermissionDenied
	case codes.Unauthenticated:
		return Unauthenticated
	case codes.FailedPrecondition, codes.AlreadyExists, codes.Aborted:
		return FailedPrecondition
	case codes.ResourceExhausted:
		return ResourceExhausted
	case codes.Unavailable:
		return Unavailable
	case codes.DeadlineExceeded:
		return DeadlineExceeded
	case codes.Canceled:
		return Canceled
	}
	return Internal
}
