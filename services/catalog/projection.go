package catalog

import (
	"context"
	"log/slog"
	"slices"

	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/outbox"
	"github.com/tmsproject/tms/pkg/policy"
	translationv1 "github.com/tmsproject/tms/proto/gen/go/tms/translation/v1"
	"github.com/tmsproject/tms/services/catalog/server"
	"github.com/tmsproject/tms/services/catalog/store"
)

// projectionRelay delivers snapshots of the projects written to, to the
// translation service, which keeps them so that its reads and edits ask
// the catalog nothing (ApplyCatalogSnapshots), and of the language table
// after a write to a language or a plural (store.Languages), which it
// resolves the language codes of files against.
//
// Each write to a project or its components adds one to the project's
// revision and an event to store.Projection in its transaction (the
// house's outbox, rule 3). Delivering reads each named project as it is
// then (store.Snapshot): many events of one project in a batch make one
// snapshot, and a late one sends the present state, whose revision tells
// the translation service whether it is news. The store calls Flush after
// the commit, so a write's snapshot has normally arrived when the write
// answers: a lock, a new setting or a new component holds for the next
// edit. When the translation service is down the write still succeeds
// and its snapshot follows when it is back.
func projectionRelay(gdb *gorm.DB, st *store.Store, client Translation, log *slog.Logger) *outbox.Relay {
	deliver := func(ctx context.Context, events []outbox.Event) error {
		var ids []int64
		for _, ev := range events {
			id, err := store.ProjectOfEvent(ev)
			if err != nil {
				return err
			}
			if !slices.Contains(ids, id) {
				ids = append(ids, id)
			}
		}
		req := &translationv1.ApplyCatalogSnapshotsRequest{}
		for _, id := range ids {
			if id == store.Languages {
				table, err := st.LanguageTable(ctx)
				if err != nil {
					return err
				}
				req.Languages = server.LanguageTableProto(table)
				continue
			}
			snap, err := st.Snapshot(ctx, id)
			if err != nil {
				return err
			}
			req.Snapshots = append(req.Snapshots, server.SnapshotProto(snap))
		}
		_, err := client.ApplyCatalogSnapshots(policy.System(ctx), req)
		return err
	}
	return outbox.NewRelay(gdb, deliver, outbox.WithTable(store.Projection), outbox.WithLogger(log))
}
