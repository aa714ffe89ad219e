package store

import (
	"slices"
	"time"

	"google.golang.org/protobuf/types/known/timestamppb"
	"gorm.io/gorm"

	"github.com/tmsproject/tms/pkg/changefeed"
	"github.com/tmsproject/tms/pkg/weblate"
	changelogv1 "github.com/tmsproject/tms/proto/gen/go/tms/changelog/v1"
	typev1 "github.com/tmsproject/tms/proto/gen/go/tms/type/v1"
)

// unitChangeRow is a row of unit_changes, the index of a string's change
// records that search reads (migration 0015).
type unitChangeRow struct {
	ID     int64 `gorm:"primaryKey"`
	UnitID int64
	Action int32 // the reference's number
	Author string
	At     time.Time
}

func (unitChangeRow) TableName() string { return "unit_changes" }

// recordChanges writes change records to the outbox within tx, stamping
// those without a timestamp with at, and indexes the records of strings
// for search in the same transaction, so the index and the change log
// never disagree about a committed change. The translations a person made
// go into the memory in that transaction too (memoryActions).
func recordChanges(tx *gorm.DB, at time.Time, changes []*changelogv1.Change) error {
	remembered, err := recordDeferred(tx, at, changes)
	if err != nil {
		return err
	}
	return rememberUnits(tx, remembered)
}

// recordDeferred is recordChanges leaving the memory to the caller: it
// answers the units to remember before the transaction commits (an edit
// group remembers those of all its edits at once).
func recordDeferred(tx *gorm.DB, at time.Time, changes []*changelogv1.Change) (remembered []int64, err error) {
	if len(changes) == 0 {
		return nil, nil
	}
	var rows []unitChangeRow
	for _, c := range changes {
		if c.Timestamp == nil {
			c.Timestamp = timestamppb.New(at)
		}
		// A removal's unit is gone (or going) with its index rows.
		if c.GetUnitId() == 0 || c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_STRING_REMOVE {
			continue
		}
		rows = append(rows, unitChangeRow{UnitID: c.GetUnitId(), Action: weblate.ChangeActions.RefOf(c.GetAction()),
			Author: c.GetAuthor(), At: c.GetTimestamp().AsTime().UTC()})
		if slices.Contains(memoryActions, c.GetAction()) {
			remembered = append(remembered, c.GetUnitId())
		}
	}
	if err := insertUnitChanges(tx, rows); err != nil {
		return nil, err
	}
	return remembered, changefeed.RecordAll(tx, changes)
}

// insertUnitChanges writes rows, 500 a statement (4 parameters each): an
// edit writes one or two.
func insertUnitChanges(tx *gorm.DB, rows []unitChangeRow) error {
	args := make([]any, 0, 4*len(rows))
	for _, r := range rows {
		args = append(args, r.UnitID, r.Action, r.Author, r.At)
	}
	return insertRows(tx, "INSERT INTO unit_changes (unit_id, action, author, at)", 4, 500, args)
}
