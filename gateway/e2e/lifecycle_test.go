package e2e

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/tmsproject/tms/gateway/stack"
	"github.com/tmsproject/tms/gateway/stacktest"
	"github.com/tmsproject/tms/pkg/grpcx"
	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// peers are the notification service's generated clients.
type peers struct {
	access        notificationv1.AccessServiceClient
	webhooks      notificationv1.WebhookServiceClient
	notifications notificationv1.NotificationServiceClient
}

// scopeState is what the notification service keeps of one project slug.
type scopeState struct {
	teams         int      // the project's own teams
	admins        []string // members of its Administration team
	webhooks      int
	subscriptions int // the admin's subscriptions to the project
}

// TestInternalCallerProjectLifecycle runs every service in one process on
// SQLite, listening on TCP, with the gateway beside them. An internal
// caller with nothing but the generated clients creates a project, gives
// it a webhook and a subscription, renames it, creates a new project
// under the former slug and deletes the renamed one; a REST client does
// the same under other slugs. Both end with the same teams, webhooks and
// subscriptions: the renamed project kept its own until its delete, the
// new project under the former slug started with fresh teams and
// inherited nothing.
func TestInternalCallerProjectLifecycle(t *testing.T) {
	st := stacktest.Start(t, stacktest.Options{Mode: stacktest.Listening})
	addrs := st.Addrs
	svc := dialServices(t, addrs)
	conn := dialConn(t, addrs[stack.Notification])
	note := peers{access: notificationv1.NewAccessServiceClient(conn), webhooks: notificationv1.NewWebhookServiceClient(conn),
		notifications: notificationv1.NewNotificationServiceClient(conn)}
	stacktest.Eventually(t, 30*time.Second, func() bool {
		_, err := svc.translation.ListTranslations(t.Context(), &translationv1.ListTranslationsRequest{})
		return err == nil
	})

	base := st.API
	callers := []struct {
		name                   string
		create, rename, delete func(t *testing.T, slug, newSlug string)
	}{
		{"gRPC",
			func(t *testing.T, slug, _ string) {
				_, err := svc.catalog.CreateProject(t.Context(), &catalogv1.CreateProjectRequest{Actor: "admin",
					Project: &catalogv1.Project{Name: slug, Slug: slug, Web: "https://demo.example/"}})
				if err != nil {
					t.Fatal(err)
				}
			},
			func(t *testing.T, slug, newSlug string) {
				_, err := svc.catalog.UpdateProject(t.Context(), &catalogv1.UpdateProjectRequest{Actor: "admin", Slug: slug,
					Project: &catalogv1.Project{Slug: newSlug, Name: newSlug}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"slug", "name"}}})
				if err != nil {
					t.Fatal(err)
				}
			},
			func(t *testing.T, slug, _ string) {
				if _, err := svc.catalog.DeleteProject(t.Context(), &catalogv1.DeleteProjectRequest{Actor: "admin", Slug: slug}); err != nil {
					t.Fatal(err)
				}
			}},
		{"REST",
			func(t *testing.T, slug, _ string) {
				call(t, "POST", base+"projects/", map[string]any{"name": slug, "slug": slug, "web": "https://demo.example/"}, 201)
			},
			func(t *testing.T, slug, newSlug string) {
				call(t, "PATCH", base+"projects/"+slug+"/", map[string]any{"slug": newSlug, "name": newSlug}, 200)
			},
			func(t *testing.T, slug, _ string) { call(t, "DELETE", base+"projects/"+slug+"/", nil, 204) }},
	}
	got := map[string][]scopeState{}
	for _, c := range callers {
		t.Run(c.name, func(t *testing.T) {
			first, renamed := "life-"+strings.ToLower(c.name), "renamed-"+strings.ToLower(c.name)
			c.create(t, first, "")
			addScoped(t, note, first)
			created := note.state(t, first)
			c.rename(t, first, renamed)
			c.create(t, first, "") // a new project under the former slug
			afterRename := []scopeState{note.state(t, renamed), note.state(t, first)}
			c.delete(t, renamed, "")
			got[c.name] = append(append([]scopeState{created}, afterRename...), note.state(t, renamed))
		})
	}
	fresh := scopeState{teams: len(policy.ProjectTeams), admins: []string{"admin"}}
	kept := scopeState{teams: len(policy.ProjectTeams), admins: []string{"admin"}, webhooks: 1, subscriptions: 1}
	want := []scopeState{kept, kept, fresh, {}}
	for name, states := range got {
		if fmt.Sprint(states) != fmt.Sprint(want) {
			t.Errorf("%s caller: created, renamed, new under the former slug, deleted:\n got %+v\nwant %+v", name, states, want)
		}
	}
}

func dialConn(t *testing.T, addr string) *grpc.ClientConn {
	c, err := grpcx.Dial(addr, grpcx.WithServiceToken(serviceToken))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.Close() })
	return c
}

// addScoped gives the project a webhook and the admin a subscription to
// it.
func addScoped(t *testing.T, note peers, project string) {
	ctx := t.Context()
	if _, err := note.webhooks.CreateWebhook(ctx, &notificationv1.CreateWebhookRequest{Webhook: &notificationv1.Webhook{
		ProjectSlug: project, Url: "https://hooks.example/" + project, Active: true}}); err != nil {
		t.Fatal(err)
	}
	if _, err := note.notifications.CreateSubscription(ctx, &notificationv1.CreateSubscriptionRequest{Subscription: &notificationv1.Subscription{
		Username: "admin", Notification: typev1.NotificationKind_NOTIFICATION_KIND_NEW_STRING, Scope: typev1.NotificationScope_NOTIFICATION_SCOPE_PROJECT,
		Frequency:   typev1.NotificationFrequency_NOTIFICATION_FREQUENCY_INSTANT,
		ProjectSlug: project}}); err != nil {
		t.Fatal(err)
	}
}

// state reads what the notification service keeps of the project slug.
func (p peers) state(t *testing.T, project string) scopeState {
	ctx := t.Context()
	var s scopeState
	teams, err := p.access.ListGroups(ctx, &notificationv1.ListGroupsRequest{DefiningProject: project})
	if err != nil {
		t.Fatal(err)
	}
	s.teams = len(teams.GetGroups())
	for _, g := range teams.GetGroups() {
		if g.GetName() == "Administration" {
			s.admins = slices.Sorted(slices.Values(g.GetMembers()))
		}
	}
	hooks, err := p.webhooks.ListWebhooks(ctx, &notificationv1.ListWebhooksRequest{ProjectSlug: project})
	if err != nil {
		t.Fatal(err)
	}
	s.webhooks = len(hooks.GetWebhooks())
	subs, err := p.notifications.ListSubscriptions(ctx, &notificationv1.ListSubscriptionsRequest{Username: "admin"})
	if err != nil {
		t.Fatal(err)
	}
	for _, sub := range subs.GetSubscriptions() {
		if sub.GetProjectSlug() == project {
			s.subscriptions++
		}
	}
	return s
}
