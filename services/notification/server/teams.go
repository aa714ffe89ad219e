package server

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/pagetoken"
	"github.com/tmsproject/tms/pkg/policy"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/notification/store"
)

// manages tells whether the caller of ctx may change the team: superusers
// and the services always, project administrators ("project.permissions")
// the teams their project defines.
func (a *Access) manages(ctx context.Context, t store.Team) (bool, error) {
	if c, system := caller(ctx); system || c.Superuser {
		return true, nil
	}
	if t.DefiningProject == "" || a.projects == nil {
		return false, nil
	}
	err := a.projects.Authorize(ctx, "project.permissions", policy.Scope{Project: t.DefiningProject}, "")
	if errs.Is(err, errs.PermissionDenied) || errs.Is(err, errs.NotFound) {
		return false, nil
	}
	return err == nil, err
}

// sees tells whether the caller may read the team: who manages it, its
// members and its administrators.
func (a *Access) sees(ctx context.Context, t store.Team, me int64) (bool, error) {
	if slices.Contains(t.Members, me) || slices.Contains(t.Admins, me) {
		return true, nil
	}
	return a.manages(ctx, t)
}

// mayChangeLink tells whether the caller may change the link of t: who
// manages the team, and its administrators its members and
// administrators (Weblate's meta:team.users).
func (a *Access) mayChangeLink(ctx context.Context, t store.Team, manages bool, link notificationv1.GroupLink) (bool, error) {
	if manages {
		return true, nil
	}
	if link != notificationv1.GroupLink_GROUP_LINK_MEMBER && link != notificationv1.GroupLink_GROUP_LINK_ADMIN {
		return false, nil
	}
	c, _ := caller(ctx)
	me, ok, err := a.memberID(ctx, c.Username)
	return ok && c.Username != "" && slices.Contains(t.Admins, me), err
}

// ListGroups lists the teams the caller may read.
func (a *Access) ListGroups(ctx context.Context, req *notificationv1.ListGroupsRequest) (*notificationv1.ListGroupsResponse, error) {
	pg, perr := listPage(req)
	if perr != nil {
		return nil, perr // a negative limit must not reach the paging in memory below
	}
	f := store.TeamFilter{DefiningProject: req.GetDefiningProject()}
	if req.GetMember() != "" {
		id, ok, err := a.memberID(ctx, req.GetMember())
		if err != nil || !ok {
			return &notificationv1.ListGroupsResponse{}, err
		}
		f.Member = &id
	}
	if err := requireSite(ctx); err == nil {
		teams, total, err := a.store.ListTeams(ctx, f, int(pg.Offset), int(pg.Limit))
		if err != nil {
			return nil, err
		}
		return a.groupsResponse(ctx, teams, total, pg)
	}
	c, _ := caller(ctx)
	me, _, err := a.memberID(ctx, c.Username)
	if err != nil {
		return nil, err
	}
	all, _, err := a.store.ListTeams(ctx, f, 0, 0)
	if err != nil {
		return nil, err
	}
	var shown []store.Team
	for _, t := range all {
		ok, err := a.sees(ctx, t, me)
		if err != nil {
			return nil, err
		}
		if ok {
			shown = append(shown, t)
		}
	}
	total := int64(len(shown))
	shown = shown[min(int(pg.Offset), len(shown)):]
	if l := int(pg.Limit); l > 0 && l < len(shown) {
		shown = shown[:l]
	}
	return a.groupsResponse(ctx, shown, total, pg)
}

func (a *Access) groupsResponse(ctx context.Context, teams []store.Team, total int64, pg pagetoken.Page) (*notificationv1.ListGroupsResponse, error) {
	out, err := a.groupProtos(ctx, teams)
	if err != nil {
		return nil, err
	}
	return &notificationv1.ListGroupsResponse{Groups: out, Total: total, NextPageToken: pg.Next(total)}, nil
}

// groupProtos converts teams, members by username.
func (a *Access) groupProtos(ctx context.Context, teams []store.Team) ([]*notificationv1.Group, error) {
	var ids []int64
	for _, t := range teams {
		ids = append(append(ids, t.Members...), t.Admins...)
	}
	names, err := a.store.Usernames(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]*notificationv1.Group, len(teams))
	for i, t := range teams {
		g := &notificationv1.Group{Id: t.ID, Name: t.Name, DefiningProject: t.DefiningProject,
			ProjectSelection: t.ProjectSelection, LanguageSelection: t.LanguageSelection, RoleIds: t.Roles,
			Projects: t.Projects, Components: t.Components, Languages: t.Languages}
		for _, m := range t.Members {
			if n, ok := names[m]; ok {
				g.Members = append(g.Members, n)
			}
		}
		for _, m := range t.Admins {
			if n, ok := names[m]; ok {
				g.Admins = append(g.Admins, n)
			}
		}
		g.ComponentListIds = t.ComponentLists
		out[i] = g
	}
	return out, nil
}

// team reads a team the caller may read, and whether it may change it.
func (a *Access) team(ctx context.Context, id int64) (store.Team, bool, error) {
	t, err := a.store.GetTeam(ctx, id)
	if err != nil {
		return store.Team{}, false, err
	}
	manages, err := a.manages(ctx, t)
	if err != nil || manages {
		return t, manages, err
	}
	c, _ := caller(ctx)
	me, _, err := a.memberID(ctx, c.Username)
	if err != nil {
		return store.Team{}, false, err
	}
	if ok, _ := a.sees(ctx, t, me); !ok {
		return store.Team{}, false, errs.NotFoundf("Not found.")
	}
	return t, false, nil
}

func (a *Access) groupResponse(ctx context.Context, id int64) (*notificationv1.Group, error) {
	t, err := a.store.GetTeam(ctx, id)
	if err != nil {
		return nil, err
	}
	out, err := a.groupProtos(ctx, []store.Team{t})
	if err != nil {
		return nil, err
	}
	return out[0], nil
}

// GetGroup reads a team the caller may read.
func (a *Access) GetGroup(ctx context.Context, req *notificationv1.GetGroupRequest) (*notificationv1.GetGroupResponse, error) {
	if _, _, err := a.team(ctx, req.GetId()); err != nil {
		return nil, err
	}
	g, err := a.groupResponse(ctx, req.GetId())
	return &notificationv1.GetGroupResponse{Group: g}, err
}

// checkTeam validates name and selections; a project's own team selects
// only its project.
func checkTeam(t store.Team) error {
	var v errs.Violations
	if strings.TrimSpace(t.Name) == "" {
		v.Add("name", "blank", "This field may not be blank.")
	} else if len(t.Name) > 150 {
		v.Add("name", "max_length", "Ensure this field has no more than 150 characters.")
	}
	if t.ProjectSelection < 0 || t.ProjectSelection > policy.SelectAllProtected {
		v.Add("project_selection", "invalid_choice", "\""+strconv.Itoa(int(t.ProjectSelection))+"\" is not a valid choice.")
	} else if t.DefiningProject != "" && t.ProjectSelection != policy.SelectManual {
		v.Add("project_selection", "invalid", "A project's own team applies to that project only.")
	}
	if t.LanguageSelection != policy.LanguagesManual && t.LanguageSelection != policy.LanguagesAll {
		v.Add("language_selection", "invalid_choice", "\""+strconv.Itoa(int(t.LanguageSelection))+"\" is not a valid choice.")
	}
	return v.Err()
}

// CreateGroup adds a team: a site-wide one (superusers) or one of a
// project (its administrators), which then selects that project.
func (a *Access) CreateGroup(ctx context.Context, req *notificationv1.CreateGroupRequest) (*notificationv1.CreateGroupResponse, error) {
	g := req.GetGroup()
	t := store.Team{Name: g.GetName(), DefiningProject: g.GetDefiningProject(),
		ProjectSelection: g.GetProjectSelection(), LanguageSelection: g.GetLanguageSelection()}
	if ok, err := a.manages(ctx, t); err != nil || !ok {
		return nil, orDenied(err)
	}
	if err := checkTeam(t); err != nil {
		return nil, err
	}
	t, err := a.store.SaveTeam(ctx, t)
	if err != nil {
		return nil, err
	}
	if t.DefiningProject != "" {
		if err = a.store.Link(ctx, t.ID, store.LinkProject, t.DefiningProject); err != nil {
			return nil, err
		}
	}
	out, err := a.groupResponse(ctx, t.ID)
	return &notificationv1.CreateGroupResponse{Group: out}, err
}

func orDenied(err error) error {
	if err != nil {
		return err
	}
	return denied()
}

// UpdateGroup changes name and selections of a team its caller manages.
func (a *Access) UpdateGroup(ctx context.Context, req *notificationv1.UpdateGroupRequest) (*notificationv1.UpdateGroupResponse, error) {
	t, manages, err := a.team(ctx, req.GetGroup().GetId())
	if err != nil || !manages {
		return nil, orDenied(err)
	}
	g := req.GetGroup()
	for _, f := range req.GetUpdateMask().GetPaths() {
		switch f {
		case "name":
			t.Name = g.GetName()
		case "project_selection":
			t.ProjectSelection = g.GetProjectSelection()
		case "language_selection":
			t.LanguageSelection = g.GetLanguageSelection()
		default:
			return nil, errs.Invalid(f, "invalid", "Unknown field.")
		}
	}
	if err = checkTeam(t); err != nil {
		return nil, err
	}
	if _, err = a.store.SaveTeam(ctx, t); err != nil {
		return nil, err
	}
	out, err := a.groupResponse(ctx, t.ID)
	return &notificationv1.UpdateGroupResponse{Group: out}, err
}

// DeleteGroup removes a team its caller manages.
func (a *Access) DeleteGroup(ctx context.Context, req *notificationv1.DeleteGroupRequest) (*notificationv1.DeleteGroupResponse, error) {
	_, manages, err := a.team(ctx, req.GetId())
	if err != nil || !manages {
		return nil, orDenied(err)
	}
	return &notificationv1.DeleteGroupResponse{}, a.store.DeleteTeam(ctx, req.GetId())
}

// ChangeGroupLink adds or removes a role, project, component, language,
// member or administrator of a team its caller manages, or a member or
// administrator of a team its caller administers.
func (a *Access) ChangeGroupLink(ctx context.Context, req *notificationv1.ChangeGroupLinkRequest) (*notificationv1.ChangeGroupLinkResponse, error) {
	t, manages, err := a.team(ctx, req.GetGroupId())
	if err != nil {
		return nil, err
	}
	may, err := a.mayChangeLink(ctx, t, manages, req.GetLink())
	if err != nil || !may {
		return nil, orDenied(err)
	}
	kind, value, err := a.linkValue(ctx, t, req)
	if err != nil {
		return nil, err
	}
	if req.GetRemove() {
		err = a.store.Unlink(ctx, t.ID, kind, value)
	} else {
		err = a.store.Link(ctx, t.ID, kind, value)
	}
	if err != nil {
		return nil, err
	}
	out, err := a.groupResponse(ctx, t.ID)
	return &notificationv1.ChangeGroupLinkResponse{Group: out}, err
}

// linkValue checks a link and gives its stored form.
func (a *Access) linkValue(ctx context.Context, t store.Team, req *notificationv1.ChangeGroupLinkRequest) (int, string, error) {
	v := req.GetValue()
	own := func(field string) error {
		if t.DefiningProject != "" && v != t.DefiningProject && !strings.HasPrefix(v, t.DefiningProject+"/") {
			return errs.Invalid(field, "invalid", "A project's own team applies to that project only.")
		}
		return nil
	}
	switch req.GetLink() {
	case notificationv1.GroupLink_GROUP_LINK_ROLE:
		id, err := strconv.ParseInt(v, 10, 64)
		if err == nil {
			_, err = a.store.GetRole(ctx, id)
		}
		if err != nil {
			return 0, "", errs.Invalid("role_id", "does_not_exist", "Invalid pk \""+v+"\" - object does not exist.")
		}
		return store.LinkRole, strconv.FormatInt(id, 10), nil
	case notificationv1.GroupLink_GROUP_LINK_PROJECT:
		return store.LinkProject, v, own("project_id")
	case notificationv1.GroupLink_GROUP_LINK_COMPONENT:
		return store.LinkComponent, v, own("component_id")
	case notificationv1.GroupLink_GROUP_LINK_LANGUAGE:
		return store.LinkLanguage, v, nil
	case notificationv1.GroupLink_GROUP_LINK_MEMBER, notificationv1.GroupLink_GROUP_LINK_ADMIN:
		id, ok, err := a.memberID(ctx, v)
		if err == nil && (!ok || v == "") {
			err = errs.Invalid("user_id", "does_not_exist", "Invalid pk \""+v+"\" - object does not exist.")
		}
		kind := store.LinkMember
		if req.GetLink() == notificationv1.GroupLink_GROUP_LINK_ADMIN {
			kind = store.LinkAdmin
		}
		return kind, strconv.FormatInt(id, 10), err
	case notificationv1.GroupLink_GROUP_LINK_COMPONENT_LIST:
		return a.componentListLink(t, v)
	}
	return 0, "", errs.Invalid("link", "invalid", "Unknown link.")
}

// componentListLink checks a component list link as the reference does:
// not on a project's own team, and to a list's id.
func (a *Access) componentListLink(t store.Team, v string) (int, string, error) {
	const field = "component_list_id"
	if t.DefiningProject != "" {
		return 0, "", errs.Invalid(field, "invalid", "Cannot change component lists on a scoped team.")
	}
	id, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, "", errs.Invalid(field, "invalid", "A valid integer is required.")
	}
	if id <= 0 {
		return 0, "", errs.Invalid(field, "does_not_exist", "Component list not found.")
	}
	// The list itself may not have reached this service yet (the catalog's
	// events are delivered after its writes): the caller checked it
	// exists, and the team acts on its components once it arrives.
	return store.LinkComponentList, strconv.FormatInt(id, 10), nil
}
