package policy

import "testing"

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
		{"superuser", Caller{Superuser: true}, "project.edit", Scope{Project: "x", Access: AccessPrivate}, true},
		{"user translates public", user, "unit.edit", Scope{Project: "x", Access: AccessPublic, Language: "de"}, true},
		{"user does not approve", user, "unit.review", Scope{Project: "x", Access: AccessPublic}, false},
		{"user does not translate protected", user, "unit.edit", Scope{Project: "x", Access: AccessProtected}, false},
		{"anonymous suggests on public", Anonymous, "suggestion.add", Scope{Project: "x"}, true},
		{"anonymous does not translate", Anonymous, "unit.edit", Scope{Project: "x"}, false},
		{"team language", Caller{Grants: []Grant{translateDE}}, "unit.edit", Scope{Project: "p", Access: AccessPrivate, Language: "de"}, true},
		{"team other language", Caller{Grants: []Grant{translateDE}}, "unit.edit", Scope{Project: "p", Access: AccessPrivate, Language: "fr"}, false},
		{"team other project", Caller{Grants: []Grant{translateDE}}, "unit.edit", Scope{Project: "px", Access: AccessPublic, Language: "de"}, false},
		{"team component", Caller{Grants: []Grant{component}}, "unit.edit", Scope{Project: "q", Access: AccessPrivate, Component: "app"}, true},
		{"team other component", Caller{Grants: []Grant{component}}, "unit.edit", Scope{Project: "q", Access: AccessPrivate, Component: "web"}, false},
		{"team component not project-wide", Caller{Grants: []Grant{component}}, "unit.edit", Scope{Project: "q", Access: AccessPrivate}, false},
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
		{"anonymous public", Anonymous, "x", AccessPublic, true},
		{"anonymous protected", Anonymous, "x", AccessProtected, true},
		{"anonymous private", Anonymous, "x", AccessPrivate, false},
		{"user custom", NewAccount("u"), "x", AccessCustom, false},
		{"member private", member, "p", AccessPrivate, true},
		{"component member private", member, "q", AccessPrivate, true},
		{"member other private", member, "qq", AccessPrivate, false},
		{"no teams public", Caller{}, "x", AccessPublic, false},
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
