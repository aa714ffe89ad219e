package server_test

import (
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

func created(id, project, creator string) *notificationv1.ProjectEvent {
	return &notificationv1.ProjectEvent{EventId: id, Kind: &notificationv1.ProjectEvent_ProjectCreated{
		ProjectCreated: &notificationv1.ProjectCreated{Project: project, Creator: creator}}}
}

// TestApplyProjectEvents: only the services and superusers apply events;
// a malformed event refuses the whole call before any applies; each event
// id applies once; a creator gets the project's Administration team.
func TestApplyProjectEvents(t *testing.T) {
	gdb := dbtest.SQLite(t, store.Migrations)
	st := store.New(gdb)
	if err := st.EnsureBuiltins(t.Context()); err != nil {
		t.Fatal(err)
	}
	ann, err := st.CreateUser(t.Context(), store.User{Username: "ann", IsActive: true}, nil)
	if err != nil {
		t.Fatal(err)
	}
	conn := grpctest.Serve(t, func(srv grpc.ServiceRegistrar) {
		notificationv1.RegisterAccessServiceServer(srv, server.NewAccess(st, nil))
	})
	c := notificationv1.NewAccessServiceClient(conn)
	good := created("e1", "p", "ann")

	refused := []struct {
		name   string
		as     string // the user the call acts for; empty: a service's own call
		events []*notificationv1.ProjectEvent
		code   codes.Code
		field  string
	}{
		{"a user who is no superuser", "ann", []*notificationv1.ProjectEvent{good}, codes.PermissionDenied, ""},
		{"no event id", "", []*notificationv1.ProjectEvent{good, created("", "q", "")}, codes.InvalidArgument, "events.1.event_id"},
		{"no kind", "", []*notificationv1.ProjectEvent{good, {EventId: "e2"}}, codes.InvalidArgument, "events.1"},
		{"no project", "", []*notificationv1.ProjectEvent{good, created("e2", "", "")}, codes.InvalidArgument, "events.1"},
		{"rename without new slug", "", []*notificationv1.ProjectEvent{good, {EventId: "e2",
			Kind: &notificationv1.ProjectEvent_ProjectRenamed{ProjectRenamed: &notificationv1.ProjectRenamed{Project: "p"}}}},
			codes.InvalidArgument, "events.1"},
	}
	for _, r := range refused {
		t.Run("refused/"+r.name, func(t *testing.T) {
			ctx := t.Context()
			if r.as != "" {
				ctx = policy.WithCaller(ctx, policy.NewAccount(r.as))
			}
			_, err := c.ApplyProjectEvents(ctx, &notificationv1.ApplyProjectEventsRequest{Events: r.events})
			wantErr(t, err, r.code, r.field, "")
			if teams, _, _ := st.ListTeams(t.Context(), store.TeamFilter{DefiningProject: "p"}, 0, 0); len(teams) != 0 {
				t.Errorf("a refused call set up teams: %d", len(teams))
			}
		})
	}
	t.Run("applied once", func(t *testing.T) {
		for i, want := range []int32{1, 0} {
			resp, err := c.ApplyProjectEvents(t.Context(), &notificationv1.ApplyProjectEventsRequest{Events: []*notificationv1.ProjectEvent{good}})
			if err != nil {
				t.Fatal(err)
			}
			if resp.GetApplied() != want {
				t.Errorf("delivery %d: applied %d, want %d", i+1, resp.GetApplied(), want)
			}
		}
		grants, err := st.Grants(t.Context(), ann.ID)
		if err != nil {
			t.Fatal(err)
		}
		if admin := (policy.Caller{Username: "ann", Grants: grants}); !admin.Can("project.permissions", policy.Scope{Project: "p"}) {
			t.Errorf("the creator does not administer the project: %+v", grants)
		}
	})
}
