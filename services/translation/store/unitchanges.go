package store

import (
	"errors"
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
// never disagree about a committed change. The units whose translations a
// person made are queued for the memory in that transaction too
// (memoryActions, memoryqueue.go).
func recordChanges(tx *gorm.DB, at time.Time, changes []*changelogv1.Change) error {
	var w changeWrites
	if err := w.record(at, changes); err != nil {
		return err
	}
	return w.write(tx)
}

// changeWrites are the rows that change records (and content changes)
// add, gathered so that the edits of a group write them together, a
// statement per table, when it commits.
type changeWrites struct {
	units      []unitChangeRow
	feed       []*changelogv1.Change
	remembered []int64 // units whose translations the memory takes (queued)
	content    []contentChange
}

// errNoAction refuses a change record without an action, before it is
// gathered: written with a group's, it would fail them all.
var errNoAction = errors.New("change record without an action")

// record stamps changes without a timestamp with at and gathers their rows.
func (w *changeWrites) record(at time.Time, changes []*changelogv1.Change) error {
	for _, c := range changes {
		if c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_UNSPECIFIED {
			return errNoAction
		}
	}
	for _, c := range changes {
		if c.Timestamp == nil {
			c.Timestamp = timestamppb.New(at)
		}
		// A removal's unit is gone (or going) with its index rows.
		if c.GetUnitId() == 0 || c.GetAction() == typev1.ChangeAction_CHANGE_ACTION_STRING_REMOVE {
			continue
		}
		w.units = append(w.units, unitChangeRow{UnitID: c.GetUnitId(), Action: weblate.ChangeActions.RefOf(c.GetAction()),
			Author: c.GetAuthor(), At: c.GetTimestamp().AsTime().UTC()})
		if slices.Contains(memoryActions, c.GetAction()) {
			w.remembered = append(w.remembered, c.GetUnitId())
		}
	}
	w.feed = append(w.feed, changes...)
	return nil
}

// add gathers o's rows after w's.
func (w *changeWrites) add(o *changeWrites) {
	w.units = append(w.units, o.units...)
	w.feed = append(w.feed, o.feed...)
	w.remembered = append(w.remembered, o.remembered...)
	w.content = append(w.content, o.content...)
}

func (w *changeWrites) reset() {
	w.units, w.feed, w.remembered, w.content = w.units[:0], w.feed[:0], w.remembered[:0], w.content[:0]
}

// write writes the rows gathered, one statement for each table.
func (w *changeWrites) write(tx *gorm.DB) error {
	if err := insertUnitChanges(tx, w.units); err != nil {
		return err
	}
	if len(w.feed) > 0 {
		if err := changefeed.RecordAll(tx, w.feed); err != nil {
			return err
		}
	}
	if err := insertContentChanges(tx, w.content); err != nil {
		return err
	}
	return queueMemory(tx, w.remembered)
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

// insertContentChanges writes rows of content_changes, 500 a statement.
func insertContentChanges(tx *gorm.DB, rows []contentChange) error {
	args := make([]any, 0, 2*len(rows))
	for _, r := range rows {
		args = append(args, r.TranslationID, r.At)
	}
	return insertRows(tx, "INSERT INTO content_changes (translation_id, at)", 2, 500, args)
}
