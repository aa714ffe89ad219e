package errs

import (
	"errors"
	"fmt"
	"testing"
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
