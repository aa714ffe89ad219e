package server_test

import (
	"slices"
	"testing"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"

	"github.com/tmsproject/tms/pkg/dbtest"
	"github.com/tmsproject/tms/pkg/grpctest"
	"github.com/tmsproject/tms/pkg/policy"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/notification/server"
	"github.com/tmsproject/tms/services/notification/store"
)

// TestAccessListsRefuseBadPaging: a negative offset or limit is a field
// error for every caller (it used to panic in the in-memory paging of a
// caller who is not a superuser, answered as an internal error).
func TestAccessListsRefuseBadPaging(t *testing.T) {
	gdb := dbtest.SQLite(t, store.Migrations)
	conn := grpctest.Serve(t, func(srv grpc.ServiceRegistrar) {
		notificationv1.RegisterAccessServiceServer(srv, server.NewAccess(store.New(gdb), nil))
	})
	c := notificationv1.NewAccessServiceClient(conn)
	callers := map[string]policy.Caller{"anonymous": policy.Anonymous, "superuser": policy.NewAccount("admin")}
	admin := callers["superuser"]
	admin.Superuser = true
	callers["superuser"] = admin
	for name, who := range callers {
		ctx := policy.WithCaller(t.Context(), who)
		t.Run(name+"/groups offset", func(t *testing.T) {
			_, err := c.ListGroups(ctx, &notificationv1.ListGroupsRequest{Offset: -1})
			wantErr(t, err, codes.InvalidArgument, "offset", "")
		})
		t.Run(name+"/roles limit", func(t *testing.T) {
			_, err := c.ListRoles(ctx, &notificationv1.ListRolesRequest{Limit: -5})
			wantErr(t, err, codes.InvalidArgument, "limit", "")
		})
	}
}

// TestDeleteProjectTeams: a project's teams go with it, the site-wide
// teams and other projects' stay; no project named is a field error, not
// a delete of every site-wide team; only the site's administrators may.
func TestDeleteProjectTeams(t *testing.T) {
	gdb := dbtest.SQLite(t, store.Migrations)
	conn := grpctest.Serve(t, func(srv grpc.ServiceRegistrar) {
		notificationv1.RegisterAccessServiceServer(srv, server.NewAccess(store.New(gdb), nil))
	})
	c := notificationv1.NewAccessServiceClient(conn)
	teams := func() map[string]bool {
		t.Helper()
		resp, err := c.ListGroups(t.Context(), &notificationv1.ListGroupsRequest{})
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]bool{}
		for _, g := range resp.GetGroups() {
			out[g.GetDefiningProject()+"/"+g.GetName()] = true
		}
		return out
	}
	for _, g := range []*notificationv1.Group{{Name: "Translators", DefiningProject: "p"}, {Name: "Translators", DefiningProject: "q"}, {Name: "Site team"}} {
		if _, err := c.CreateGroup(t.Context(), &notificationv1.CreateGroupRequest{Group: g}); err != nil {
			t.Fatal(err)
		}
	}
	before := teams()
	_, err := c.DeleteProjectTeams(t.Context(), &notificationv1.DeleteProjectTeamsRequest{})
	wantErr(t, err, codes.InvalidArgument, "project", "")
	_, err = c.DeleteProjectTeams(policy.WithCaller(t.Context(), policy.NewAccount("olga")), &notificationv1.DeleteProjectTeamsRequest{Project: "p"})
	wantErr(t, err, codes.PermissionDenied, "", "")
	if after := teams(); len(after) != len(before) {
		t.Fatalf("refused deletes removed teams: %v, before %v", after, before)
	}
	if _, err := c.DeleteProjectTeams(t.Context(), &notificationv1.DeleteProjectTeamsRequest{Project: "p"}); err != nil {
		t.Fatal(err)
	}
	after := teams()
	if after["p/Translators"] || !after["q/Translators"] || !after["/Site team"] || len(after) != len(before)-1 {
		t.Errorf("after deleting p's teams: %v (before %v)", after, before)
	}
}

// TestRenameProjectScopeChecks: only the services and superusers rename,
// and both slugs are required.
func TestRenameProjectScopeChecks(t *testing.T) {
	gdb := dbtest.SQLite(t, store.Migrations)
	conn := grpctest.Serve(t, func(srv grpc.ServiceRegistrar) {
		notificationv1.RegisterAccessServiceServer(srv, server.NewAccess(store.New(gdb), nil))
	})
	c := notificationv1.NewAccessServiceClient(conn)
	admin := policy.Caller{Username: "p-admin", Grants: []policy.Grant{{ProjectSelection: policy.SelectManual, Projects: []string{"p"}, Permissions: policy.Permissions}}}
	_, err := c.RenameProjectScope(policy.WithCaller(t.Context(), admin), &notificationv1.RenameProjectScopeRequest{Project: "p", NewSlug: "q"})
	wantErr(t, err, codes.PermissionDenied, "", "")
	for field, req := range map[string]*notificationv1.RenameProjectScopeRequest{
		"project": {NewSlug: "q"}, "new_slug": {Project: "p", Component: "app"},
	} {
		_, err := c.RenameProjectScope(t.Context(), req)
		wantErr(t, err, codes.InvalidArgument, field, "")
	}
	if _, err := c.RenameProjectScope(policy.WithCaller(t.Context(), policy.Caller{Username: "root", Superuser: true}),
		&notificationv1.RenameProjectScopeRequest{Project: "p", NewSlug: "q"}); err != nil {
		t.Errorf("superuser: %v", err)
	}
}

// TestTeamAdministrators: a team's administrator may add and remove its
// members and administrators (and so becomes a member), and nothing else
// of it; a plain member may change none; an administrator sees the team.
func TestTeamAdministrators(t *testing.T) {
	gdb := dbtest.SQLite(t, store.Migrations)
	st := store.New(gdb)
	for _, name := range []string{"ada", "max", "nia"} {
		if _, err := st.CreateUser(t.Context(), store.User{Username: name, IsActive: true}, nil); err != nil {
			t.Fatal(err)
		}
	}
	conn := grpctest.Serve(t, func(srv grpc.ServiceRegistrar) {
		notificationv1.RegisterAccessServiceServer(srv, server.NewAccess(st, nil))
	})
	c := notificationv1.NewAccessServiceClient(conn)
	created, err := c.CreateGroup(t.Context(), &notificationv1.CreateGroupRequest{Group: &notificationv1.Group{Name: "Reviewers"}})
	if err != nil {
		t.Fatal(err)
	}
	id := created.GetGroup().GetId()
	link := func(who string, kind notificationv1.GroupLink, value string, remove bool) (*notificationv1.Group, error) {
		ctx := t.Context()
		if who != "" {
			ctx = policy.WithCaller(ctx, policy.NewAccount(who))
		}
		resp, lerr := c.ChangeGroupLink(ctx, &notificationv1.ChangeGroupLinkRequest{GroupId: id, Link: kind, Value: value, Remove: remove})
		return resp.GetGroup(), lerr
	}
	const (
		member = notificationv1.GroupLink_GROUP_LINK_MEMBER
		admin  = notificationv1.GroupLink_GROUP_LINK_ADMIN
	)
	// ada, not yet of the team, may neither see nor change it.
	_, err = link("ada", member, "max", false)
	wantErr(t, err, codes.NotFound, "", "")
	g, err := link("", admin, "ada", false)
	if err != nil || !slices.Equal(g.GetAdmins(), []string{"ada"}) || !slices.Equal(g.GetMembers(), []string{"ada"}) {
		t.Fatalf("made ada an administrator: %v %v", g, err)
	}
	if g, err = link("ada", member, "max", false); err != nil || !slices.Equal(g.GetMembers(), []string{"ada", "max"}) {
		t.Errorf("ada adds max: %v %v", g, err)
	}
	if g, err = link("ada", admin, "nia", false); err != nil || !slices.Equal(g.GetAdmins(), []string{"ada", "nia"}) {
		t.Errorf("ada makes nia an administrator: %v %v", g, err)
	}
	_, err = link("ada", notificationv1.GroupLink_GROUP_LINK_ROLE, "1", false)
	wantErr(t, err, codes.PermissionDenied, "", "")
	_, err = link("max", member, "ada", true)
	wantErr(t, err, codes.PermissionDenied, "", "")
	if g, err = link("nia", admin, "ada", true); err != nil || !slices.Equal(g.GetAdmins(), []string{"nia"}) || !slices.Contains(g.GetMembers(), "ada") {
		t.Errorf("nia revokes ada's administration: %v %v", g, err)
	}
	// A member who leaves stops administering.
	if g, err = link("", member, "nia", true); err != nil || len(g.GetAdmins()) != 0 {
		t.Errorf("nia leaves: %v %v", g, err)
	}
	listed, err := c.ListGroups(policy.WithCaller(t.Context(), policy.NewAccount("max")), &notificationv1.ListGroupsRequest{})
	if err != nil || len(listed.GetGroups()) != 1 {
		t.Errorf("max's teams: %v %v", listed, err)
	}
}
