package store_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/tmsproject/tms/pkg/errs"
	"github.com/tmsproject/tms/pkg/policy"
	"github.com/tmsproject/tms/pkg/weblate"
	"github.com/tmsproject/tms/services/notification/store"
)

// user creates an account and returns its id.
func user(t *testing.T, s *store.Store, name string) int64 {
	t.Helper()
	u, err := s.CreateUser(t.Context(), store.User{Username: name, IsActive: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return u.ID
}

func testBuiltinTeams(t *testing.T, s *store.Store) {
	ctx := t.Context()
	early := user(t, s, "early") // before the teams: joins when they are made
	anon, _, err := s.EnsureUser(ctx, store.User{Username: store.AnonymousName}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 { // idempotent
		if err = s.EnsureBuiltins(ctx); err != nil {
			t.Fatal(err)
		}
	}
	late := user(t, s, "late")
	for _, c := range []struct {
		id   int64
		want []policy.Grant
	}{{anon.ID, policy.DefaultGrants(true)}, {early, policy.DefaultGrants(false)}, {late, policy.DefaultGrants(false)}} {
		got, gerr := s.Grants(ctx, c.id)
		if gerr != nil || !slices.EqualFunc(got, c.want, sameGrant) {
			t.Errorf("grants of %d: %+v %v, want %+v", c.id, got, gerr, c.want)
		}
	}
	roles, total, err := s.ListRoles(ctx, nil, 0, 0)
	if err != nil || total != int64(len(policy.BuiltinRoles)) || roles[0].Name != "Add suggestion" {
		t.Errorf("roles: %d %v", total, err)
	}
}

func sameGrant(a, b policy.Grant) bool {
	return a.ProjectSelection == b.ProjectSelection && a.LanguageSelection == b.LanguageSelection &&
		slices.Equal(a.Permissions, b.Permissions) && slices.Equal(a.Projects, b.Projects)
}

func testProjectTeams(t *testing.T, s *store.Store) {
	ctx := t.Context()
	if err := s.EnsureBuiltins(ctx); err != nil {
		t.Fatal(err)
	}
	owner := user(t, s, "owner")
	for range 2 {
		if err := s.SetupProjectTeams(ctx, "my_proj", &owner); err != nil {
			t.Fatal(err)
		}
	}
	teams, total, err := s.ListTeams(ctx, store.TeamFilter{DefiningProject: "my_proj"}, 0, 0)
	if err != nil || total != int64(len(policy.ProjectTeams)) {
		t.Fatalf("project teams: %d %v", total, err)
	}
	for _, tm := range teams {
		if len(tm.Roles) != 1 || !slices.Equal(tm.Projects, []string{"my_proj"}) {
			t.Errorf("team %s: roles %v projects %v", tm.Name, tm.Roles, tm.Projects)
		}
	}
	grants, _ := s.Grants(ctx, owner)
	admin := policy.Caller{Username: "owner", Grants: grants}
	if !admin.Can("project.permissions", policy.Scope{Project: "my_proj", Access: weblate.AccessPrivate}) ||
		admin.Can("project.edit", policy.Scope{Project: "myXproj", Access: weblate.AccessPrivate}) {
		t.Errorf("owner's grants: %+v", grants)
	}
	// A component link of another team goes with the project; the "_"
	// of the slug is not a wildcard.
	other, _ := s.SaveTeam(ctx, store.Team{Name: "Other", LanguageSelection: 1})
	for _, v := range []string{"my_proj/app", "myXproj/app"} {
		if err := s.Link(ctx, other.ID, store.LinkComponent, v); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.DeleteProjectTeams(ctx, "my_proj"); err != nil {
		t.Fatal(err)
	}
	if _, total, _ := s.ListTeams(ctx, store.TeamFilter{DefiningProject: "my_proj"}, 0, 0); total != 0 {
		t.Errorf("%d teams left", total)
	}
	if o, _ := s.GetTeam(ctx, other.ID); !slices.Equal(o.Components, []string{"myXproj/app"}) {
		t.Errorf("other team's components: %v", o.Components)
	}
}

func testRolesAndLinks(t *testing.T, s *store.Store) {
	ctx := t.Context()
	r, err := s.SaveRole(ctx, store.Role{Name: "Mine", Permissions: []string{"unit.edit", "comment.add", "unit.edit"}})
	if err != nil || !slices.Equal(r.Permissions, []string{"comment.add", "unit.edit"}) {
		t.Fatalf("role: %+v %v", r, err)
	}
	if _, err = s.SaveRole(ctx, store.Role{Name: "Mine"}); !errs.Is(err, errs.InvalidArgument) {
		t.Errorf("duplicate role name: %v", err)
	}
	tm, err := s.SaveTeam(ctx, store.Team{Name: "Team", LanguageSelection: 0})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.SaveTeam(ctx, store.Team{Name: "Team"}); !errs.Is(err, errs.InvalidArgument) {
		t.Errorf("duplicate team name: %v", err)
	}
	member := user(t, s, "member")
	for _, l := range []struct {
		kind  int
		value string
	}{{store.LinkRole, "1"}, {store.LinkProject, "p"}, {store.LinkLanguage, "de"}, {store.LinkMember, "0"}} {
		v := l.value
		switch l.kind {
		case store.LinkRole:
			v = itoa(r.ID)
		case store.LinkMember:
			v = itoa(member)
		}
		if err := s.Link(ctx, tm.ID, l.kind, v); err != nil {
			t.Fatal(err)
		}
	}
	grants, _ := s.Grants(ctx, member)
	c := policy.Caller{Username: "member", Grants: grants}
	de, fr := policy.Scope{Project: "p", Access: weblate.AccessPrivate, Language: "de"}, policy.Scope{Project: "p", Access: weblate.AccessPrivate, Language: "fr"}
	if !c.Can("unit.edit", de) || c.Can("unit.edit", fr) || !c.Sees("p", weblate.AccessPrivate) {
		t.Errorf("language scope: %+v", grants)
	}
	if err := s.DeleteRole(ctx, r.ID); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetTeam(ctx, tm.ID); len(got.Roles) != 0 {
		t.Errorf("deleted role still linked: %v", got.Roles)
	}
	if err := s.Unlink(ctx, tm.ID, store.LinkLanguage, "fr"); !errs.Is(err, errs.NotFound) {
		t.Errorf("unlink of nothing: %v", err)
	}
	// An administrator is a member; a member who leaves stops
	// administering; revoking administration leaves the membership.
	boss := user(t, s, "boss")
	if err := s.Link(ctx, tm.ID, store.LinkAdmin, itoa(boss)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetTeam(ctx, tm.ID); !slices.Equal(got.Admins, []int64{boss}) || !slices.Contains(got.Members, boss) {
		t.Errorf("administrator: admins %v members %v", got.Admins, got.Members)
	}
	if err := s.Unlink(ctx, tm.ID, store.LinkMember, itoa(boss)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetTeam(ctx, tm.ID); len(got.Admins) != 0 || slices.Contains(got.Members, boss) {
		t.Errorf("after leaving: admins %v members %v", got.Admins, got.Members)
	}
	if err := s.Link(ctx, tm.ID, store.LinkAdmin, itoa(boss)); err != nil {
		t.Fatal(err)
	}
	if err := s.Unlink(ctx, tm.ID, store.LinkAdmin, itoa(boss)); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.GetTeam(ctx, tm.ID); len(got.Admins) != 0 || !slices.Contains(got.Members, boss) {
		t.Errorf("after revoking: admins %v members %v", got.Admins, got.Members)
	}
	if err := s.DeleteTeam(ctx, tm.ID); err != nil {
		t.Fatal(err)
	}
	if ids, _ := s.TeamIDsOf(ctx, []int64{member}); slices.Contains(ids[member], tm.ID) {
		t.Errorf("member of a deleted team: %v", ids)
	}
}

func itoa(n int64) string { return fmt.Sprint(n) }

// testProjectRenames: a renamed project's teams, links, subscriptions and
// webhooks follow it (a component's links and subscriptions too), and a
// project set up under the former slug starts with fresh teams; deleting
// a project drops its subscriptions and webhooks.
func testProjectRenames(t *testing.T, s *store.Store) {
	ctx := t.Context()
	if err := s.EnsureBuiltins(ctx); err != nil {
		t.Fatal(err)
	}
	owner := user(t, s, "owner")
	if err := s.SetupProjectTeams(ctx, "p_x", &owner); err != nil {
		t.Fatal(err)
	}
	other, err := s.SaveTeam(ctx, store.Team{Name: "Renamed components", LanguageSelection: 1})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []string{"p_x/app", "p_x/web", "pyx/app"} {
		if err = s.Link(ctx, other.ID, store.LinkComponent, v); err != nil {
			t.Fatal(err)
		}
	}
	sub, err := s.CreateSubscription(ctx, store.Subscription{Username: "owner", Notification: "NewStringNotificaton", Scope: 2, Frequency: 1, ProjectSlug: "p_x", ComponentSlug: "app"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateWebhook(ctx, &store.Webhook{ProjectSlug: "p_x", URL: "https://hooks.example/", Active: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.RenameProject(ctx, "p_x", "q"); err != nil {
		t.Fatal(err)
	}
	if err := s.RenameComponent(ctx, "q", "app", "app2"); err != nil {
		t.Fatal(err)
	}
	if _, n, _ := s.ListTeams(ctx, store.TeamFilter{DefiningProject: "q"}, 0, 0); n != int64(len(policy.ProjectTeams)) {
		t.Errorf("teams of the renamed project: %d", n)
	}
	grants, _ := s.Grants(ctx, owner)
	if admin := (policy.Caller{Username: "owner", Grants: grants}); !admin.Can("project.edit", policy.Scope{Project: "q", Access: weblate.AccessPrivate}) ||
		admin.Can("project.edit", policy.Scope{Project: "p_x", Access: weblate.AccessPrivate}) {
		t.Errorf("the owner's grants after the rename: %+v", grants)
	}
	if o, _ := s.GetTeam(ctx, other.ID); !slices.Equal(o.Components, []string{"pyx/app", "q/app2", "q/web"}) {
		t.Errorf("other team's components: %v", o.Components)
	}
	if got, err := s.GetSubscription(ctx, "owner", sub.ID); err != nil || got.ProjectSlug != "q" || got.ComponentSlug != "app2" {
		t.Errorf("subscription: %+v %v", got, err)
	}
	if hooks, _ := s.Webhooks(ctx, "q"); len(hooks) != 1 {
		t.Errorf("webhooks of the renamed project: %v", hooks)
	}
	if err := s.SetupProjectTeams(ctx, "p_x", nil); err != nil { // a new project takes the former slug
		t.Fatal(err)
	}
	teams, _, _ := s.ListTeams(ctx, store.TeamFilter{DefiningProject: "p_x"}, 0, 0)
	for _, tm := range teams {
		if len(tm.Members) != 0 {
			t.Errorf("new project's team %s has the old one's members %v", tm.Name, tm.Members)
		}
	}
	if err := s.DeleteProjectTeams(ctx, "q"); err != nil {
		t.Fatal(err)
	}
	if hooks, _ := s.Webhooks(ctx, "q"); len(hooks) != 0 {
		t.Errorf("webhooks left after the delete: %v", hooks)
	}
	if _, err := s.GetSubscription(ctx, "owner", sub.ID); !errs.Is(err, errs.NotFound) {
		t.Errorf("subscription after the delete: %v", err)
	}
}
