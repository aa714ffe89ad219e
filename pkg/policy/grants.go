package policy

import (
	"slices"

	"github.com/tmsproject/tms/pkg/weblate"
)

// Project selections of a team (the reference's values).
const (
	SelectManual        = 0
	SelectAll           = 1
	SelectComponentList = 2
	SelectAllPublic     = 3
	SelectAllProtected  = 4
)

// Language selections of a team.
const (
	LanguagesManual = 0
	LanguagesAll    = 1
)

// Grant is what one team gives its members: permissions on a selection
// of projects (and components) and languages.
type Grant struct {
	ProjectSelection  int32    `json:"ps"`
	Projects          []string `json:"p,omitempty"`
	Components        []string `json:"c,omitempty"` // "project/component"
	LanguageSelection int32    `json:"ls"`
	Languages         []string `json:"l,omitempty"`
	Permissions       []string `json:"r,omitempty"`
}

// Scope is the object a permission is asked for: a project (with its
// access level), optionally one of its components and one language.
type Scope struct {
	Project   string
	Access    int32
	Component string
	Language  string
}

// selects tells whether the team's project selection takes in the project
// of s as a whole.
func (g Grant) selects(s Scope) bool {
	switch g.ProjectSelection {
	case SelectAll:
		return true
	case SelectAllPublic:
		return s.Access == weblate.AccessPublic
	case SelectAllProtected:
		return s.Access == weblate.AccessPublic || s.Access == weblate.AccessProtected
	case SelectManual:
		return slices.Contains(g.Projects, s.Project)
	}
	return false
}

// covers tells whether the team applies to s: its project (or, for a
// component or translation, its component) and its language. A language
// limit does not narrow project- and component-wide permissions, as in the
// reference.
func (g Grant) covers(s Scope) bool {
	if !g.selects(s) && (s.Component == "" || !slices.Contains(g.Components, s.Project+"/"+s.Component)) {
		return false
	}
	return s.Language == "" || g.LanguageSelection == LanguagesAll || slices.Contains(g.Languages, s.Language)
}

// sees tells whether the team lets its members see the project: it
// selects the project or one of its components.
func (g Grant) sees(project string, access int32) bool {
	if g.selects(Scope{Project: project, Access: access}) {
		return true
	}
	prefix := project + "/"
	for _, c := range g.Components {
		if len(c) > len(prefix) && c[:len(prefix)] == prefix {
			return true
		}
	}
	return false
}

// Can tells whether c holds perm on s. Superusers hold every permission.
func (c Caller) Can(perm string, s Scope) bool {
	if c.Superuser {
		return true
	}
	for _, g := range c.Grants {
		if slices.Contains(g.Permissions, perm) && g.covers(s) {
			return true
		}
	}
	return false
}

// Sees tells whether c may see the project: a superuser, or a member of a
// team that selects it. Public and protected projects are seen through the
// built-in Guests, Users and Viewers teams.
func (c Caller) Sees(project string, access int32) bool {
	if c.Superuser {
		return true
	}
	for _, g := range c.Grants {
		if g.sees(project, access) {
			return true
		}
	}
	return false
}

// CanGlobal tells whether c holds a permission that is not scoped to a
// project (adding projects, managing users, teams and roles): only
// superusers do, as the reference's built-in teams grant none.
func (c Caller) CanGlobal(string) bool { return c.Superuser }
