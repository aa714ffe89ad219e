package changefeed

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/timestamppb"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/db"
	"github.com/tmsproject/tms/pkg/outbox"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// Topic is the outbox topic of change records.
const Topic = "changelog.change"

// errNoAction refuses a record without an action, which no caller means
// to write; it is also what lets Deliverer read an unspecified action as a
// record written before actions were an enum.
var errNoAction = errors.New("change record without an action")

// Record stores c in the outbox within tx. The timestamp is the moment of
// the change (now when unset), not the moment of delivery.
func Record(tx *gorm.DB, c *changelogv1.Change) error {
	if c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_UNSPECIFIED {
		return errNoAction
	}
	if c.GetTimestamp() == nil {
		c.Timestamp = timestamppb.New(db.Normalize(time.Now()))
	}
	payload, err := proto.Marshal(c)
	if err != nil {
		return fmt.Errorf("encode change: %w", err)
	}
	_, err = outbox.Add(tx, Topic, payload)
	return err
}

// RecordAll is Record of many changes, written in multi-row statements.
func RecordAll(tx *gorm.DB, changes []*changelogv1.Change) error {
	payloads := make([][]byte, len(changes))
	for i, c := range changes {
		if c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_UNSPECIFIED {
			return errNoAction
		}
		if c.GetTimestamp() == nil {
			c.Timestamp = timestamppb.New(db.Normalize(time.Now()))
		}
		var err error
		if payloads[i], err = proto.Marshal(c); err != nil {
			return fmt.Errorf("encode change: %w", err)
		}
	}
	return outbox.AddAll(tx, Topic, payloads)
}

// Deliverer returns the outbox delivery function that sends change records
// to the changelog service, each carrying its outbox event id.
func Deliverer(client changelogv1.ChangelogServiceClient) outbox.Deliverer {
	return func(ctx context.Context, events []outbox.Event) error {
		req := &changelogv1.AppendChangesRequest{}
		for _, ev := range events {
			if ev.Topic != Topic {
				continue
			}
			c := &changelogv1.Change{}
			if err := proto.Unmarshal(ev.Payload, c); err != nil {
				return fmt.Errorf("decode change %s: %w", ev.EventID, err)
			}
			if err := upgradeDetails(c); err != nil {
				return fmt.Errorf("decode change %s: %w", ev.EventID, err)
			}
			c.EventId = ev.EventID
			if c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_UNSPECIFIED {
				// Written before actions were an enum, as the reference's
				// 0, "Resource updated": Record refuses unspecified.
				c.Action = typev1.ChangeAction_CHANGE_ACTION_UPDATE
			}
			req.Changes = append(req.Changes, c)
		}
		if len(req.Changes) == 0 {
			return nil
		}
		ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
		defer cancel()
		_, err := client.AppendChanges(ctx, req)
		return err
	}
}

// Relay returns an outbox relay that delivers change records to client and
// reports failed deliveries to log (slog.Default when nil).
func Relay(gdb *gorm.DB, client changelogv1.ChangelogServiceClient, log *slog.Logger) *outbox.Relay {
	return outbox.NewRelay(gdb, Deliverer(client), outbox.WithLogger(log), outbox.WithLazyMarks())
}
