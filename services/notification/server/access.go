package server

import (
	"context"
	"slices"
	"strings"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/notification/store"
)

// AccessStore is what the access server needs from storage.
type AccessStore interface {
	ListRoles(ctx context.Context, ids []int64, offset, limit int) ([]store.Role, int64, error)
	GetRole(ctx context.Context, id int64) (store.Role, error)
	SaveRole(ctx context.Context, r store.Role) (store.Role, error)
	DeleteRole(ctx context.Context, id int64) error
	ListTeams(ctx context.Context, f store.TeamFilter, offset, limit int) ([]store.Team, int64, error)
	GetTeam(ctx context.Context, id int64) (store.Team, error)
	SaveTeam(ctx context.Context, t store.Team) (store.Team, error)
	DeleteTeam(ctx context.Context, id int64) error
	Link(ctx context.Context, teamID int64, kind int, value string) error
	Unlink(ctx context.Context, teamID int64, kind int, value string) error
	Grants(ctx context.Context, memberID int64) ([]policy.Grant, error)
	SetupProjectTeams(ctx context.Context, project string, creatorID *int64) error
	DeleteProjectTeams(ctx context.Context, project string) error
	RenameProject(ctx context.Context, project, newSlug string) error
	RenameComponent(ctx context.Context, project, component, newSlug string) error
	ApplyProjectEvent(ctx context.Context, ev store.ProjectEvent) (bool, error)
	MemberIDs(ctx context.Context, usernames []string) (map[string]int64, error)
	Usernames(ctx context.Context, ids []int64) (map[int64]string, error)
	AccessVersion(ctx context.Context) (int64, error)
}

// Access implements notificationv1.AccessServiceServer: teams and roles,
// and the grants every service's policy evaluates.
type Access struct {
	notificationv1.UnimplementedAccessServiceServer
	store    AccessStore
	projects *policy.Projects // access levels, for project administrators
}

// NewAccess returns the access server on st; projects (nil: none) lets
// project administrators manage their projects' teams.
func NewAccess(st AccessStore, projects *policy.Projects) *Access {
	return &Access{store: st, projects: projects}
}

// caller is the acting caller of ctx; system is true for the services'
// own calls, which every rule admits.
func caller(ctx context.Context) (c policy.Caller, system bool) {
	c, ok := policy.FromContext(ctx)
	return c, !ok
}

func denied() error {
	return errs.New(errs.PermissionDenied, "You do not have permission to perform this action.")
}

// requireSite admits superusers and the services' own calls.
func requireSite(ctx context.Context) error {
	if c, system := caller(ctx); system || c.Superuser {
		return nil
	}
	return denied()
}

// memberID is the account id of the caller (the anonymous account for the
// caller without one).
func (a *Access) memberID(ctx context.Context, username string) (int64, bool, error) {
	if username == "" {
		username = store.AnonymousName
	}
	ids, err := a.store.MemberIDs(ctx, []string{username})
	if err != nil {
		return 0, false, err
	}
	id, ok := ids[username]
	return id, ok, nil
}

// GetGrants returns the grants of an account: to the services, superusers
// and the account itself.
func (a *Access) GetGrants(ctx context.Context, req *notificationv1.GetGrantsRequest) (*notificationv1.GetGrantsResponse, error) {
	if c, system := caller(ctx); !system && !c.Superuser && c.Username != req.GetUsername() {
		return nil, denied()
	}
	id, ok, err := a.memberID(ctx, req.GetUsername())
	if err != nil || !ok {
		return &notificationv1.GetGrantsResponse{}, err
	}
	grants, err := a.store.Grants(ctx, id)
	if err != nil {
		return nil, err
	}
	return &notificationv1.GetGrantsResponse{Grants: policy.GrantsToProto(grants)}, nil
}

// GetAccessVersion answers the access version, to the services and
// superusers.
func (a *Access) GetAccessVersion(ctx context.Context, _ *notificationv1.GetAccessVersionRequest) (*notificationv1.GetAccessVersionResponse, error) {
	if err := requireSite(ctx); err != nil {
		return nil, err
	}
	v, err := a.store.AccessVersion(ctx)
	if err != nil {
		return nil, err
	}
	return &notificationv1.GetAccessVersionResponse{Version: v}, nil
}

// SetupProjectTeams creates a project's own teams (services and
// superusers).
func (a *Access) SetupProjectTeams(ctx context.Context, req *notificationv1.SetupProjectTeamsRequest) (*notificationv1.SetupProjectTeamsResponse, error) {
	if err := requireSite(ctx); err != nil {
		return nil, err
	}
	if req.GetProject() == "" {
		return nil, errs.Invalid("project", "required", "This field is required.")
	}
	var creator *int64
	if req.GetCreator() != "" {
		id, ok, err := a.memberID(ctx, req.GetCreator())
		if err != nil {
			return nil, err
		}
		if ok {
			creator = &id
		}
	}
	return &notificationv1.SetupProjectTeamsResponse{}, a.store.SetupProjectTeams(ctx, req.GetProject(), creator)
}

// DeleteProjectTeams drops a deleted project from every team (services
// and superusers).
func (a *Access) DeleteProjectTeams(ctx context.Context, req *notificationv1.DeleteProjectTeamsRequest) (*notificationv1.DeleteProjectTeamsResponse, error) {
	if err := requireSite(ctx); err != nil {
		return nil, err
	}
	if req.GetProject() == "" { // the site-wide teams have no project: they are not a project's to delete
		var v errs.Violations
		v.Add("project", "required", "This field is required.")
		return nil, v.Err()
	}
	return &notificationv1.DeleteProjectTeamsResponse{}, a.store.DeleteProjectTeams(ctx, req.GetProject())
}

// RenameProjectScope files what the service keeps of a renamed project or
// component under its new slug (services and superusers only).
func (a *Access) RenameProjectScope(ctx context.Context, req *notificationv1.RenameProjectScopeRequest) (*notificationv1.RenameProjectScopeResponse, error) {
	if err := requireSite(ctx); err != nil {
		return nil, err
	}
	var v errs.Violations
	for _, f := range [][2]string{{"project", req.GetProject()}, {"new_slug", req.GetNewSlug()}} {
		if f[1] == "" {
			v.Add(f[0], "required", "This field is required.")
		}
	}
	if err := v.Err(); err != nil {
		return nil, err
	}
	var err error
	if req.GetComponent() == "" {
		err = a.store.RenameProject(ctx, req.GetProject(), req.GetNewSlug())
	} else {
		err = a.store.RenameComponent(ctx, req.GetProject(), req.GetComponent(), req.GetNewSlug())
	}
	return &notificationv1.RenameProjectScopeResponse{}, err
}

// ListRoles lists every role to superusers, else the roles of the
// caller's teams.
func (a *Access) ListRoles(ctx context.Context, req *notificationv1.ListRolesRequest) (*notificationv1.ListRolesResponse, error) {
	pg, err := listPage(req)
	if err != nil {
		return nil, err
	}
	ids, err := a.visibleRoles(ctx)
	if err != nil {
		return nil, err
	}
	roles, total, err := a.store.ListRoles(ctx, ids, int(pg.Offset), int(pg.Limit))
	if err != nil {
		return nil, err
	}
	out := make([]*notificationv1.Role, len(roles))
	for i, r := range roles {
		out[i] = roleProto(r)
	}
	return &notificationv1.ListRolesResponse{Roles: out, Total: total, NextPageToken: pg.Next(total)}, nil
}

// visibleRoles is nil (all) for superusers, else the role ids of the
// caller's teams.
func (a *Access) visibleRoles(ctx context.Context) ([]int64, error) {
	c, system := caller(ctx)
	if system || c.Superuser {
		return nil, nil
	}
	id, ok, err := a.memberID(ctx, c.Username)
	if err != nil || !ok {
		return []int64{}, err
	}
	teams, _, err := a.store.ListTeams(ctx, store.TeamFilter{Member: &id}, 0, 0)
	if err != nil {
		return nil, err
	}
	ids := []int64{}
	for _, t := range teams {
		ids = append(ids, t.Roles...)
	}
	return ids, nil
}

// GetRole reads a role the caller may see.
func (a *Access) GetRole(ctx context.Context, req *notificationv1.GetRoleRequest) (*notificationv1.GetRoleResponse, error) {
	ids, err := a.visibleRoles(ctx)
	if err != nil {
		return nil, err
	}
	if ids != nil && !slices.Contains(ids, req.GetId()) {
		return nil, errs.NotFoundf("Not found.")
	}
	r, err := a.store.GetRole(ctx, req.GetId())
	if err != nil {
		return nil, err
	}
	return &notificationv1.GetRoleResponse{Role: roleProto(r)}, nil
}

func roleProto(r store.Role) *notificationv1.Role {
	return &notificationv1.Role{Id: r.ID, Name: r.Name, Permissions: r.Permissions}
}

// checkRole validates a role's name and permissions.
func checkRole(r *notificationv1.Role) error {
	var v errs.Violations
	if strings.TrimSpace(r.GetName()) == "" {
		v.Add("name", "blank", "This field may not be blank.")
	} else if len(r.GetName()) > 200 {
		v.Add("name", "max_length", "Ensure this field has no more than 200 characters.")
	}
	for _, p := range r.GetPermissions() {
		if !policy.IsPermission(p) {
			v.Add("permissions", "does_not_exist", "Object with codename="+p+" does not exist.")
		}
	}
	return v.Err()
}

// CreateRole adds a role (superusers).
func (a *Access) CreateRole(ctx context.Context, req *notificationv1.CreateRoleRequest) (*notificationv1.CreateRoleResponse, error) {
	if err := requireSite(ctx); err != nil {
		return nil, err
	}
	if err := checkRole(req.GetRole()); err != nil {
		return nil, err
	}
	r, err := a.store.SaveRole(ctx, store.Role{Name: req.GetRole().GetName(), Permissions: req.GetRole().GetPermissions()})
	if err != nil {
		return nil, err
	}
	return &notificationv1.CreateRoleResponse{Role: roleProto(r)}, nil
}

// UpdateRole changes a role (superusers).
func (a *Access) UpdateRole(ctx context.Context, req *notificationv1.UpdateRoleRequest) (*notificationv1.UpdateRoleResponse, error) {
	if err := requireSite(ctx); err != nil {
		return nil, err
	}
	r, err := a.store.GetRole(ctx, req.GetRole().GetId())
	if err != nil {
		return nil, err
	}
	for _, f := range req.GetUpdateMask().GetPaths() {
		switch f {
		case "name":
			r.Name = req.GetRole().GetName()
		case "permissions":
			r.Permissions = req.GetRole().GetPermissions()
		default:
			return nil, errs.Invalid(f, "invalid", "Unknown field.")
		}
	}
	if err = checkRole(roleProto(r)); err != nil {
		return nil, err
	}
	if r, err = a.store.SaveRole(ctx, r); err != nil {
		return nil, err
	}
	return &notificationv1.UpdateRoleResponse{Role: roleProto(r)}, nil
}

// DeleteRole removes a role (superusers).
func (a *Access) DeleteRole(ctx context.Context, req *notificationv1.DeleteRoleRequest) (*notificationv1.DeleteRoleResponse, error) {
	if err := requireSite(ctx); err != nil {
		return nil, err
	}
	return &notificationv1.DeleteRoleResponse{}, a.store.DeleteRole(ctx, req.GetId())
}
