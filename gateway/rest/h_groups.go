package rest

import (
	"errors"
	"net/http"
	"strconv"
	"strings"

	"github.com/tmsproject/tms/pkg/errs"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
)

// Teams (the reference's groups) and roles: the access service decides
// who may read and change them; these handlers map the reference's routes
// and shapes onto it.

type roleJSON struct {
	ID          int64    `json:"id"`
	Name        string   `json:"name"`
	Permissions []string `json:"permissions"`
	URL         string   `json:"url"`
}

func (c *call) roleJSON(r *notificationv1.Role) *roleJSON {
	return &roleJSON{ID: r.GetId(), Name: r.GetName(), Permissions: nonNil(r.GetPermissions()),
		URL: c.urls.API("roles", strconv.FormatInt(r.GetId(), 10))}
}

type groupJSON struct {
	ID                int64    `json:"id"`
	Name              string   `json:"name"`
	DefiningProject   *string  `json:"defining_project"`
	ProjectSelection  int32    `json:"project_selection"`
	LanguageSelection int32    `json:"language_selection"`
	URL               string   `json:"url"`
	Roles             []string `json:"roles"`
	Languages         []string `json:"languages"`
	Projects          []string `json:"projects"`
	Componentlists    []string `json:"componentlists"`
	Components        []string `json:"components"`
	Admins            []string `json:"admins" doc:"The URLs of the team's administrators, who may add and remove its members."`
}

func (c *call) groupJSON(g *notificationv1.Group) *groupJSON {
	j := &groupJSON{ID: g.GetId(), Name: g.GetName(), ProjectSelection: g.GetProjectSelection(),
		LanguageSelection: g.GetLanguageSelection(), URL: c.urls.API("groups", strconv.FormatInt(g.GetId(), 10)),
		Roles: []string{}, Languages: []string{}, Projects: []string{}, Componentlists: []string{}, Components: []string{},
		Admins: []string{}}
	if p := g.GetDefiningProject(); p != "" {
		u := c.urls.API("projects", p)
		j.DefiningProject = &u
	}
	for _, id := range g.GetRoleIds() {
		j.Roles = append(j.Roles, c.urls.API("roles", strconv.FormatInt(id, 10)))
	}
	for _, l := range g.GetLanguages() {
		j.Languages = append(j.Languages, c.urls.API("languages", l))
	}
	for _, p := range g.GetProjects() {
		j.Projects = append(j.Projects, c.urls.API("projects", p))
	}
	for _, comp := range g.GetComponents() {
		j.Components = append(j.Components, c.urls.API("components", comp))
	}
	for _, u := range g.GetAdmins() {
		j.Admins = append(j.Admins, c.urls.API("users", u))
	}
	if ids := g.GetComponentListIds(); len(ids) > 0 {
		slugs, err := c.componentListSlugs()
		if err != nil {
			c.g.log.Warn("component lists of a team", "err", err)
		}
		for _, id := range ids {
			if slug, ok := slugs[id]; ok {
				j.Componentlists = append(j.Componentlists, c.urls.API("component-lists", slug))
			}
		}
	}
	return j
}

func (g *gateway) listRoles(c *call) error {
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Access.ListRoles(c.ctx, &notificationv1.ListRolesRequest{Offset: saturate32(offset), Limit: saturate32(limit)})
		return pageRows(resp.GetRoles(), resp.GetTotal(), err, always(c.roleJSON))
	})
}

func (g *gateway) getRole(c *call) error {
	n, err := c.pathID()
	if err != nil {
		return err
	}
	resp, err := g.cfg.Access.GetRole(c.ctx, &notificationv1.GetRoleRequest{Id: n})
	if err != nil {
		return err
	}
	return c.ok(c.roleJSON(resp.GetRole()))
}

// roleBody reads name and permissions; PUT needs both.
func (c *call) roleBody() (*notificationv1.Role, []string, error) {
	b, err := c.readBody()
	if err != nil {
		return nil, nil, err
	}
	if c.r.Method != "PATCH" {
		b.required("name", "permissions")
	}
	r, fields := &notificationv1.Role{}, []string{}
	if s, ok := b.str("name"); ok {
		r.Name, fields = s, append(fields, "name")
	}
	if l, ok := b.strList("permissions"); ok {
		r.Permissions, fields = l, append(fields, "permissions")
	}
	return r, fields, b.err()
}

func (g *gateway) createRole(c *call) error {
	if err := c.requireUser(); err != nil {
		return err
	}
	r, _, err := c.roleBody()
	if err != nil {
		return err
	}
	resp, err := g.cfg.Access.CreateRole(c.ctx, &notificationv1.CreateRoleRequest{Role: r})
	if err != nil {
		return err
	}
	j := c.roleJSON(resp.GetRole())
	return c.created(j.URL, j)
}

func (g *gateway) updateRole(c *call) error {
	n, err := c.accessWrite()
	if err != nil {
		return err
	}
	r, fields, err := c.roleBody()
	if err != nil {
		return err
	}
	r.Id = n
	resp, err := g.cfg.Access.UpdateRole(c.ctx, &notificationv1.UpdateRoleRequest{Role: r, UpdateMask: mask(fields)})
	if err != nil {
		return err
	}
	return c.ok(c.roleJSON(resp.GetRole()))
}

func (g *gateway) deleteRole(c *call) error {
	n, err := c.accessWrite()
	if err != nil {
		return err
	}
	if _, err := g.cfg.Access.DeleteRole(c.ctx, &notificationv1.DeleteRoleRequest{Id: n}); err != nil {
		return err
	}
	return c.noContent()
}

// accessWrite is the {id} of a write on a team or role: an unknown id is
// 404, the anonymous caller 401.
func (c *call) accessWrite() (int64, error) {
	n, err := c.pathID()
	if err != nil {
		return 0, err
	}
	return n, c.requireUser()
}

func (g *gateway) listGroups(c *call) error {
	return c.servicePage(func(offset, limit int64) (any, int64, error) {
		resp, err := g.cfg.Access.ListGroups(c.ctx, &notificationv1.ListGroupsRequest{Offset: saturate32(offset), Limit: saturate32(limit)})
		return pageRows(resp.GetGroups(), resp.GetTotal(), err, always(c.groupJSON))
	})
}

func (g *gateway) getGroup(c *call) error {
	n, err := c.pathID()
	if err != nil {
		return err
	}
	resp, err := g.cfg.Access.GetGroup(c.ctx, &notificationv1.GetGroupRequest{Id: n})
	if err != nil {
		return err
	}
	return c.ok(c.groupJSON(resp.GetGroup()))
}

// groupBody reads name, selections and (on creation) defining_project, a
// project slug or its API URL. Selections default to "listed" as in the
// reference.
func (c *call) groupBody(create bool) (*notificationv1.Group, []string, error) {
	b, err := c.readBody()
	if err != nil {
		return nil, nil, err
	}
	if c.r.Method != "PATCH" {
		b.required("name")
	}
	grp, fields := &notificationv1.Group{}, []string{}
	if s, ok := b.str("name"); ok {
		grp.Name, fields = s, append(fields, "name")
	}
	if v, ok := b.int32("project_selection"); ok {
		grp.ProjectSelection, fields = v, append(fields, "project_selection")
	}
	if v, ok := b.int32("language_selection"); ok {
		grp.LanguageSelection, fields = v, append(fields, "language_selection")
	}
	if v, ok := b.fields["defining_project"]; ok && create && v != nil {
		if s, ok := b.str("defining_project"); ok && s != "" {
			grp.DefiningProject = lastSegment(s)
		}
	}
	return grp, fields, b.err()
}

func (g *gateway) createGroup(c *call) error {
	if err := c.requireUser(); err != nil {
		return err
	}
	grp, _, err := c.groupBody(true)
	if err != nil {
		return err
	}
	if p := grp.GetDefiningProject(); p != "" {
		if _, err = c.project(p); err != nil {
			return err
		}
	}
	resp, err := g.cfg.Access.CreateGroup(c.ctx, &notificationv1.CreateGroupRequest{Group: grp})
	if err != nil {
		return err
	}
	j := c.groupJSON(resp.GetGroup())
	return c.created(j.URL, j)
}

func (g *gateway) updateGroup(c *call) error {
	n, err := c.accessWrite()
	if err != nil {
		return err
	}
	grp, fields, err := c.groupBody(false)
	if err != nil {
		return err
	}
	grp.Id = n
	resp, err := g.cfg.Access.UpdateGroup(c.ctx, &notificationv1.UpdateGroupRequest{Group: grp, UpdateMask: mask(fields)})
	if err != nil {
		return err
	}
	return c.ok(c.groupJSON(resp.GetGroup()))
}

func (g *gateway) deleteGroup(c *call) error {
	n, err := c.accessWrite()
	if err != nil {
		return err
	}
	if _, err := g.cfg.Access.DeleteGroup(c.ctx, &notificationv1.DeleteGroupRequest{Id: n}); err != nil {
		return err
	}
	return c.noContent()
}

// groupLink describes one kind of link of a team: its form field and how
// a posted or path value becomes the stored one.
type groupLink struct {
	link    notificationv1.GroupLink
	field   string
	resolve func(c *call, v string) (string, error)
}

var groupLinks = map[string]groupLink{
	"roles":          {notificationv1.GroupLink_GROUP_LINK_ROLE, "role_id", nil},
	"projects":       {notificationv1.GroupLink_GROUP_LINK_PROJECT, "project_id", (*call).projectByID},
	"components":     {notificationv1.GroupLink_GROUP_LINK_COMPONENT, "component_id", (*call).componentByID},
	"languages":      {notificationv1.GroupLink_GROUP_LINK_LANGUAGE, "language_code", (*call).languageByCode},
	"componentlists": {notificationv1.GroupLink_GROUP_LINK_COMPONENT_LIST, "component_list_id", (*call).componentListByID},
}

// changeGroupLink adds (POST .../<kind>/ with the kind's field) or removes
// (DELETE .../<kind>/<value>/) a link of a team.
func (g *gateway) changeGroupLink(kind string) handlerFunc {
	gl := groupLinks[kind]
	return func(c *call) error {
		n, err := c.accessWrite()
		if err != nil {
			return err
		}
		value, remove := c.param("value"), c.r.Method == "DELETE"
		if !remove {
			if value, err = c.formValue(gl.field); err != nil {
				return err
			}
		}
		if gl.resolve != nil {
			if value, err = gl.resolve(c, value); err != nil {
				return err
			}
		}
		resp, err := g.cfg.Access.ChangeGroupLink(c.ctx, &notificationv1.ChangeGroupLinkRequest{
			GroupId: n, Link: gl.link, Value: value, Remove: remove})
		if err != nil {
			return err
		}
		if remove {
			return c.noContent() // as Weblate 2026.8 answers
		}
		return c.ok(c.groupJSON(resp.GetGroup()))
	}
}

// componentListByID checks that a component list of that id exists (the
// catalog is its owner; the access service learns of it by events) and
// gives the id. Removing a link needs no list: it may be gone.
func (c *call) componentListByID(v string) (string, error) {
	const field = "component_list_id"
	if !c.superuser() {
		// Only the site's team managers change lists (a project's own
		// team takes none, a team administrator changes members only);
		// others learn nothing of the lists.
		return "", permissionDenied("")
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return "", fieldErrors(errs.Violations{{Field: field, Code: "invalid", Description: "A valid integer is required."}})
	}
	if c.r.Method == "DELETE" {
		return v, nil
	}
	slugs, err := c.componentListSlugs()
	if err != nil {
		return "", err
	}
	if _, ok := slugs[id]; !ok {
		return "", fieldErrors(errs.Violations{{Field: field, Code: "does_not_exist", Description: "Component list not found."}})
	}
	return v, nil
}

// formValue reads one required field (numbers as their text).
func (c *call) formValue(field string) (string, error) {
	b, err := c.readBody()
	if err != nil {
		return "", err
	}
	b.required(field)
	v, _ := b.str(field)
	return v, b.err()
}

// lastSegment is a slug given as itself or as its API URL.
func lastSegment(v string) string {
	v = strings.TrimRight(v, "/")
	return v[strings.LastIndex(v, "/")+1:]
}

// projectByID resolves a visible project's id (or slug) to its slug.
func (c *call) projectByID(v string) (string, error) {
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		p, err := c.project(v)
		return p.GetSlug(), invalidPK("project_id", v, err)
	}
	for offset := int64(0); ; offset += 1000 {
		resp, err := c.g.cfg.Catalog.ListProjects(c.ctx, &catalogv1.ListProjectsRequest{Offset: offset, Limit: 1000})
		if err != nil {
			return "", err
		}
		for _, p := range resp.GetProjects() {
			if p.GetId() == id {
				return p.GetSlug(), nil
			}
		}
		if len(resp.GetProjects()) < 1000 {
			return "", invalidPK("project_id", v, notFound())
		}
	}
}

// componentByID resolves a visible component's id to "project/component".
func (c *call) componentByID(v string) (string, error) {
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return "", invalidPK("component_id", v, err)
	}
	resp, err := c.g.cfg.Catalog.GetComponent(c.ctx, &catalogv1.GetComponentRequest{Id: id})
	if err == nil && !c.visibleSlug(resp.GetComponent().GetProjectSlug()) {
		err = notFound()
	}
	if err != nil {
		return "", invalidPK("component_id", v, err)
	}
	return resp.GetComponent().GetProjectSlug() + "/" + resp.GetComponent().GetSlug(), nil
}

func (c *call) visibleSlug(project string) bool {
	_, err := c.project(project)
	return err == nil
}

func (c *call) languageByCode(v string) (string, error) {
	l, err := c.language(v)
	if err != nil {
		return "", invalidPK("language_code", v, err)
	}
	return l.GetCode(), nil
}

// invalidPK is the reference's answer to a link to nothing: 400 on the
// field, when err is a NotFound; other failures pass.
func invalidPK(field, v string, err error) error {
	if err == nil {
		return nil
	}
	e, isAPI := errors.AsType[*apiError](err)
	if isAPI && e.status != http.StatusNotFound {
		return err
	}
	if !isAPI && !errs.Is(errs.FromStatus(err), errs.NotFound) && !errors.Is(err, strconv.ErrSyntax) {
		return err
	}
	b := &body{}
	b.errs.Add(field, "does_not_exist", "Invalid pk \""+v+"\" - object does not exist.")
	return b.err()
}

// userGroups adds the user of the path to the team group_id (POST) or
// removes it (DELETE), and answers the user, as the reference does.
func (g *gateway) userGroups(c *call) error {
	if err := c.requireUser(); err != nil {
		return err
	}
	user, err := g.cfg.Notification.GetUser(c.ctx, &notificationv1.GetUserRequest{Username: c.param("user")})
	if err != nil {
		return err
	}
	v, err := c.formValue("group_id")
	if err != nil {
		return err
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return invalidPK("group_id", v, err)
	}
	_, err = g.cfg.Access.ChangeGroupLink(c.ctx, &notificationv1.ChangeGroupLinkRequest{GroupId: n,
		Link: notificationv1.GroupLink_GROUP_LINK_MEMBER, Value: user.GetUser().GetUsername(), Remove: c.r.Method == "DELETE"})
	if err != nil && errs.Is(errs.FromStatus(err), errs.NotFound) {
		return invalidPK("group_id", v, err)
	}
	if err != nil {
		return err
	}
	resp, err := g.cfg.Notification.GetUser(c.ctx, &notificationv1.GetUserRequest{Username: user.GetUser().GetUsername()})
	if err != nil {
		return err
	}
	return c.okUser(resp.GetUser())
}
