package catalog

import (
	"context"
	"log/slog"

	"google.golang.org/grpc"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/pkg/policy"
	notificationv1 "github.com/tmsproject/tms/proto/gen/go/tms/notification/v1"
	"github.com/tmsproject/tms/services/catalog/store"
)

// Access is the part of the notification service's AccessService the
// catalog calls: the lifecycle of projects and components, which its
// teams, team links, subscriptions and webhooks follow.
type Access interface {
	ApplyProjectEvents(ctx context.Context, in *notificationv1.ApplyProjectEventsRequest, opts ...grpc.CallOption) (*notificationv1.ApplyProjectEventsResponse, error)
}

// lifecycleRelay delivers the catalog's creations, renames and deletions
// of projects and components to the notification service.
//
// Each such write adds, in its transaction, an event to the catalog's
// outbox table store.Lifecycle; this relay hands each batch, in commit
// order, to AccessService.ApplyProjectEvents and retries with backoff
// until it succeeds. The service applies each event id once (it stores
// the ids it applied with their effect), so delivering a batch again
// after a crash, or after a failure part-way through it, changes nothing
// that was applied: a rename delivered again after a new project took the
// former slug would otherwise move the new project's teams, and a delete
// delivered again would drop them. The catalog, which owns the projects,
// drives the cascade (ARCHITECTURE.md rules 3 and 9), so every caller of
// the catalog, the gateway or an internal one, gets the same teams. A
// table of its own keeps these events in order among themselves and out
// of the other relays' reach.
func lifecycleRelay(gdb *gorm.DB, client Access, log *slog.Logger) *outbox.Relay {
	deliver := func(ctx context.Context, events []outbox.Event) error {
		req := &notificationv1.ApplyProjectEventsRequest{Events: make([]*notificationv1.ProjectEvent, len(events))}
		for i, ev := range events {
			pe, err := store.DecodeLifecycle(ev)
			if err != nil {
				return err
			}
			req.Events[i] = pe
		}
		_, err := client.ApplyProjectEvents(policy.System(ctx), req)
		return err
	}
	return outbox.NewRelay(gdb, deliver, outbox.WithTable(store.Lifecycle), outbox.WithLogger(log))
}
