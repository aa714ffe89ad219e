package policy

import (
	"context"
	"reflect"
	"testing"

	"google.golang.org/grpc/metadata"

	"github.com/tmsproject/tms/pkg/weblate"
)

// TestCallerTravels sends callers through metadata as a service receives
// them: each arrives with its own grants, the decoded grants of an
// encoding met before included, and malformed grants grant nothing.
func TestCallerTravels(t *testing.T) {
	de := Grant{ProjectSelection: SelectManual, Projects: []string{"p"}, Languages: []string{"de"}, Permissions: []string{"unit.edit"}}
	fr := Grant{ProjectSelection: SelectManual, Projects: []string{"p"}, Languages: []string{"fr"}, Permissions: []string{"unit.edit"}}
	received := func(c Caller) Caller {
		out, _ := metadata.FromOutgoingContext(outgoing(WithCaller(context.Background(), c)))
		got, ok := FromContext(incoming(metadata.NewIncomingContext(context.Background(), out)))
		if !ok {
			t.Fatalf("%s arrived as nobody", c.Username)
		}
		return got
	}
	tests := []struct {
		name   string
		caller Caller
	}{
		{"de translator", Caller{Username: "ana", Grants: []Grant{de}}},
		{"fr translator", Caller{Username: "bo", Grants: []Grant{fr}}},
		{"de translator again", Caller{Username: "cy", Grants: []Grant{de}}},
		{"superuser without grants", Caller{Username: "root", Superuser: true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := received(tt.caller)
			if got.Username != tt.caller.Username || got.Superuser != tt.caller.Superuser {
				t.Errorf("arrived as %+v", got)
			}
			if len(got.Grants) != len(tt.caller.Grants) || (len(got.Grants) > 0 && !reflect.DeepEqual(got.Grants, tt.caller.Grants)) {
				t.Errorf("grants %+v, want %+v", got.Grants, tt.caller.Grants)
			}
		})
	}
	md := metadata.Pairs(mdCaller, "user:eve", mdGrants, `[{"permissions":`)
	got, _ := FromContext(incoming(metadata.NewIncomingContext(context.Background(), md)))
	if len(got.Grants) != 0 || got.Can("unit.edit", Scope{Project: "p", Access: weblate.AccessPrivate, Language: "de"}) {
		t.Errorf("malformed grants gave %+v", got.Grants)
	}
}
