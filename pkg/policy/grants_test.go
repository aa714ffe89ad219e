package policy

import (
	"testing"

	"github.com/tmsproject/tms/pkg/weblate"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

func TestCan(t *testing.T) {
	translateDE := Grant{ProjectSelection: SelectManual, Projects: []string{"p"}, Languages: []string{"de"},
		Permissions: []string{"unit.edit"}}
	component := Grant{Components: []string{"q/app"}, LanguageSelection: LanguagesAll, Permissions: []string{"unit.edit"}}
	user := NewAccount("u")
	cases := []struct {
		name   string
		caller Caller
		perm   string
		scope  Scope
		can    bool
	}{
		{"superuser", Caller{Superuser: true}, "project.edit", Scope{Project: "x", Access: weblate.AccessPrivate}, true},
		{"user translates public", user, "unit.edit", Scope{Project: "x", Access: weblate.AccessPublic, Language: "de"}, true},
		{"user does not approve", user, "unit.review", Scope{Project: "x", Access: weblate.AccessPublic}, false},
		{"user does not translate protected", user, "unit.edit", Scope{Project: "x", Access: weblate.AccessProtected}, false},
		{"anonymous suggests on public", Anonymous, "suggestion.add", Scope{Project: "x"}, true},
		{"anonymous does not translate", Anonymous, "unit.edit", Scope{Project: "x"}, false},
		{"team language", Caller{Grants: []Grant{translateDE}}, "unit.edit", Scope{Project: "p", Access: weblate.AccessPrivate, Language: "de"}, true},
		{"team other language", Caller{Grants: []Grant{translateDE}}, "unit.edit", Scope{Project: "p", Access: weblate.AccessPrivate, Language: "fr"}, false},
		{"team other project", Caller{Grants: []Grant{translateDE}}, "unit.edit", Scope{Project: "px", Access: weblate.AccessPublic, Language: "de"}, false},
		{"team component", Caller{Grants: []Grant{component}}, "unit.edit", Scope{Project: "q", Access: weblate.AccessPrivate, Component: "app"}, true},
		{"team other component", Caller{Grants: []Grant{component}}, "unit.edit", Scope{Project: "q", Access: weblate.AccessPrivate, Component: "web"}, false},
		{"team component not project-wide", Caller{Grants: []Grant{component}}, "unit.edit", Scope{Project: "q", Access: weblate.AccessPrivate}, false},
	}
	for _, c := range cases {
		if got := c.caller.Can(c.perm, c.scope); got != c.can {
			t.Errorf("%s: Can = %v, want %v", c.name, got, c.can)
		}
	}
}

func TestSees(t *testing.T) {
	member := Caller{Grants: []Grant{{Components: []string{"q/app"}}, {ProjectSelection: SelectManual, Projects: []string{"p"}}}}
	cases := []struct {
		name    string
		caller  Caller
		project string
		access  int32
		sees    bool
	}{
		{"anonymous public", Anonymous, "x", weblate.AccessPublic, true},
		{"anonymous protected", Anonymous, "x", weblate.AccessProtected, true},
		{"anonymous private", Anonymous, "x", weblate.AccessPrivate, false},
		{"user custom", NewAccount("u"), "x", weblate.AccessCustom, false},
		{"member private", member, "p", weblate.AccessPrivate, true},
		{"component member private", member, "q", weblate.AccessPrivate, true},
		{"member other private", member, "qq", weblate.AccessPrivate, false},
		{"no teams public", Caller{}, "x", weblate.AccessPublic, false},
	}
	for _, c := range cases {
		if got := c.caller.Sees(c.project, c.access); got != c.sees {
			t.Errorf("%s: Sees = %v, want %v", c.name, got, c.sees)
		}
		if got := c.caller.Visibility().Sees(c.project, c.access); got != c.sees {
			t.Errorf("%s: Visibility().Sees = %v, want %v", c.name, got, c.sees)
		}
	}
}

func TestLevel(t *testing.T) {
	cases := []struct {
		name string
		in   typev1.AccessControl
		want int32
	}{
		{"unspecified is the default, public", typev1.AccessControl_ACCESS_CONTROL_UNSPECIFIED, weblate.AccessPublic},
		{"protected", typev1.AccessControl_ACCESS_CONTROL_PROTECTED, weblate.AccessProtected},
		{"custom", typev1.AccessControl_ACCESS_CONTROL_CUSTOM, weblate.AccessCustom},
		{"unknown is private", typev1.AccessControl(7), weblate.AccessPrivate},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := Level(c.in); got != c.want {
				t.Errorf("Level(%v) = %d, want %d", c.in, got, c.want)
			}
		})
	}
}
