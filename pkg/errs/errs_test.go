package errs

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
)

func TestStatusRoundTrip(t *testing.T) {
	cases := []struct {
		name string
		in   error
		want Kind
		msg  string
	}{
		{"not found", NotFoundf("Not found."), NotFound, "Not found."},
		{"locked", New(Locked, "The component is locked.").WithCode("component-locked"), Locked, "The component is locked."},
		{"invalid", Invalid("slug", "invalid", "Enter a valid slug."), InvalidArgument, "Enter a valid slug."},
		{"plain error hides internals", errors.New("db exploded at /var/lib"), Internal, "Internal server error."},
		{"wrapped internal", fmt.Errorf("ctx: %w", Wrap(Internal, errors.New("secret"), "boom")), Internal, "Internal server error."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := FromStatus(ToStatus(c.in))
			if got.Kind != c.want || got.Message != c.msg {
				t.Fatalf("got %v %q, want %v %q", got.Kind, got.Message, c.want, c.msg)
			}
		})
	}
}

func TestFieldViolationsSurvive(t *testing.T) {
	var v Violations
	v.Add("slug", "invalid", "Enter a valid slug.")
	v.Add("name", "blank", "This field may not be blank.")
	got := FromStatus(ToStatus(v.Err()))
	if len(got.Fields) != 2 || got.Fields[0].Field != "slug" || got.Fields[1].Code != "blank" {
		t.Fatalf("fields lost: %+v", got.Fields)
	}
	if (Violations{}).Err() != nil {
		t.Fatal("empty violations must be nil")
	}
}

func TestCodeSurvives(t *testing.T) {
	got := FromStatus(ToStatus(New(Locked, "locked").WithCode("component-locked")))
	if got.Code != "component-locked" {
		t.Fatalf("code %q", got.Code)
	}
}

func TestPaging(t *testing.T) {
	const huge = int64(1) << 30
	tests := []struct {
		name          string
		offset, limit int64
		want          []string
	}{
		{"zero", 0, 0, nil},
		{"positive", 20, 50, nil},
		{"negative offset", -1, 10, []string{"offset"}},
		{"negative limit", 0, -5, []string{"limit"}},
		{"both negative", -1, -1, []string{"offset", "limit"}},
		{"large but an int", huge, huge, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var v Violations
			v.Paging(tt.offset, tt.limit)
			if len(v) != len(tt.want) {
				t.Fatalf("violations %+v, want fields %v", v, tt.want)
			}
			for i, f := range tt.want {
				if v[i].Field != f || v[i].Code != "min_value" {
					t.Errorf("violation %d = %+v, want %s min_value", i, v[i], f)
				}
			}
		})
	}
}

// TestTransportFailures keeps the kind of a failure to reach a service:
// the gateway answers 503 or 504 for them, not 500.
func TestTransportFailures(t *testing.T) {
	cases := []struct {
		err  error
		want Kind
	}{
		{status.Error(codes.Unavailable, "connection refused"), Unavailable},
		{status.Error(codes.DeadlineExceeded, "context deadline exceeded"), DeadlineExceeded},
		{status.Error(codes.Canceled, "context canceled"), Canceled},
		{fmt.Errorf("call: %w", context.DeadlineExceeded), DeadlineExceeded},
		{context.Canceled, Canceled},
		{status.Error(codes.Internal, "boom"), Internal},
	}
	for _, c := range cases {
		if got := FromStatus(c.err).Kind; got != c.want {
			t.Errorf("FromStatus(%v) kind %v, want %v", c.err, got, c.want)
		}
		if got := FromStatus(ToStatus(New(c.want, "x"))).Kind; got != c.want {
			t.Errorf("round trip of %v gives %v", c.want, got)
		}
	}
}
