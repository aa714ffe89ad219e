// Package changefeedtest reads, in tests, the change records a service
// wrote into its outbox (changefeed.Record) and has not pruned.
package changefeedtest

import (
	"testing"

	"google.golang.org/protobuf/proto"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/changefeed"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
)

// Since returns the change records in gdb's outbox after outbox id mark,
// oldest first, and the id of the last one (mark when there is none).
// Since(t, gdb, 0) reads them all.
func Since(t testing.TB, gdb *gorm.DB, mark int64) ([]*changelogv1.Change, int64) {
	t.Helper()
	var rows []struct {
		ID      int64
		Payload []byte
	}
	err := gdb.Table("outbox_events").Where("topic = ? AND id > ?", changefeed.Topic, mark).Order("id").Find(&rows).Error
	if err != nil {
		t.Fatal(err)
	}
	out := make([]*changelogv1.Change, 0, len(rows))
	for _, r := range rows {
		c := &changelogv1.Change{}
		if err := proto.Unmarshal(r.Payload, c); err != nil {
			t.Fatalf("outbox event %d is not a change record: %v", r.ID, err)
		}
		out, mark = append(out, c), r.ID
	}
	return out, mark
}

// All returns every change record in gdb's outbox, oldest first.
func All(t testing.TB, gdb *gorm.DB) []*changelogv1.Change {
	t.Helper()
	out, _ := Since(t, gdb, 0)
	return out
}
