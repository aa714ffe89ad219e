package rest

import (
	"github.com/tmsproject/tms/pkg/policy"
)

// inTranslation is an object of a translation: a unit, suggestion or comment.
type inTranslation interface {
	GetProjectSlug() string
	GetComponentSlug() string
	GetLanguageCode() string
}

// authorize admits a caller holding perm on s (policy.Caller.Can, with the
// project's access level looked up here). Writes of the anonymous caller
// are 401, of others 403 with reason; the project must be visible, which
// the route checked first (404).
func (c *call) authorize(perm string, s policy.Scope, reason string) error {
	if c.user == nil {
		return notAuthenticated()
	}
	p, err := c.project(s.Project)
	if err != nil {
		return err
	}
	s.Access = policy.Level(p.GetAccessControl())
	if c.caller.Can(perm, s) {
		return nil
	}
	return permissionDenied(reason)
}

// authorizeOn is authorize on the translation of x.
func (c *call) authorizeOn(perm string, x inTranslation, reason string) error {
	return c.authorize(perm, policy.Scope{Project: x.GetProjectSlug(), Component: x.GetComponentSlug(),
		Language: x.GetLanguageCode()}, reason)
}

// authorizePath is authorize on what the path names: its project, and its
// component and language when it has them.
func (c *call) authorizePath(perm string) error {
	return c.authorize(perm, policy.Scope{Project: c.param("project"), Component: c.param("component"),
		Language: c.param("language")}, "")
}

// authorizeAll is authorize on each component of a project.
func (c *call) authorizeProject(perm string) error {
	return c.authorize(perm, policy.Scope{Project: c.param("project")}, "")
}
