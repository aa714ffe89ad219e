package catalog

import (
	"context"
	"fmt"
	"log/slog"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/pkg/policy"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/catalog/server"
	"github.com/tmsproject/tms/services/catalog/store"
)

// Translation is the part of the translation service the catalog calls:
// imports of bindings (server.Translation) and the removals of deleted
// components.
type Translation interface {
	server.Translation
	ForgetComponents(ctx context.Context, in *translationv1.ForgetComponentsRequest, opts ...grpc.CallOption) (*translationv1.ForgetComponentsResponse, error)
	RenameComponents(ctx context.Context, in *translationv1.RenameComponentsRequest, opts ...grpc.CallOption) (*translationv1.RenameComponentsResponse, error)
	RecheckComponents(ctx context.Context, in *translationv1.RecheckComponentsRequest, opts ...grpc.CallOption) (*translationv1.RecheckComponentsResponse, error)
	ApplyCatalogSnapshots(ctx context.Context, in *translationv1.ApplyCatalogSnapshotsRequest, opts ...grpc.CallOption) (*translationv1.ApplyCatalogSnapshotsResponse, error)
}

// removalRelay delivers the catalog's deletes and renames to the
// translation service.
//
// A delete of components (alone, with a category or with their project)
// writes, in the transaction that deletes them, an event into the
// catalog's own outbox table store.Removals; this relay hands each batch
// to TranslationService.ForgetComponents and retries with backoff until
// it succeeds (at least once; forgetting is idempotent). This is the
// house's transactional outbox (rule 3) with the owner of the data
// driving the cascade (rule 9), chosen over having the translation service
// follow the change log: change records name components by slug, which a
// new component may take again, while the removal carries the ids the
// translation service keys its rows by; and the removal does not wait for
// the changelog service, nor does a reader of the change log page through
// every unit edit to find the few deletes. The translation service
// hides the deleted components as soon as the delete's snapshot reaches
// it (projectionRelay, before the delete answers); until the removal is
// delivered, ListRemovedComponents lists them too. The table is the removals' own so that no other relay (the
// change log's, or an older release's during a rollout) takes them.
func removalRelay(gdb *gorm.DB, client Translation, log *slog.Logger) *outbox.Relay {
	deliver := func(ctx context.Context, events []outbox.Event) error {
		// Runs of removals and of renames go in commit order, each run in
		// one call: a component renamed and then deleted is forgotten, one
		// deleted is not renamed back into existence.
		for len(events) > 0 {
			n := 1
			for n < len(events) && events[n].Topic == events[0].Topic {
				n++
			}
			if err := deliverRun(policy.System(ctx), client, events[:n]); err != nil {
				return err
			}
			events = events[n:]
		}
		return nil
	}
	return outbox.NewRelay(gdb, deliver, outbox.WithTable(store.Removals), outbox.WithLogger(log))
}

// deliverRechecks hands rechecks to the translation service in commit
// order: each run of those that enforce checks, or of those that do not,
// in one call.
func deliverRechecks(ctx context.Context, client Translation, events []outbox.Event) error {
	var req *translationv1.RecheckComponentsRequest
	flush := func() error {
		if req == nil {
			return nil
		}
		_, err := client.RecheckComponents(ctx, req)
		req = nil
		return err
	}
	for _, ev := range events {
		r := &translationv1.RecheckComponentsRequest{}
		if err := proto.Unmarshal(ev.Payload, r); err != nil {
			return fmt.Errorf("decode recheck %s: %w", ev.EventID, err)
		}
		if req != nil && req.GetEnforce() != r.GetEnforce() {
			if err := flush(); err != nil {
				return err
			}
		}
		if req == nil {
			req = &translationv1.RecheckComponentsRequest{Enforce: r.GetEnforce()}
		}
		req.ComponentIds = append(req.ComponentIds, r.GetComponentIds()...)
	}
	return flush()
}

// deliverRun hands events of one topic to the translation service.
func deliverRun(ctx context.Context, client Translation, events []outbox.Event) error {
	if events[0].Topic == store.RecheckTopic {
		return deliverRechecks(ctx, client, events)
	}
	if events[0].Topic == store.RenameTopic {
		req := &translationv1.RenameComponentsRequest{}
		for _, ev := range events {
			r := &translationv1.RenameComponentsRequest{}
			if err := proto.Unmarshal(ev.Payload, r); err != nil {
				return fmt.Errorf("decode rename %s: %w", ev.EventID, err)
			}
			req.Components = append(req.Components, r.GetComponents()...)
		}
		_, err := client.RenameComponents(ctx, req)
		return err
	}
	req := &translationv1.ForgetComponentsRequest{}
	for _, ev := range events {
		r, err := store.DecodeRemoval(ev)
		if err != nil {
			return err
		}
		req.ComponentIds = append(req.ComponentIds, r.GetComponentIds()...)
		req.ProjectIds = append(req.ProjectIds, r.GetProjectIds()...)
		req.ProjectSlugs = append(req.ProjectSlugs, r.GetProjectSlugs()...)
	}
	_, err := client.ForgetComponents(ctx, req)
	return err
}
