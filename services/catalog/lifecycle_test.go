package catalog_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/fieldmaskpb"

	"github.com/tmsproject/tms/pkg/policy"
	catalogv1 "github.com/tmsproject/tms/proto/gen/go/tms/catalog/v1"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/catalog"
)

// accessPeer is the notification service as the catalog's lifecycle relay
// calls it: it refuses the first calls (down), or applies calls and then
// loses their answers, and applies each event id once, as the service.
type accessPeer struct {
	mu          sync.Mutex
	refuse      int            // calls to refuse before applying any
	loseAnswers int            // calls applied whose answer is lost
	applied     []string       // events in the order first applied
	deliveries  map[string]int // deliveries per event id
}

func (a *accessPeer) ApplyProjectEvents(ctx context.Context, req *notificationv1.ApplyProjectEventsRequest, _ ...grpc.CallOption) (*notificationv1.ApplyProjectEventsResponse, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if _, ok := policy.FromContext(ctx); ok {
		return nil, errors.New("project events are the catalog's own calls")
	}
	if a.refuse > 0 {
		a.refuse--
		return nil, errors.New("notification service unavailable")
	}
	if a.deliveries == nil {
		a.deliveries = map[string]int{}
	}
	for _, ev := range req.GetEvents() {
		if ev.GetEventId() == "" {
			return nil, errors.New("an event without id")
		}
		a.deliveries[ev.GetEventId()]++
		if a.deliveries[ev.GetEventId()] == 1 {
			a.applied = append(a.applied, describe(ev))
		}
	}
	if a.loseAnswers > 0 {
		a.loseAnswers--
		return nil, errors.New("connection reset")
	}
	return &notificationv1.ApplyProjectEventsResponse{}, nil
}

// got returns the events applied and the most deliveries of one event.
func (a *accessPeer) got() ([]string, int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	most := 0
	for _, n := range a.deliveries {
		most = max(most, n)
	}
	return slices.Clone(a.applied), most
}

func describe(ev *notificationv1.ProjectEvent) string {
	switch k := ev.GetKind().(type) {
	case *notificationv1.ProjectEvent_ProjectCreated:
		return fmt.Sprintf("created %s by %s", k.ProjectCreated.GetProject(), k.ProjectCreated.GetCreator())
	case *notificationv1.ProjectEvent_ProjectRenamed:
		return fmt.Sprintf("renamed %s>%s", k.ProjectRenamed.GetProject(), k.ProjectRenamed.GetNewSlug())
	case *notificationv1.ProjectEvent_ProjectDeleted:
		return "deleted " + k.ProjectDeleted.GetProject()
	case *notificationv1.ProjectEvent_ComponentRenamed:
		r := k.ComponentRenamed
		return fmt.Sprintf("renamed %s/%s>%s", r.GetProject(), r.GetComponent(), r.GetNewSlug())
	case *notificationv1.ProjectEvent_ComponentDeleted:
		return fmt.Sprintf("deleted %s/%s", k.ComponentDeleted.GetProject(), k.ComponentDeleted.GetComponent())
	}
	return fmt.Sprintf("unknown %v", ev)
}

// lifecycleSteps creates, renames and deletes a project and a component
// through the catalog, then creates a project under the deleted slug.
func lifecycleSteps(ctx context.Context, srv catalogv1.CatalogServiceServer) error {
	steps := []func() error{
		func() error {
			_, err := srv.CreateProject(ctx, &catalogv1.CreateProjectRequest{Actor: "ann", Project: &catalogv1.Project{Name: "A", Slug: "a", Web: "https://example.com/"}})
			return err
		},
		func() error {
			_, err := srv.CreateComponent(ctx, &catalogv1.CreateComponentRequest{Component: &catalogv1.Component{ProjectSlug: "a", Name: "C", Slug: "c",
				FileFormat: "po", Filemask: "po/*.po", Repo: "https://example.com/r.git"}})
			return err
		},
		func() error {
			_, err := srv.UpdateProject(ctx, &catalogv1.UpdateProjectRequest{Slug: "a", Project: &catalogv1.Project{Slug: "b"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"slug"}}})
			return err
		},
		func() error {
			_, err := srv.UpdateComponent(ctx, &catalogv1.UpdateComponentRequest{ProjectSlug: "b", Slug: "c", Component: &catalogv1.Component{Slug: "c2"}, UpdateMask: &fieldmaskpb.FieldMask{Paths: []string{"slug"}}})
			return err
		},
		func() error {
			_, err := srv.DeleteComponent(ctx, &catalogv1.DeleteComponentRequest{ProjectSlug: "b", Slug: "c2"})
			return err
		},
		func() error {
			_, err := srv.DeleteProject(ctx, &catalogv1.DeleteProjectRequest{Slug: "b"})
			return err
		},
		func() error {
			_, err := srv.CreateProject(ctx, &catalogv1.CreateProjectRequest{Actor: "bob", Project: &catalogv1.Project{Name: "A", Slug: "a", Web: "https://example.com/"}})
			return err
		},
	}
	for i, step := range steps {
		if err := step(); err != nil {
			return fmt.Errorf("step %d: %w", i+1, err)
		}
	}
	return nil
}

// TestLifecycleReachesTheNotificationService: the creations, renames and
// deletions of projects and components reach the notification service in
// the order they were made, each event once in effect, though the service
// is down for a while or an answer is lost (and the batch delivered
// again); with the service up, each before the catalog's call answers.
func TestLifecycleReachesTheNotificationService(t *testing.T) {
	want := []string{"created a by ann", "renamed a>b", "renamed b/c>c2", "deleted b/c2", "deleted b", "created a by bob"}
	cases := []struct {
		name         string
		peer         *accessPeer
		redelivered  bool // some event must have been delivered twice
		beforeAnswer bool // every event delivered when its call answered, without Run
	}{
		{"service up", &accessPeer{}, false, true},
		{"service down at first", &accessPeer{refuse: 3}, false, false},
		{"answers lost", &accessPeer{loseAnswers: 2}, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			svc, err := catalog.New(t.Context(), catalog.Config{DataDir: t.TempDir(), Log: quiet, Access: c.peer})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				if cerr := svc.Close(); cerr != nil {
					t.Error(cerr)
				}
			})
			if err := lifecycleSteps(t.Context(), svc.Server()); err != nil {
				t.Fatal(err)
			}
			if c.beforeAnswer {
				if got, _ := c.peer.got(); !slices.Equal(got, want) {
					t.Fatalf("applied when the calls answered: %q, want %q", got, want)
				}
			}
			defer runRelays(t, svc)()
			for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
				got, most := c.peer.got()
				if slices.Equal(got, want) && (most > 1) == c.redelivered {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("applied %q (an event delivered at most %d times), want %q (again: %v)", got, most, want, c.redelivered)
				}
			}
		})
	}
}
